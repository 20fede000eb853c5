import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { userBody } from '../helpers/http.ts';
import {
  REAL_OSTICKET_SKIP,
  type RealOsticket,
  startRealOsticket,
} from '../helpers/real-osticket.ts';
import { useTestServer } from '../helpers/test-server.ts';

/** The `name` of the first <input> whose tag matches `pattern`. */
function inputName(html: string, pattern: RegExp): string {
  const tag = [...html.matchAll(/<input\b[^>]*>/g)].map((m) => m[0]).find((t) => pattern.test(t));
  const name = tag && /\bname="([^"]+)"/.exec(tag)?.[1];
  assert.ok(name, `no input like ${pattern} in the form:\n${html.slice(0, 3000)}`);
  return name;
}

// Issue 27, item 1, against osTicket itself: phones as its phone field has them.
describe("phones, as osTicket 1.18.1's staff panel shows and stores them", {
  skip: REAL_OSTICKET_SKIP,
}, () => {
  let osticket: RealOsticket;
  before(async () => {
    osticket = await startRealOsticket();
  });
  const deskgate = useTestServer(() => ({
    database: osticket.databaseUrl,
    env: { DESKGATE_SCHEMA: 'osticket', DESKGATE_TABLE_PREFIX: 'ost_' },
    ownKey: false,
  }));
  after(() => osticket?.stop());

  const specific = async (id: number | string) => {
    const reply = await deskgate.request(
      { query: 'user', condition: 'specific', parameters: { id } },
      { key: osticket.apiKey.key },
    );
    assert.equal(reply.status, 200, reply.text);
    return (reply.body?.data as { users?: Record<string, string>[] } | undefined)?.users?.[0];
  };

  test('a user deskgate creates with "0612345678" shows as osTicket shows its phones, and is found by it', async () => {
    const added = await deskgate.request(
      userBody({ email: 'zero.phone@example.com', name: 'Zero Phone', phone: '0612345678' }),
      { key: osticket.apiKey.key, method: 'POST' },
    );
    assert.equal(added.status, 200, added.text);
    const id = Number(added.body?.data);
    const staff = await osticket.staffBrowser();
    const page = await staff.get(`scp/ajax.php/users/${id}/preview`);
    assert.match(page.text, /\(061\) 234-5678/);
    const found = await staff.get('scp/ajax.php/users/local?q=0612345678');
    assert.ok(
      (JSON.parse(found.text) as { id: unknown }[]).some((m) => String(m.id) === String(id)),
      found.text,
    );
    assert.equal((await specific(id))?.phone, '0612345678');
  });

  test('a user an agent adds in the staff panel with a formatted phone reads back as osTicket stored it', async () => {
    const staff = await osticket.staffBrowser();
    const form = await staff.get('scp/ajax.php/users/lookup/form');
    const fields: Record<string, string> = {
      [inputName(form.text, /type="email"|name="[^"]*email/i)]: 'staff.phone@example.com',
      [inputName(form.text, /type="tel"/)]: '(061) 234-5678',
    };
    const nameTag =
      [...form.text.matchAll(/<input\b[^>]*type="text"[^>]*>/g)]
        .map((m) => m[0])
        .find((t) => !t.includes('user-search') && /\bname="/.test(t)) ?? '';
    const nameField = /\bname="([^"]+)"/.exec(nameTag)?.[1];
    assert.ok(nameField, [...form.text.matchAll(/<input\b[^>]*>/g)].map((m) => m[0]).join('\n'));
    fields[nameField] = 'Staff Phone';
    const created = await staff.postAjax('scp/ajax.php/users/lookup/form', fields);
    assert.equal(created.status, 201, created.text.slice(0, 2000));
    const id = (JSON.parse(created.text) as { id: number }).id;
    const [stored] = await osticket.query<{ value: string }>(
      `SELECT v.value FROM ost_form_entry_values v JOIN ost_form_entry e ON e.id = v.entry_id
       JOIN ost_form_field f ON f.id = v.field_id
       WHERE e.object_type = 'U' AND e.object_id = ? AND f.name = 'phone'`,
      [id],
    );
    assert.equal(stored?.value, '0612345678');
    assert.equal((await specific(id))?.phone, stored?.value);
  });
});
