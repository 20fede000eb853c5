import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { findUserById } from '../helpers/data-setup.ts';
import { DATABASES } from '../helpers/databases.ts';
import { describeWithDatabase } from '../helpers/each-database.ts';
import { userBody } from '../helpers/http.ts';
import { useTestServer } from '../helpers/test-server.ts';
import { openRawConnection } from '../server/raw-connection.ts';
import { requestHead } from './raw-exchange.ts';

for (const kind of DATABASES.filter((d) => d.name !== 'mysql')) {
  describeWithDatabase(
    `a request followed by bytes that are not HTTP, in the same write, on ${kind.name}`,
    kind,
    (database) => {
      const server = useTestServer({ database });
      let key: string;

      before(async () => {
        ({ key } = await server.createKey());
      });

      for (const junk of ['GARBAGE\r\n\r\n', '\u0001\u0002\u0003 not http at all\r\n\r\n', 'x']) {
        test(`user/add + ${JSON.stringify(junk.slice(0, 12))}: the 200 for the user arrives first`, async () => {
          const body = JSON.stringify(userBody());
          const connection = await openRawConnection(server.port);
          connection.socket.write(
            requestHead('POST', '/upload/svc_wbs/', {
              apikey: key,
              'Content-Type': 'application/json',
              'Content-Length': Buffer.byteLength(body),
            }) +
              body +
              junk,
          );
          const received = await connection.waitFor(
            /^HTTP\/1\.1 (\d+).*?\r\n\r\n\{.*?\}(?=HTTP|$)/s,
          );
          assert.match(received, /^HTTP\/1\.1 200 /, received);
          const id = /"data":"(\d+)"/.exec(received)?.[1];
          assert.ok(id, received);
          const user = await findUserById(server, Number(id));
          assert.ok(user, 'the user that was answered for is stored');
          // A junk that is not yet a whole request may wait for more; whole junk gets its 400.
          if (junk.endsWith('\r\n\r\n')) {
            await connection.closed;
            assert.match(connection.received(), /\}HTTP\/1\.1 400 Bad Request\r\n/);
          }
          connection.socket.destroy();
        });
      }
    },
  );
}
