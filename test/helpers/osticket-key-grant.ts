import assert from 'node:assert/strict';
import { runCli } from './cli.ts';

/** What an osTicket key could do through deskgate before least privilege (issue 32). */
export const FORMER_RIGHTS = [
  '--scope',
  'write,users:read,tickets:read,tickets:write',
  '--any-agent',
];

/**
 * Grants osTicket key `keyId` through deskgate as an admin does: `deskgate migrate` (deskgate's
 * own tables, osTicket's untouched), then `deskgate osticket keys grant ID ARGS`, both as child
 * processes. Resolves to the grant's --json output.
 */
export async function grantOsticketKey(
  database: { url: string; prefix?: string },
  keyId: number,
  args: readonly string[] = FORMER_RIGHTS,
): Promise<Record<string, unknown>> {
  const env = { DESKGATE_SCHEMA: 'osticket', DESKGATE_TABLE_PREFIX: database.prefix ?? 'ost_' };
  const migrated = await runCli(['migrate', '--database', database.url], env);
  assert.equal(migrated.code, 0, migrated.stderr);
  const granted = await runCli(
    ['osticket', 'keys', 'grant', String(keyId), ...args, '--database', database.url, '--json'],
    env,
  );
  assert.equal(granted.code, 0, granted.stderr);
  return JSON.parse(granted.stdout) as Record<string, unknown>;
}
