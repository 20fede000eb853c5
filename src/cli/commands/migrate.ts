import { openStore } from '../../data/open-store.ts';
import { SERVICE_ENTITIES } from '../../server/service-entities.ts';
import { type Command, JSON_OPTION, printJson } from '../command.ts';

export const migrate: Command = {
  name: 'migrate',
  usage: 'deskgate migrate [--database URL] [--json]',
  summary: 'Apply pending database migrations.',
  options: JSON_OPTION,
  positionals: 0,
  async run(input) {
    const { store, applied } = await openStore(input.config, {
      migrate: true,
      entities: SERVICE_ENTITIES,
    });
    await store.close();
    if (input.values.json) printJson(input, { applied });
    else
      input.out(
        applied.length === 0 ? 'Already up to date.\n' : `Applied: ${applied.join(', ')}\n`,
      );
  },
};
