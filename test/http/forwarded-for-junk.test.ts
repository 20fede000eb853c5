import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import type { Kysely } from 'kysely';
import { openDatabase } from '../../src/data/open-database.ts';
import { DATABASES } from '../helpers/databases.ts';
import { describeWithDatabase } from '../helpers/each-database.ts';
import { call, topicBody, userBody } from '../helpers/http.ts';
import { useTestServer } from '../helpers/test-server.ts';
import type { Database } from '../support/own-schema.ts';

for (const kind of DATABASES.filter((d) => d.name !== 'mysql')) {
  describeWithDatabase(
    `X-Forwarded-For that is not an IP address, behind a trusted proxy, on ${kind.name}`,
    kind,
    (database) => {
      const server = useTestServer({
        database,
        env: {
          DESKGATE_TRUST_PROXY: 'loopback',
          DESKGATE_AUTH_FAILURE_LIMIT: '3',
          DESKGATE_AUTH_FAILURE_WINDOW: '600',
        },
      });
      let db: Kysely<Database>;
      let key: string;
      let tenKey: string;

      before(async () => {
        ({ key } = await server.createKey());
        ({ key: tenKey } = await server.createKey({ allowIps: ['10.0.0.0/8'] }));
        ({ db } = openDatabase<Database>(database.url));
      });
      after(async () => {
        await db?.destroy();
      });

      test('junk longer than the audit column: the user is created and audited with the proxy address', async () => {
        for (const junk of ['x'.repeat(100), `fe80::1%${'a'.repeat(80)}`, '203.0.113.9:4711']) {
          const reply = await call(server.url, {
            method: 'POST',
            headers: { apikey: key, 'X-Forwarded-For': junk },
            body: userBody(),
          });
          assert.equal(reply.status, 200, `${junk}: ${reply.text}`);
          const audit = await db
            .selectFrom('audit_log')
            .select('client_ip')
            .where('target_id', '=', String(reply.body?.data))
            .executeTakeFirstOrThrow();
          assert.equal(audit.client_ip, '127.0.0.1');
        }
      });

      test('junk does not stand in for an allowed address', async () => {
        const reply = await call(server.url, {
          headers: { apikey: tenKey, 'X-Forwarded-For': '10.0.0.1x' },
          body: topicBody(1),
        });
        assert.equal(reply.status, 403);
        // A real address behind the trusted proxy still counts.
        const real = await call(server.url, {
          headers: { apikey: tenKey, 'X-Forwarded-For': '10.0.0.1' },
          body: topicBody(1),
        });
        assert.equal(real.status, 200, real.text);
      });

      test('rotating junk values do not defeat the failed-auth limit', async () => {
        const statuses: number[] = [];
        for (let i = 0; i < 6; i++) {
          const reply = await call(server.url, {
            headers: {
              apikey: randomBytes(16).toString('hex').toUpperCase(),
              'X-Forwarded-For': `junk-${randomBytes(4).toString('hex')}`,
            },
            body: topicBody(1),
          });
          statuses.push(reply.status);
        }
        assert.deepEqual(statuses, [401, 401, 401, 429, 429, 429]);
      });
    },
  );
}
