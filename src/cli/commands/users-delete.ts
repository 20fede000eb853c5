import { createInterface } from 'node:readline/promises';
import type { OsticketApiConfig } from '../../config.ts';
import { managedInOsticketMessage } from '../../data/osticket/managed-by-osticket.ts';
import type { Store } from '../../data/store.ts';
import { tickets } from '../../data/tickets/tickets.ts';
import { users } from '../../data/users/users.ts';
import { writes } from '../../data/writes/writes.ts';
import { DeskgateError } from '../../errors.ts';
import {
  type BridgeErasure,
  BridgeErasureRefused,
  eraseUserThroughBridge,
} from '../../osticket-api/call-osticket.ts';
import {
  type Erasure,
  type ErasureScope,
  eraseUser,
  findErasureRefusal,
  recordOsticketErasure,
} from '../../users/erase-user.ts';
import {
  type Command,
  CommandError,
  type CommandInput,
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

/** The erasure itself, once the user was shown and confirmed: deskgate's own, or osTicket's. */
type Erase = (store: Store, scope: ErasureScope) => Promise<Erasure | undefined>;

/** osTicket mode (decision 344): through deskgate's osTicket plugin, as agent `staffId`. */
function eraseThroughOsticket(api: OsticketApiConfig, id: number, staffId: number): Erase {
  return async (store, scope) => {
    let erased: BridgeErasure;
    try {
      erased = await eraseUserThroughBridge(api, {
        staff_id: staffId,
        user_id: id,
        anonymise_tickets: scope.tickets,
      });
    } catch (error) {
      if (error instanceof BridgeErasureRefused) throw new CommandError(error.message);
      if (error instanceof DeskgateError) {
        const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
        throw new CommandError(`${error.message}${cause}`);
      }
      throw error;
    }
    try {
      return await recordOsticketErasure(store, id, scope, erased);
    } catch (error) {
      throw new CommandError(
        `osTicket erased user ${id}, but deskgate could not write its audit entry nor forget its stored answers: ${(error as Error).message}`,
      );
    }
  };
}

/** The agent osTicket's plugin acts as: --staff, else DESKGATE_OSTICKET_BRIDGE_STAFF_ID. */
function bridgeAgent(input: CommandInput, api: OsticketApiConfig): number {
  const staff = input.values.staff;
  if (typeof staff === 'string') return parseId(staff, '--staff');
  if (api.bridgeStaffId !== undefined) return api.bridgeStaffId;
  throw new UsageError(
    'in osTicket mode users delete acts as an agent with the permission to delete users: pass --staff ID (or set DESKGATE_OSTICKET_BRIDGE_STAFF_ID)',
  );
}

export const usersDelete: Command = {
  name: 'users delete',
  usage:
    'deskgate users delete ID [--anonymise-tickets] [--staff ID] [--yes] [--database URL] [--json]',
  summary:
    'Delete a user, its emails and account for good (an erasure request), audited by id only; ' +
    'with --anonymise-tickets also erase their name, address and words from their tickets, ' +
    "which stay with their history; in osTicket mode through deskgate's osTicket plugin as " +
    'agent --staff; asks to type the id back on a terminal, needs --yes elsewhere.',
  options: {
    ...JSON_OPTION,
    yes: { type: 'boolean', default: false },
    'anonymise-tickets': { type: 'boolean', default: false },
    staff: { type: 'string' },
  },
  positionals: 1,
  async run(input) {
    const id = parseId(input.positionals[0], 'ID');
    const yes = input.values.yes === true;
    const scope = { tickets: input.values['anonymise-tickets'] === true };
    let erase: Erase = (store) => eraseUser(store, id, scope);
    // Before any question: in osTicket mode without the plugin the answer would be no.
    if (input.config.schema === 'osticket') {
      const api = input.config.osticketApi;
      if (!api?.bridge)
        throw new CommandError(
          `${managedInOsticketMessage('users', 'staff panel (Users)')}, unless deskgate's osTicket plugin erases them: ` +
            'set DESKGATE_OSTICKET_URL, DESKGATE_OSTICKET_API_KEY and DESKGATE_OSTICKET_BRIDGE=true (osticket-plugin/deskgate-bridge, docs/decisions/344)',
        );
      erase = eraseThroughOsticket(api, id, bridgeAgent(input, api));
    } else if (input.values.staff !== undefined) {
      throw new UsageError('--staff is for osTicket mode, where osTicket acts as that agent');
    }
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
      return erase(store, scope);
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
