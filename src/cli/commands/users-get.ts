import { users } from '../../data/users/users.ts';
import { type Command, CommandError, JSON_OPTION, parseId, printJson } from '../command.ts';
import { textTimestamp } from '../text-timestamp.ts';
import { usingStore } from '../using-store.ts';

export const usersGet: Command = {
  name: 'users get',
  usage: 'deskgate users get ID [--database URL] [--json]',
  summary: 'Show one user (never the password hash).',
  options: JSON_OPTION,
  positionals: 1,
  async run(input) {
    const id = parseId(input.positionals[0], 'ID');
    const user = await usingStore(input.config, [users], (store) =>
      store.data(users).findUserById(id),
    );
    if (!user) throw new CommandError(`no user with id ${id}`);
    const view = {
      id: user.id,
      name: user.name,
      email: user.email,
      timezone: user.timezone,
      phone: user.phone,
      org_id: user.orgId,
      default_email_id: user.defaultEmailId,
      status: user.status,
      created: user.created,
      updated: user.updated,
    };
    if (input.values.json) {
      printJson(input, view);
      return;
    }
    const text = {
      ...view,
      created: textTimestamp(view.created, input.config),
      updated: textTimestamp(view.updated, input.config),
    };
    input.out(
      `${Object.entries(text)
        .map(([k, v]) => `${k.padEnd(17)}${v}`)
        .join('\n')}\n`,
    );
  },
};
