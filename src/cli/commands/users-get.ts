import { users } from '../../data/users/users.ts';
import { type Command, JSON_OPTION, printResult } from '../command.ts';
import { textTimestamp } from '../text-timestamp.ts';
import { usingStoreOnId } from '../using-store.ts';

export const usersGet: Command = {
  name: 'users get',
  usage: 'deskgate users get ID [--database URL] [--json]',
  summary: 'Show one user (never the password hash).',
  options: JSON_OPTION,
  positionals: 1,
  async run(input) {
    const { found: user } = await usingStoreOnId(input, [users], 'user', (store, id) =>
      store.data(users).findUserById(id),
    );
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
    printResult(input, view, () => {
      const text = {
        ...view,
        created: textTimestamp(view.created, input.config),
        updated: textTimestamp(view.updated, input.config),
      };
      return `${Object.entries(text)
        .map(([k, v]) => `${k.padEnd(17)}${v}`)
        .join('\n')}\n`;
    });
  },
};
