import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { OsticketBrowser } from '../helpers/osticket-browser.ts';
import {
  REAL_OSTICKET_SKIP,
  type RealOsticket,
  startRealOsticket,
} from '../helpers/real-osticket.ts';
import { useTestServer } from '../helpers/test-server.ts';

/** A category as both sides show it to clients: its name, FAQ ids and sub-category ids. */
interface ShownCategory {
  name: string;
  faqs: number[];
  children: number[];
}

interface AnsweredCategory {
  id: string;
  name: string;
  faqs: { faq: { id: string }[] };
  children: Record<string, AnsweredCategory | number>;
}

/** deskgate's faq/all tree, flat: category id → what it shows. */
function flattenAnswer(categories: AnsweredCategory[], into = new Map<number, ShownCategory>()) {
  for (const category of categories) {
    const children = Object.entries(category.children)
      .filter(([key]) => key !== 'count')
      .map(([, child]) => child as AnsweredCategory);
    into.set(Number(category.id), {
      name: category.name,
      faqs: category.faqs.faq.map((f) => Number(f.id)).sort((a, b) => a - b),
      children: children.map((c) => Number(c.id)).sort((a, b) => a - b),
    });
    flattenAnswer(children, into);
  }
  return into;
}

const ids = (text: string, pattern: RegExp) =>
  [...new Set([...text.matchAll(pattern)].map((m) => Number(m[1])))].sort((a, b) => a - b);

/** What the client portal shows: kb/index.php's categories, then each kb/faq.php?cid=… page. */
async function walkPortal(browser: OsticketBrowser): Promise<Map<number, ShownCategory>> {
  const index = await browser.get('kb/index.php');
  assert.equal(index.status, 200);
  const shown = new Map<number, ShownCategory>();
  const pending = ids(index.text, /faq\.php\?cid=(\d+)/g);
  while (pending.length > 0) {
    const cid = pending.shift() as number;
    if (shown.has(cid)) continue;
    const page = await browser.get(`kb/faq.php?cid=${cid}`);
    assert.equal(page.status, 200, `kb/faq.php?cid=${cid}`);
    const children = ids(page.text, /faq\.php\?cid=(\d+)/g).filter((c) => c !== cid);
    const name = /<h1>([^<]*)<\/h1>/.exec(page.text)?.[1]?.split(' / ').at(-1)?.trim() ?? '';
    shown.set(cid, { name, faqs: ids(page.text, /faq\.php\?id=(\d+)/g), children });
    pending.push(...children);
  }
  return shown;
}

