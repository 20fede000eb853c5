import assert from 'node:assert/strict';
import { test } from 'node:test';
import * as z from 'zod';
import { describeWithDatabase, SQLITE } from '../../test/helpers/each-database.ts';
import { userBody } from '../../test/helpers/http.ts';
import { useTestServer } from '../../test/helpers/test-server.ts';
import { OPERATIONS } from './registry.ts';

/** What the validation library says by itself; deskgate's messages never read like this. */
const LIBRARY_WORDING = /expected|received|Invalid input|Too (big|small)/i;

describeWithDatabase('parameter messages are deskgate’s own', SQLITE, (database) => {
  const server = useTestServer(() => ({ database }));
  // Tasks answer only a key with the notes grant (decision 322).
  const withNotes = () =>
    server.createKey({
      scopes: ['read', 'write', 'users:read', 'tickets:read', 'tickets:write', 'admin'],
      notes: true,
    });

  test('a numeric JSON password: "must be a string"', async () => {
    const reply = await server.request(userBody({ password: 12345678 }), { method: 'POST' });
    assert.equal(reply.status, 400, reply.text);
    assert.deepEqual(reply.body?.errors, [
      { field: 'parameters.password', message: 'must be a string' },
    ]);
    assert.equal(reply.body?.data, 'Invalid parameters: parameters.password must be a string.');
  });

  // Issue 37, item 9: sla/all without `parameters` answered only that they must be an object.
  test('sla/all without parameters: 400 naming the parameters it needs', async () => {
    const reply = await server.request({ query: 'sla', condition: 'all' });
    assert.equal(reply.status, 400, reply.text);
    assert.equal(reply.body?.code, 'invalid_parameters');
    assert.equal(
      reply.body?.data,
      'Invalid parameters: parameters is required; parameters.start_date is required; parameters.end_date is required.',
    );
    assert.deepEqual(reply.body?.errors, [
      { field: 'parameters', message: 'is required' },
      { field: 'parameters.start_date', message: 'is required' },
      { field: 'parameters.end_date', message: 'is required' },
    ]);
  });

  test('every operation that needs parameters, sent without: each required one named', async () => {
    for (const operation of Object.values(OPERATIONS)) {
      if (operation.parametersOptional) continue;
      for (const variant of operation.variants) {
        const reply = await server.request(
          {
            query: operation.query,
            condition: operation.condition,
            ...(variant.sort === undefined ? {} : { sort: variant.sort }),
          },
          { method: operation.methods[0] },
        );
        const label = `${operation.name} ${variant.sort ?? ''}: ${reply.text}`;
        assert.equal(reply.status, 400, label);
        const [first, ...more] = reply.body?.errors ?? [];
        assert.deepEqual(first, { field: 'parameters', message: 'is required' }, label);
        assert.ok(more.length > 0, label);
        // Each required one by name, or a rule over several that names them (ticket/specific).
        for (const error of more)
          assert.match(
            `${error.field} ${error.message}`,
            /^parameters\.\w+ |\bid\b.*\bnumber\b/,
            label,
          );
      }
    }
  });

  // Issue 37, item 13: a range whose start is after its end answered an empty list.
  test('every operation with a date range: a reversed one is a 400 naming it', async () => {
    const ranged = Object.values(OPERATIONS).flatMap((operation) =>
      operation.variants
        .filter((variant) => {
          const shape = (variant.parameters as z.ZodObject).shape;
          return 'start_date' in shape && 'end_date' in shape;
        })
        .map((variant) => ({ operation, variant })),
    );
    assert.deepEqual(
      ranged.map(({ operation, variant }) => `${operation.name} ${variant.sort}`),
      [
        'user/all creationDate',
        'ticket/all creationDate',
        'ticket/all lastUpdateDate',
        'ticket/all statusByDate',
        'tasks/all creationDate',
        'department/all creationDate',
        'sla/all creationDate',
      ],
    );
    const { key } = await withNotes();
    for (const { operation, variant } of ranged) {
      const send = (start_date: string, end_date: string) =>
        server.request(
          {
            query: operation.query,
            condition: operation.condition,
            sort: variant.sort,
            parameters: {
              start_date,
              end_date,
              ...(variant.sort === 'statusByDate' ? { status: 0 } : {}),
            },
          },
          { key },
        );
      const reversed = await send('2026-12-01', '2026-11-01 23:59:59');
      const label = `${operation.name} ${variant.sort}: ${reversed.text}`;
      assert.equal(reversed.status, 400, label);
      assert.deepEqual(
        reversed.body?.errors,
        [
          {
            field: 'parameters.end_date',
            message:
              'must not be before parameters.start_date (2026-11-01 23:59:59 is before 2026-12-01 00:00:00)',
          },
        ],
        label,
      );
      // One day, given as a bare date at both ends, is a range, not a reversed one.
      assert.equal((await send('2026-11-01 12:00:00', '2026-11-01')).status, 200, label);
    }
  });

  test('every parameter of every operation, sent with a wrong JSON type', async () => {
    let checked = 0;
    for (const operation of Object.values(OPERATIONS)) {
      for (const variant of operation.variants) {
        assert.ok(variant.parameters instanceof z.ZodObject, operation.name);
        for (const name of Object.keys(variant.parameters.shape)) {
          for (const wrong of [[], {}, true, 1.5, 'x'.repeat(300)]) {
            const reply = await server.request(
              {
                query: operation.query,
                condition: operation.condition,
                ...(variant.sort === undefined ? {} : { sort: variant.sort }),
                parameters: { [name]: wrong },
              },
              { method: operation.methods[0] },
            );
            assert.equal(reply.status, 400, `${operation.name} ${name}: ${reply.text}`);
            for (const error of reply.body?.errors ?? []) {
              assert.doesNotMatch(error.message, LIBRARY_WORDING, `${operation.name} ${name}`);
            }
            checked++;
          }
        }
      }
    }
    assert.ok(checked > 50, String(checked));
  });
});
