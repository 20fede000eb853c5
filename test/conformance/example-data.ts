import assert from 'node:assert/strict';
import { sql } from 'kysely';
import type { KindDatabase } from '../helpers/each-database.ts';
import { userBody } from '../helpers/http.ts';
import type { TestServer } from '../helpers/test-server.ts';
import { withDatabase } from '../support/database-rows.ts';

/*
 * The data the operations' examples need for a real answer, set up in one place (the lead adapts
 * it when the data layer moves). The examples name: topic 1 and a topic matching "inquiry" (the
 * default topics of both schemas), ann@example.com made by user/add's example, user 42, and users
 * created in November 2026 (user/all's range and its cursor "2026-11-22 09:15:02|42").
 */

/** Users made before the examples run, so that user/add's example makes user 42. */
const USERS_BEFORE_EXAMPLES = 41;

/** When every user was created, inside user/all's example range and after its cursor. */
const CREATED = '2026-11-23 10:00:00';

/** Makes users 1 to 41 through the public interface (POST user/add). */
export async function addUsersBeforeExamples(server: TestServer, key: string): Promise<void> {
  for (let n = 1; n <= USERS_BEFORE_EXAMPLES; n++) {
    const reply = await server.request(userBody({ email: `example-data-${n}@example.com` }), {
      method: 'POST',
      key,
    });
    assert.equal(reply.status, 200, reply.text);
    assert.equal(reply.body?.data, String(n), 'user ids are expected to start at 1 and follow on');
  }
}

/** Moves every user's creation time into user/all's example range (no operation sets it). */
export async function dateUsersForExamples(database: KindDatabase): Promise<void> {
  const { osticket } = database;
  if (osticket) {
    await osticket.query(`UPDATE \`${osticket.prefix}user\` SET created = ?`, [CREATED]);
    return;
  }
  await withDatabase(database.url, (db) =>
    sql`update users set created_at = ${CREATED}`.execute(db),
  );
}