describe("the catalogue against the real osTicket 1.18.1's admin panel and portal", {
  skip: REAL_OSTICKET_SKIP,
}, () => {
  let osticket: RealOsticket;
  let staff: OsticketBrowser;
  let adminKey: string;

  before(async () => {
    osticket = await startRealOsticket();
    staff = await osticket.staffBrowser();
  });
  const deskgate = useTestServer(() => ({
    database: osticket.databaseUrl,
    env: {
      DESKGATE_SCHEMA: 'osticket',
      DESKGATE_TABLE_PREFIX: 'ost_',
      DESKGATE_OSTICKET_ADMIN_WRITES: 'true',
    },
    ownKey: false,
  }));
  before(async () => {
    adminKey = (await deskgate.createKey({ name: 'catalogue admin', scopes: ['admin'] })).key;
  });
  after(() => osticket?.stop());

  const write = async (query: string, parameters: object): Promise<number> => {
    const reply = await deskgate.request(
      { query, condition: 'add', parameters },
      { method: 'POST', key: adminKey },
    );
    assert.equal(reply.status, 200, reply.text);
    return Number(reply.body?.data);
  };

  /** Posts an admin-panel form after reading its page (for the CSRF token). */
  async function submit(page: string, fields: Record<string, string>): Promise<void> {
    await staff.get(`${page}?a=add`);
    const reply = await staff.postForm(`${page}?a=add`, fields);
    assert.equal(reply.status, 200);
    assert.match(reply.text, /Successfully added/, `${page}: the panel accepted the form`);
  }

  const rowOf = async (table: string, id: number) => {
    const [row] = await osticket.query<Record<string, unknown>>(
      `SELECT * FROM ost_${table} WHERE id = ?`,
      [id],
    );
    assert.ok(row, `${table} ${id}`);
    const { id: _id, name: _name, created: _c, updated: _u, ...rest } = row;
    return {
      ...rest,
      ...(rest.path ? { path: String(rest.path).replace(`/${id}/`, '/<id>/') } : {}),
    };
  };

  test('a department: the row deskgate writes is the row the admin panel writes; the panel lists and edits it', async () => {
    await submit('scp/departments.php', {
      do: 'create',
      a: 'add',
      id: '',
      pid: '',
      name: 'Billing panel',
      status: 'active',
      ispublic: '1',
      sla_id: '0',
      schedule_id: '0',
      manager_id: '0',
      assignment_flag: 'all',
      email_id: '0',
      tpl_id: '0',
      autoresp_email_id: '0',
      group_membership: '1',
      signature: 'Billing & invoices',
    });
    const [panel] = await osticket.query<{ id: number }>(
      "SELECT id FROM ost_department WHERE name = 'Billing panel'",
    );
    const ours = await write('department', {
      name: 'Billing deskgate',
      signature: 'Billing & invoices',
    });
    assert.deepEqual(await rowOf('department', ours), await rowOf('department', Number(panel?.id)));
    const list = await staff.get('scp/departments.php');
    assert.match(list.text, /Billing deskgate/);
    const edit = await staff.get(`scp/departments.php?id=${ours}`);
    assert.equal(edit.status, 200);
    assert.match(edit.text, /value="Billing deskgate"/);
    assert.doesNotMatch(edit.text, /Unknown or invalid|Fatal error|Warning:/);
  });

  test('an SLA plan: the same row, the name escaped as the panel stores it; the panel lists and edits it', async () => {
    await submit('scp/slas.php', {
      do: 'add',
      a: 'add',
      id: '',
      name: 'Gold & <b>P</b>',
      isactive: '1',
      grace_period: '12',
      schedule_id: '0',
      notes: '',
    });
    const [panel] = await osticket.query<{ id: number; name: string }>(
      "SELECT id, name FROM ost_sla WHERE name LIKE 'Gold%P%'",
    );
    const ours = await write('sla', { name: 'Gold & <b>D</b>', grace_period: 12, flags: 1 });
    assert.deepEqual(await rowOf('sla', ours), await rowOf('sla', Number(panel?.id)));
    const [stored] = await osticket.query<{ name: string }>(
      'SELECT name FROM ost_sla WHERE id = ?',
      [ours],
    );
    assert.equal(stored?.name, panel?.name.replace('P', 'D'));
    const list = await staff.get('scp/slas.php');
    assert.ok(list.text.includes('Gold &amp; &lt;b&gt;D'), 'listed, escaped');
    const edit = await staff.get(`scp/slas.php?id=${ours}`);
    assert.equal(edit.status, 200);
    assert.doesNotMatch(edit.text, /Unknown or invalid|Fatal error|Warning:/);
  });

  test("faq/all answers the tree osTicket's client portal shows for categories made in the panel", async () => {
    await osticket.query(
      "INSERT INTO ost_config (namespace, `key`, value) VALUES ('core', 'enable_kb', '1') ON DUPLICATE KEY UPDATE value = '1'",
    );
    const category = async (name: string, ispublic: number, pid = '') => {
      await submit('scp/categories.php', {
        do: 'create',
        a: 'add',
        id: '',
        ispublic: String(ispublic),
        pid,
        name,
        description: `About ${name}`,
        notes: '',
      });
      const [row] = await osticket.query<{ id: number }>(
        'SELECT category_id AS id FROM ost_faq_category WHERE name = ?',
        [name],
      );
      return String(row?.id);
    };
    const faq = async (category_id: string, ispublished: number, question: string) =>
      submit('scp/faq.php', {
        do: 'create',
        a: 'add',
        id: '',
        category_id,
        ispublished: String(ispublished),
        question,
        answer: `Answer to ${question}`,
        notes: '',
      });
    const accounts = await category('Accounts', 1);
    const twoFactor = await category('Two-factor', 2, accounts);
    const deep = await category('Level three', 1, twoFactor);
    const internal = await category('Internal', 0);
    await faq(accounts, 1, 'Reset password?');
    await faq(accounts, 0, 'Internal only?');
    await faq(twoFactor, 2, 'Featured two-factor?');
    await faq(deep, 1, 'Three levels deep?');
    await faq(internal, 1, 'In a private category?');
    // The portal's rules for categories without a published FAQ of their own: an empty
    // top-level one is hidden, one with a public child is shown; a subcategory is hidden, and so
    // is what lies below it.
    await category('Empty', 1);
    const parentOnly = await category('Parent only', 1);
    const emptyChild = await category('Empty child', 1, parentOnly);
    await faq(await category('Under an empty child', 1, emptyChild), 1, 'Unreachable?');
    await category('Empty sub', 1, accounts);

    const portal = await walkPortal(osticket.browser());
    const reply = await deskgate.request(
      { query: 'faq', condition: 'all' },
      { method: 'GET', key: osticket.apiKey.key },
    );
    assert.equal(reply.status, 200, reply.text);
    const answered = flattenAnswer(
      (reply.body?.data as { categories: AnsweredCategory[] } | undefined)?.categories ?? [],
    );
    assert.deepEqual([...portal.values()].map((shown) => shown.name).sort(), [
      'Accounts',
      'Level three',
      'Parent only',
      'Two-factor',
    ]);
    assert.deepEqual(answered, portal);
  });
});
