import { openStore } from '../../data/open-store.ts';
import { type Command, JSON_OPTION, printJson } from '../command.ts';
import { readMigrationStatus } from '../migration-status.ts';

export const migrate: Command = {
  name: 'migrate',
  usage: 'deskgate migrate [--status] [--database URL] [--json]',
  summary:
    'Apply pending database migrations (--status: list applied and pending ones, change nothing).',
  options: { ...JSON_OPTION, status: { type: 'boolean', default: false } },
  positionals: 0,
  async run(input) {
    if (input.values.status) {
      const status = await readMigrationStatus(input.config);
      if (input.values.json) printJson(input, status);
      else
        input.out(
          `${[
            ...status.applied.map((name) => `applied  ${name}`),
            ...status.pending.map((name) => `pending  ${name}`),
          ].join('\n')}\n${
            status.pending.length === 0
              ? 'Up to date.'
              : `${status.pending.length} pending; deskgate migrate applies them.`
          }\n`,
        );
      return;
    }
    // Loaded here, not at the top: the entities come from the operation registry, which help,
    // completion and --status have no use for.
    const { SERVICE_ENTITIES } = await import('../../server/service-entities.ts');
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
