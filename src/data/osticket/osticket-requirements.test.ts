import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { ROOT } from '../../../test/helpers/paths.ts';
import { OPERATIONS } from '../../operations/registry.ts';
import { SERVICE_ENTITIES } from '../../server/service-entities.ts';
import { defineEntity } from '../entity.ts';
import { collectRequirements, renderGrants } from './osticket-requirements.ts';

const DOC = join(ROOT, 'docs', 'replacing-the-osticket-web-service.md');

function unused(): never {
  throw new Error('not built in this test');
}

describe('osTicket requirements, declared once per entity', () => {
  test("the docs' grants block is the one the entities derive", () => {
    const doc = readFileSync(DOC, 'utf8');
    const block = /<!-- grants:begin -->\n```sql\n([\s\S]*?)```\n<!-- grants:end -->/.exec(
      doc,
    )?.[1];
    assert.ok(block, 'the doc has a grants block');
    assert.equal(
      block,
      renderGrants(collectRequirements(SERVICE_ENTITIES)),
      'docs/replacing-the-osticket-web-service.md: paste the expected block between its grants markers',
    );
  });

  test('every entity an operation uses is among the service entities, so it is checked', () => {
    for (const operation of Object.values(OPERATIONS))
      for (const entity of operation.uses)
        assert.ok(SERVICE_ENTITIES.includes(entity), `${operation.name} uses ${entity.name}`);
  });

  test('a table two entities use is granted once, with both privileges and both columns', () => {
    const reads = defineEntity({
      name: 'reads',
      own: unused,
      osticket: unused,
      osticketRequires: {
        comment: 'reads',
        tables: [{ table: 'department', privileges: ['SELECT'], columns: ['id'] }],
      },
    });
    const writesToo = defineEntity({
      name: 'writes-too',
      own: unused,
      osticket: unused,
      osticketRequires: {
        comment: 'writes',
        tables: [
          { table: 'department', privileges: ['INSERT', 'SELECT'], columns: ['name'] },
          { table: 'sla', privileges: ['SELECT'] },
        ],
      },
    });
    const [first, second] = collectRequirements([reads, writesToo, reads]);
    assert.deepEqual(first, {
      comment: 'reads',
      tables: [{ table: 'department', privileges: ['SELECT', 'INSERT'], columns: ['id', 'name'] }],
    });
    assert.deepEqual(second, {
      comment: 'writes',
      tables: [{ table: 'sla', privileges: ['SELECT'] }],
    });
  });
});
