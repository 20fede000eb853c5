import { readdirSync } from 'node:fs';
import type { Kysely } from 'kysely';
import type { Dialect } from '../dialects/dialect.ts';

export type MigrationModule = { up(db: Kysely<unknown>, dialect: Dialect): Promise<void> };

/** deskgate's own tables (`deskgate`), or deskgate's tables beside osTicket's (`osticket`). */
export type Layout = 'deskgate' | 'osticket';

/** A migration's name: its file's name without `.ts`, as deskgate_migration records it. */
const MIGRATION_NAME = /^(osticket-)?(\d{3})-[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** A file starting so is meant as a migration: misnamed if it is not MIGRATION_NAME. */
const MEANT_AS_MIGRATION = /^(?:\d|osticket-)/;

/**
 * The migrations among the files of this folder, in order: `NNN-slug.ts` migrates deskgate's own
 * layout, `osticket-NNN-slug.ts` deskgate's tables in an osTicket database (osTicket's own tables
 * are never touched), numbered from 001 without a gap or a repeat. Any other file is a helper
 * unless it starts like a migration. Throws naming every misnamed, missing or repeated one.
 */
export function migrationsAmong(fileNames: readonly string[]): Record<Layout, string[]> {
  const problems: string[] = [];
  const byNumber: Record<Layout, Map<number, string[]>> = {
    deskgate: new Map(),
    osticket: new Map(),
  };
  for (const file of fileNames) {
    // The sources are .ts, tsc's copy in dist/ is .js beside .d.ts.
    const stem = /^(.+)\.[jt]s$/.exec(file)?.[1];
    if (stem === undefined || stem.endsWith('.d')) continue;
    if (stem.endsWith('.test')) {
      problems.push(
        `${file}: tests of migrations live in test/, the bundled command would take one in here`,
      );
      continue;
    }
    const match = MIGRATION_NAME.exec(stem);
    if (match) {
      const numbered = byNumber[match[1] ? 'osticket' : 'deskgate'];
      const number = Number(match[2]);
      numbered.set(number, [...(numbered.get(number) ?? []), stem]);
    } else if (MEANT_AS_MIGRATION.test(stem)) {
      problems.push(
        `${file} starts like a migration but is not named NNN-slug.ts or osticket-NNN-slug.ts (three digits, then lower-case words joined by "-")`,
      );
    }
  }
  const migrations: Record<Layout, string[]> = { deskgate: [], osticket: [] };
  for (const layout of ['deskgate', 'osticket'] as const) {
    const numbered = byNumber[layout];
    const last = Math.max(0, ...numbered.keys());
    for (let number = 1; number <= last; number++) {
      const names = numbered.get(number) ?? [];
      const prefix = `${layout === 'osticket' ? 'osticket-' : ''}${String(number).padStart(3, '0')}`;
      if (names.length === 0) problems.push(`no migration ${prefix}-…: the numbers skip it`);
      if (names.length > 1) problems.push(`two migrations numbered ${prefix}: ${names.join(', ')}`);
      migrations[layout].push(...names);
    }
  }
  if (problems.length > 0) {
    throw new Error(`src/data/migrations/: ${problems.join('; ')}`);
  }
  return migrations;
}

/** Set by scripts/bundle-cli.ts to this folder's migrations: the bundled command has no folder. */
declare const BUNDLED_MIGRATIONS: Record<Layout, string[]> | undefined;

/**
 * Each layout's migrations, in order: a new migration is a file in this folder, named as
 * `migrationsAmong` says, and nothing else.
 */
export const MIGRATIONS: Readonly<Record<Layout, readonly string[]>> =
  typeof BUNDLED_MIGRATIONS === 'undefined'
    ? migrationsAmong(readdirSync(import.meta.dirname))
    : BUNDLED_MIGRATIONS;

/**
 * Loads migration `name` (one of MIGRATIONS) when it is to run, not with the command: a command
 * on a migrated database loads none.
 */
export async function importMigration(name: string): Promise<MigrationModule> {
  // Spelt with the dash every migration has: esbuild bundles what `./**/*-*.ts` matches, one
  // chunk each, and so leaves out migrate.ts and this module, which the command's chunks hold.
  const dash = name.indexOf('-');
  const module: Partial<MigrationModule> = await import(
    `./${name.slice(0, dash)}-${name.slice(dash + 1)}.ts`
  );
  if (typeof module.up !== 'function') throw new Error(`migration ${name} exports no up()`);
  return module as MigrationModule;
}
