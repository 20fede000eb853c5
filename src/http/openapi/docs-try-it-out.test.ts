import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import type { Locator } from 'playwright-core';
import { CHROMIUM_SKIP, sharedBrowser } from '../../../test/helpers/chromium.ts';
import { describeWithDatabase, SQLITE } from '../../../test/helpers/each-database.ts';
import { useTestServer } from '../../../test/helpers/test-server.ts';

interface Sent {
  method: string;
  url: string;
  apikey: string | undefined;
  override: string | undefined;
  status: number;
  body: string;
}

/** Presses Send in `form` and waits for its answer to show. */
async function send(form: Locator): Promise<string> {
  const result = form.locator('.result');
  await form.locator('button').click();
  await result.locator('.status').waitFor({ timeout: 10_000 });
  await form
    .page()
    .waitForFunction((el) => !el?.textContent?.includes('Sending'), await result.elementHandle());
  return String(await result.textContent());
}

describeWithDatabase(
  '/docs Try it out in headless Chromium',
  SQLITE,
  (database) => {
    const server = useTestServer({ database, env: { DESKGATE_BASE_PATH: '/helpdesk' } });
    let key: string;

    before(async () => {
      ({ key } = await server.createKey({ scopes: ['read', 'write'] }));
    });

    test('a person runs a topic look-up and a user/add from the page, with the key typed in', async () => {
      const page = await (await sharedBrowser()).newPage({
        viewport: { width: 1280, height: 900 },
      });
      try {
        const requested: string[] = [];
        const sent: Sent[] = [];
        const problems: string[] = [];
        page.on('request', (request) => requested.push(request.url()));
        page.on('response', async (reply) => {
          const request = reply.request();
          if (!request.url().endsWith('/upload/svc_wbs/')) return;
          const headers = await request.allHeaders();
          sent.push({
            method: request.method(),
            url: request.url(),
            apikey: headers.apikey,
            override: headers['x-http-method-override'],
            status: reply.status(),
            body: await reply.text(),
          });
        });
        page.on('pageerror', (error) => problems.push(error.message));

        await page.goto(`${server.origin}/helpdesk/docs`);
        await page.locator('section.operation').first().waitFor({ timeout: 20_000 });
        await page.locator('#apikey').fill(key);

        // The look-up: a GET with a body, sent by the page as a POST that names GET.
        const lookUp = page.locator('#op-topics-specific .example form').first();
        const shown = await send(lookUp);
        assert.match(shown, /^200/);
        assert.match(shown, /General Inquiry/);
        assert.match(shown, /X-Request-Id: /);
        assert.deepEqual(
          sent.map(({ method, override, apikey, status }) => ({
            method,
            override,
            apikey,
            status,
          })),
          [{ method: 'POST', override: 'GET', apikey: key, status: 200 }],
        );
        assert.equal(sent[0]?.url, `${server.origin}/helpdesk/upload/svc_wbs/`);

        // user/add, twice with the same Idempotency-Key: the second is the replay of the first.
        const add = page.locator('#op-user-add .example form').first();
        const body = add.locator('textarea');
        const example = JSON.parse(await body.inputValue()) as {
          parameters: Record<string, string>;
        };
        example.parameters.email = `docs.${Date.now()}@example.com`;
        await body.fill(JSON.stringify(example, null, 2));
        await add.locator('input').fill(`docs-page-${Date.now()}`);
        const first = await send(add);
        assert.match(first, /^200/);
        const second = await send(add);
        assert.match(second, /^200/);
        assert.equal(sent.length, 3, JSON.stringify(sent));
        const [, one, two] = sent;
        assert.equal(one?.method, 'POST');
        assert.equal(one?.override, undefined);
        assert.equal(one?.apikey, key);
        const [created, replayed] = [one, two].map(
          (e) => JSON.parse(String(e?.body)) as { data: string },
        );
        assert.match(String(created?.data), /^[0-9]+$/);
        assert.equal(replayed?.data, created?.data);

        // Without a key the page shows the 401 the server gave.
        await page.locator('#apikey').fill('');
        assert.match(await send(lookUp), /^401[\s\S]*missing_api_key/);

        const elsewhere = requested.filter(
          (url) => !url.startsWith(`${server.origin}/`) && !/^(data|blob):/.test(url),
        );
        assert.deepEqual(elsewhere, [], 'the page asked another host');
        assert.deepEqual(problems, []);
      } finally {
        await page.close();
      }
    });
  },
  {
    skip: CHROMIUM_SKIP,
  },
);
