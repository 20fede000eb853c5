import { createInterface } from 'node:readline/promises';
import { managedInOsticketMessage } from '../../data/osticket/managed-by-osticket.ts';
import { tickets } from '../../data/tickets/tickets.ts';
import { users } from '../../data/users/users.ts';
import { writes } from '../../data/writes/writes.ts';
import { eraseUser, findErasureRefusal } from '../../users/erase-user.ts';
import {
  type Command,
  CommandError,
  JSON_OPTION,
  parseId,
  printJson,
  UsageError,
} from '../command.ts';
import { usingStore } from '../using-store.ts';

/** Asks on the terminal (stderr, so stdout keeps only the result); true when the id is typed back. */
async function confirmOnTerminal(question: string, id: number): Promise<boolean> {
  const terminal = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return (await terminal.question(question)).trim() === String(id);
  } finally {
    terminal.close();
  }
}

export const usersDelete: Command = {
  name: 'users delete',
  usage: 'deskgate users delete ID [--anonymise-tickets] [--yes] [--database URL] [--json]',
  summary:
    'Delete a user, its emails and account for good (an erasure request), audited by id only; ' +
    'with --anonymise-tickets also erase their name, address and words from their tickets, ' +
    'which stay with their history; asks to type the id back on a terminal, needs --yes elsewhere.',
  options: {
    ...JSON_OPTION,
    yes: { type: 'boolean', default: false },
    'anonymise-tickets': { type: 'boolean', default: false },
  },
  positionals: 1,
  async run(input) {
    const id = parseId(input.positionals[0], 'ID');
    const yes = input.values.yes === true;
    const scope = { tickets: input.values['anonymise-tickets'] === true };
    // Before any question: in osTicket mode the answer would be no whatever the user typed.
    if (input.config.schema === 'osticket')
      throw new CommandError(
        managedInOsticketMessage('users', 'staff panel (Users)') +
          (scope.tickets
            ? "; osTicket 1.18 has no anonymisation: its Users → Delete with 'Delete tickets' deletes the user's tickets for good (docs/decisions/343)"
            : ''),
      );
    if (!yes && !process.stdin.isTTY)
      throw new UsageError(
        'users delete cannot be undone: pass --yes to delete without a question (stdin is not a terminal)',
      );
    const erasure = await usingStore(input.config, [users, writes, tickets], async (store) => {
      const user = await store.data(users).findUserById(id);
      if (!user) return undefined;
      const refusal = await findErasureRefusal(store, id, scope);
      if (refusal) throw new CommandError(refusal);
      if (!yes) {
        const named = scope.tickets
          ? await store.data(tickets).countTicketsNaming({ userId: id })
          : 0;
        const andTickets = named === 0 ? '' : `, and erase what ${named} ticket(s) hold about them`;
        const confirmed = await confirmOnTerminal(
          `Delete user ${id} "${user.name}" <${user.email}>, its emails and its account${andTickets}? ` +
            `This cannot be undone. Type ${id} to confirm: `,
          id,
        );
        if (!confirmed) throw new CommandError(`user ${id} was not deleted (not confirmed)`);
      }
      return eraseUser(store, id, scope);
    });
    if (!erasure) throw new CommandError(`no user with id ${id}`);
    if (input.values.json) {
      printJson(input, { id, deleted: true, forgotten: erasure.forgotten });
      return;
    }
    const others = Object.entries(erasure.forgotten)
      .filter(([, count]) => count > 0)
      .map(([what, count]) => `, ${count} ${what}`)
      .join('');
    input.out(
      `Deleted user ${id} with its emails and account${others}; the audit log records the deletion by id.\n`,
    );
  },
};
