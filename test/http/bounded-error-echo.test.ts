import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { describeWithDatabase, SQLITE } from '../helpers/each-database.ts';
import { call, userFields } from '../helpers/http.ts';
import { useTestServer } from '../helpers/test-server.ts';

describeWithDatabase('errors that name what the caller sent stay small', SQLITE, (database) => {
  const server = useTestServer({ database });
  let key: string;

  before(async () => {
    ({ key } = await server.createKey());
  });

  test('a 16 KiB body of unknown parameter names: ten named (each at most 64 characters), the rest counted', async () => {
    const parameters: Record<string, unknown> = { ...userFields(), ['x'.repeat(1_000)]: 1 };
    for (let i = 0; Buffer.byteLength(JSON.stringify(parameters)) < 15_500; i++) {
      parameters[`unknown_${i}`] = 0;
    }
    const body = JSON.stringify({ query: 'user', condition: 'add', parameters });
    assert.ok(Buffer.byteLength(body) > 15_000 && Buffer.byteLength(body) <= 16_384);
    const unknown = Object.keys(parameters).length - Object.keys(userFields()).length;
    const reply = await call(server.url, { method: 'POST', headers: { apikey: key }, body });
    assert.equal(reply.status, 400, reply.text);
    assert.equal(reply.body?.code, 'invalid_parameters');
    assert.ok(reply.text.length < 3_000, `answer of ${reply.text.length} bytes`);
    const errors = reply.body?.errors ?? [];
    assert.equal(errors.length, 11);
    assert.equal(errors[0]?.field, `parameters.${'x'.repeat(64)}…`);
    assert.equal(errors[1]?.field, 'parameters.unknown_0');
    assert.deepEqual(errors[10], {
      field: 'parameters',
      message: `has ${unknown - 10} more names that user/add does not define`,
    });
    assert.match(String(reply.body?.data), new RegExp(`has ${unknown - 10} more names`));
  });

  test('an unknown operation with a huge name is quoted back cut short', async () => {
    const reply = await call(server.url, {
      headers: { apikey: key },
      body: { query: 'q'.repeat(10_000), condition: 'c'.repeat(5_000), parameters: {} },
    });
    assert.equal(reply.status, 400);
    assert.equal(reply.body?.code, 'unknown_operation');
    assert.ok(reply.text.length < 1_000, `answer of ${reply.text.length} bytes`);
    assert.match(
      String(reply.body?.data),
      new RegExp(`^Unknown operation "${'q'.repeat(64)}…"/"${'c'.repeat(64)}…"`),
    );
  });
});
