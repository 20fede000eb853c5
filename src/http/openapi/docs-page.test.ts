import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { chromium } from 'playwright-core';
import { describeWithDatabase, SQLITE } from '../../../test/helpers/each-database.ts';
import { call } from '../../../test/helpers/http.ts';
import { ROOT } from '../../../test/helpers/paths.ts';
import { useTestServer } from '../../../test/helpers/test-server.ts';
import { OPERATIONS } from '../../operations/registry.ts';

const CHROMIUM = '/usr/bin/chromium';

describeWithDatabase('GET /docs', SQLITE, (database) => {
  // Under a base path, to prove every asset URL carries it.
  const server = useTestServer({ database, env: { DESKGATE_BASE_PATH: '/helpdesk' } });

  test('serves the page and its assets itself, with a self-only content policy', async () => {
    const page = await fetch(`${server.origin}/helpdesk/docs`);
    assert.equal(page.status, 200);
    assert.equal(page.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.match(String(page.headers.get('content-security-policy')), /default-src 'none'/);
    const html = await page.text();
    const assets = [...html.matchAll(/(?:href|src)="([^"]+)"/g)].map((m) => m[1] as string);
    assert.deepEqual(assets, [
      '/helpdesk/docs/favicon.png',
      '/helpdesk/docs/swagger-ui.css',
      '/helpdesk/docs/swagger-ui-bundle.js',
      '/helpdesk/docs/deskgate-docs.js',
    ]);
    for (const asset of assets) {
      const reply = await fetch(`${server.origin}${asset}`);
      assert.equal(reply.status, 200, asset);
      assert.match(
        String(reply.headers.get('content-type')),
        /^(text\/(css|javascript)|image\/png)/,
      );
      await reply.arrayBuffer();
    }
    // The note on what a browser cannot try names every GET operation of the registry.
    const note = /<div id="deskgate-note"[^>]*>([\s\S]*?)<\/div>/.exec(html)?.[1] ?? '';
    const named = [...note.matchAll(/<code>([a-z-]+\/[a-z-]+)<\/code>/g)].map((m) => m[1]);
    const gets = Object.values(OPERATIONS).filter((o) => o.methods.includes('GET'));
    assert.ok(gets.length > 0);
    for (const operation of gets) assert.ok(named.includes(operation.name), operation.name);
    const init = await fetch(`${server.origin}/helpdesk/docs/deskgate-docs.js`);
    assert.match(await init.text(), /"url":"\/helpdesk\/openapi.json"/);
    // The document itself is JSON with the base path as its server URL.
    const document = await call(`${server.origin}/helpdesk/openapi.json`);
    assert.deepEqual((document.body as unknown as { servers: unknown }).servers, [
      { url: '/helpdesk' },
    ]);
  });

  test('the curl lines name the address the caller reached (its Host), and only a plain host', async () => {
    const curlOrigins = async (headers: Record<string, string>) => {
      const reply = await call(`${server.origin}/helpdesk/openapi.json`, { headers });
      assert.equal(reply.status, 200);
      assert.match(String(reply.headers.vary), /Host/);
      return new Set(
        [...reply.text.matchAll(/curl --request \w+ '([^']*)\/upload/g)].map((m) => m[1]),
      );
    };
    const port = new URL(server.origin).port;
    assert.deepEqual(await curlOrigins({}), new Set([`http://127.0.0.1:${port}/helpdesk`]));
    assert.deepEqual(
      await curlOrigins({ Host: 'desk.example.org:8443', 'X-Forwarded-Proto': 'https' }),
      new Set(['https://desk.example.org:8443/helpdesk']),
    );
    assert.deepEqual(
      await curlOrigins({ Host: '[::1]:9000' }),
      new Set(['http://[::1]:9000/helpdesk']),
    );
    for (const host of ["x'$(id)'", 'a b', 'evil.example/path', 'x"y']) {
      assert.deepEqual(
        await curlOrigins({ Host: host }),
        new Set(['http://localhost:8080/helpdesk']),
      );
    }
  });

  test('renders both operations in headless Chromium, asking no other host', {
    skip: existsSync(CHROMIUM)
      ? false
      : `${CHROMIUM} is not installed (apt-get install chromium): browser test skipped`,
  }, async () => {
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
    try {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const requested: string[] = [];
      const problems: string[] = [];
      page.on('request', (request) => requested.push(request.url()));
      page.on('response', (reply) => {
        if (reply.status() >= 400) problems.push(`${reply.status()} ${reply.url()}`);
      });
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(message.text());
      });
      page.on('pageerror', (error) => problems.push(error.message));

      const response = await page.goto(`${server.origin}/helpdesk/docs`);
      assert.equal(response?.status(), 200);
      await page.locator('.opblock').first().waitFor({ timeout: 20_000 });
      const summaries = await page.locator('.opblock-summary').allInnerTexts();
      const joined = summaries.join('\n');
      assert.match(joined, /GET\s+\/upload\/svc_wbs\/[\s\S]*topics\/specific/);
      assert.match(joined, /POST\s+\/upload\/svc_wbs\/[\s\S]*user\/add/);
      assert.match(joined, /PUT\s+\/upload\/svc_wbs\/[\s\S]*user\/add/);

      // The GET operation shows its request body and its 204.
      await page.locator('.opblock-get .opblock-summary').first().click();
      const get = page.locator('.opblock-get').first();
      await get.locator('.opblock-section-request-body').waitFor({ timeout: 10_000 });
      assert.match(String(await get.textContent()), /204/);
      await page.locator('.opblock-post .opblock-summary').first().click();
      const post = page.locator('.opblock-post').first();
      await post.locator('.opblock-section-request-body').waitFor({ timeout: 10_000 });
      assert.match(String(await post.textContent()), /Idempotency-Key/);
      // Swagger UI resolves an operation's $refs when it opens, and lists problems in a box.
      await page.waitForTimeout(500);
      assert.equal(await page.locator('.errors-wrapper').count(), 0, 'Swagger UI shows errors');

      mkdirSync(join(ROOT, 'test-output'), { recursive: true });
      await page.screenshot({ path: join(ROOT, 'test-output', 'docs-page.png'), fullPage: true });

      const elsewhere = requested.filter(
        (url) => !url.startsWith(`${server.origin}/`) && !/^(data|blob):/.test(url),
      );
      assert.deepEqual(elsewhere, [], 'the page asked another host');
      assert.ok(requested.includes(`${server.origin}/helpdesk/openapi.json`));
      assert.deepEqual(problems, [], 'errors in the page (a content-policy violation?)');
    } finally {
      await browser.close();
    }
  });
});
