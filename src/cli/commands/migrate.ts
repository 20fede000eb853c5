import { migrateToLatest } from '../../data/migrations/migrate.ts';
import { openDatabase } from '../../data/open-database.ts';
import { type Command, JSON_OPTION, printJson } from '../command.ts';

export const migrate: Command = {
  name: 'migrate',
  usage: 'deskgate migrate [--database URL] [--json]',
  summary: 'Apply pending database migrations.',
  options: JSON_OPTION,
  positionals: 0,
  async run(input) {
    const { db, dialect } = openDatabase(input.config.databaseUrl);
    try {
      const applied = await migrateToLatest(db, dialect);
      if (input.values.json) printJson(input, { applied });
      else
        input.out(
          applied.length === 0 ? 'Already up to date.\n' : `Applied: ${applied.join(', ')}\n`,
        );
    } finally {
      await db.destroy();
    }
  },
};
