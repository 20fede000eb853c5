import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { before, test } from 'node:test';
import { chromium, type Page } from 'playwright-core';
import { describeWithDatabase, SQLITE } from '../../../test/helpers/each-database.ts';
import { useTestServer } from '../../../test/helpers/test-server.ts';

const CHROMIUM = '/usr/bin/chromium';

interface Sent {
  method: string;
  url: string;
  apikey: string | undefined;
  status: number;
  body: string;
}

async function authorize(page: Page, key: string): Promise<void> {
  await page.locator('button.authorize').first().click();
  const dialog = page.locator('.dialog-ux');
  await dialog.locator('input').first().fill(key);
  await dialog.locator('button.modal-btn.authorize').click();
  await dialog.locator('button.btn-done').click();
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

    test('user/add executes with the authorized key, twice; the GET operation has no Execute', async () => {
      const browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
      });
      try {
        const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
        const requested: string[] = [];
        const sent: Sent[] = [];
        const problems: string[] = [];
        page.on('request', (request) => requested.push(request.url()));
        page.on('response', async (reply) => {
          const request = reply.request();
          if (!request.url().endsWith('/upload/svc_wbs/')) return;
          sent.push({
            method: request.method(),
            url: request.url(),
            apikey: (await request.allHeaders()).apikey,
            status: reply.status(),
            body: await reply.text(),
          });
        });
        page.on('pageerror', (error) => problems.push(error.message));

        await page.goto(`${server.origin}/helpdesk/docs`);
        await page.locator('.opblock').first().waitFor({ timeout: 20_000 });
        // The page says why the GET operation cannot be tried and where the curl line is.
        assert.match(
          String(await page.locator('#deskgate-note').textContent()),
          /GET with a JSON body[\s\S]*curl/,
        );
        await authorize(page, key);

        const post = page.locator('.opblock-post').first();
        await post.locator('.opblock-summary').click();
        await post.locator('button.try-out__btn').click();
        const email = `docs.${Date.now()}@example.com`;
        const body = post.locator('textarea.body-param__text');
        const example = JSON.parse(await body.inputValue()) as {
          parameters: Record<string, string>;
        };
        example.parameters.email = email;
        await body.fill(JSON.stringify(example, null, 2));
        // A key of the caller's own: the second Execute is then a retry of the same request.
        await post
          .locator('tr[data-param-name="Idempotency-Key"] input')
          .fill(`docs-page-${Date.now()}`);

        const execute = post.locator('button.execute');
        await execute.click();
        await page.waitForFunction(() => document.querySelector('.live-responses-table') !== null);
        const deadline = Date.now() + 10_000;
        while (sent.length < 1 && Date.now() < deadline) await page.waitForTimeout(50);
        await execute.click();
        while (sent.length < 2 && Date.now() < deadline) await page.waitForTimeout(50);

        assert.equal(sent.length, 2, JSON.stringify(sent));
        for (const exchange of sent) {
          assert.equal(exchange.method, 'POST');
          assert.equal(exchange.url, `${server.origin}/helpdesk/upload/svc_wbs/`);
          assert.equal(exchange.apikey, key, 'Authorize did not set the apikey header');
          assert.equal(exchange.status, 200, exchange.body);
        }
        const [first, second] = sent.map((e) => JSON.parse(e.body) as { data: string });
        // The second is the idempotent replay: the same user, not a second one or a 409/422.
        assert.equal(second?.data, first?.data);
        assert.match(String(await post.locator('.live-responses-table').textContent()), /200/);

        // The GET-with-body operation: readable, but nothing to press.
        const get = page.locator('.opblock-get').first();
        await get.locator('.opblock-summary').click();
        await get.locator('.opblock-section-request-body').waitFor({ timeout: 10_000 });
        assert.equal(await get.locator('button.try-out__btn').count(), 0);
        assert.equal(await get.locator('button.execute').count(), 0);

        const elsewhere = requested.filter(
          (url) => !url.startsWith(`${server.origin}/`) && !/^(data|blob):/.test(url),
        );
        assert.deepEqual(elsewhere, [], 'the page asked another host');
        assert.deepEqual(problems, []);
      } finally {
        await browser.close();
      }
    });
  },
  {
    skip: existsSync(CHROMIUM)
      ? false
      : `${CHROMIUM} is not installed (apt-get install chromium): browser test skipped`,
  },
);
