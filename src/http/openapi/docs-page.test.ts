import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import * as z from 'zod';
import { CHROMIUM_SKIP, sharedBrowser } from '../../../test/helpers/chromium.ts';
import { describeWithDatabase, SQLITE } from '../../../test/helpers/each-database.ts';
import { call } from '../../../test/helpers/http.ts';
import { ROOT } from '../../../test/helpers/paths.ts';
import { useTestServer } from '../../../test/helpers/test-server.ts';
import { OPERATIONS } from '../../operations/registry.ts';

describeWithDatabase('GET /docs', SQLITE, (database) => {
  // Under a base path, to prove every asset URL carries it.
  const server = useTestServer({ database, env: { DESKGATE_BASE_PATH: '/helpdesk' } });

  test('serves the page and its two assets itself, with a self-only content policy', async () => {
    const page = await fetch(`${server.origin}/helpdesk/docs`);
    assert.equal(page.status, 200);
    assert.equal(page.headers.get('content-type'), 'text/html; charset=utf-8');
    const policy = String(page.headers.get('content-security-policy'));
    assert.match(policy, /default-src 'none'/);
    assert.match(policy, /script-src 'self'(;|$)/);
    assert.match(policy, /style-src 'self'(;|$)/, 'no inline style either');
    assert.match(policy, /connect-src 'self'(;|$)/);
    const html = await page.text();
    const assets = [...html.matchAll(/(?:href|src)="(\/[^"]+)"/g)].map((m) => m[1] as string);
    assert.deepEqual(assets, [
      '/helpdesk/docs/docs.css',
      '/helpdesk/openapi.json',
      '/helpdesk/docs/docs.js',
    ]);
    assert.match(html, /data-document="\/helpdesk\/openapi.json"/);
    assert.doesNotMatch(html, /<script>|style=/, 'no inline script or style');
    for (const [asset, type] of [
      ['/helpdesk/docs/docs.js', /^text\/javascript/],
      ['/helpdesk/docs/docs.css', /^text\/css/],
    ] as const) {
      const reply = await fetch(`${server.origin}${asset}`);
      assert.equal(reply.status, 200, asset);
      assert.match(String(reply.headers.get('content-type')), type);
      const text = await reply.text();
      assert.ok(text.length < 40_000, `${asset} stays small`);
      if (asset.endsWith('.js'))
        assert.doesNotMatch(text, /innerHTML|outerHTML|insertAdjacentHTML/);
    }
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

  test('a person can read every operation in headless Chromium; the page asks no other host', {
    skip: CHROMIUM_SKIP,
  }, async () => {
    const page = await (await sharedBrowser()).newPage({ viewport: { width: 1280, height: 900 } });
    try {
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
      await page.locator('section.operation').first().waitFor({ timeout: 20_000 });
      assert.match(String(await page.locator('header h1').textContent()), /deskgate/);
      const serviceUrl = `${server.origin}/helpdesk/upload/svc_wbs/`;

      // What the tests below read of each operation's section, in one round trip to the page
      // instead of one a query (hundreds: most of this test's CPU).
      const sections = await page.locator('section').evaluateAll((found) => {
        const texts = (root: Element, selector: string) =>
          [...root.querySelectorAll(selector)].map((element) => element.textContent);
        return found.map((section) => ({
          id: section.id,
          text: section.textContent,
          methods: texts(section, '.methods'),
          scope: texts(section, '.scope code'),
          inlineCode: section.querySelectorAll('p code').length,
          tables: section.querySelectorAll('table.parameters').length,
          examples: [...section.querySelectorAll('.example')].map((example) => ({
            curl: texts(example, 'pre.curl'),
            buttons: example.querySelectorAll('form.try button').length,
          })),
        }));
      });
      for (const operation of Object.values(OPERATIONS)) {
        const matching = sections.filter(
          (found) => found.id === `op-${operation.name.replace('/', '-')}`,
        );
        assert.equal(matching.length, 1, operation.name);
        const section = matching[0] as (typeof sections)[number];
        const text = String(section.text);
        assert.deepEqual(section.methods, [operation.methods.join(' · ')], operation.name);
        assert.deepEqual(section.scope, [operation.scope]);
        // The description, its Markdown rendered: the summary line and inline code as elements.
        assert.ok(text.includes(operation.summary), `${operation.name}: summary`);
        assert.ok(section.inlineCode > 0, `${operation.name}: inline code`);
        // One parameter table per sort, each naming the fields of that variant's schema.
        // A variant without fields (faq/all) says "No parameters." instead of an empty table.
        const withFields = operation.variants.filter(
          (variant) =>
            Object.keys(
              z.toJSONSchema(variant.parameters, { io: 'input', unrepresentable: 'any' })
                .properties ?? {},
            ).length > 0,
        ).length;
        assert.equal(section.tables, withFields, operation.name);
        if (withFields < operation.variants.length) assert.ok(text.includes('No parameters.'));
        for (const variant of operation.sort?.values ?? [])
          assert.ok(text.includes(`sort "${variant}"`), `${operation.name}: sort ${variant}`);
        // Every example, with a curl line at the real address and a form to send it.
        assert.equal(section.examples.length, operation.examples.length, operation.name);
        for (const [i, example] of operation.examples.entries()) {
          const shown = section.examples[i];
          assert.equal(shown?.curl.length, 1, operation.name);
          const curl = String(shown.curl[0]);
          assert.ok(
            curl.startsWith(`curl --request ${operation.methods[0]} '${serviceUrl}'`),
            curl,
          );
          assert.ok(curl.includes(JSON.stringify(example.body)), curl);
          assert.equal(shown.buttons, 1);
        }
        // The response example and the error codes.
        assert.ok(text.includes('"status": "Success"'), `${operation.name}: response example`);
        for (const code of ['invalid_json', 'invalid_parameters', 'method_not_allowed'])
          assert.ok(text.includes(code), `${operation.name}: ${code}`);
      }
      // A parameter row: topics/specific by name takes `name`, a string of 1 to 128 characters.
      const byName = page.locator('section#op-topics-specific table.parameters').nth(1);
      assert.match(String(await byName.textContent()), /name\s*string\s*required/);
      // The service endpoints are listed too.
      assert.match(String(await page.locator('main').textContent()), /\/healthz[\s\S]*\/readyz/);

      // A picture of the whole page for a person to look at: asked for, as it asserts nothing and
      // costs half this test's CPU.
      if (process.env.DESKGATE_TEST_SCREENSHOTS === '1') {
        mkdirSync(join(ROOT, 'test-output'), { recursive: true });
        await page.screenshot({ path: join(ROOT, 'test-output', 'docs-page.png'), fullPage: true });
      }

      const elsewhere = requested.filter(
        (url) => !url.startsWith(`${server.origin}/`) && !/^(data|blob):/.test(url),
      );
      assert.deepEqual(elsewhere, [], 'the page asked another host');
      assert.ok(requested.includes(`${server.origin}/helpdesk/openapi.json`));
      assert.deepEqual(problems, [], 'errors in the page (a content-policy violation?)');
    } finally {
      await page.close();
    }
  });

  test('document text is shown as text: markup and script links in the Markdown stay inert', {
    skip: CHROMIUM_SKIP,
  }, async () => {
    const page = await (await sharedBrowser()).newPage();
    try {
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(error.message));
      const hostile =
        'Hello <img src=x onerror="window.pwned=1"> **bold** `<b>code</b>` ' +
        '[bad](javascript:window.pwned=2) [good](https://example.org/)\n\n- one\n- two';
      await page.route('**/helpdesk/openapi.json', async (route) => {
        const reply = await route.fetch();
        const document = (await reply.json()) as { info: { description: string } };
        document.info.description = hostile;
        await route.fulfill({ response: reply, json: document });
      });
      await page.goto(`${server.origin}/helpdesk/docs`);
      await page.locator('section.operation').first().waitFor({ timeout: 20_000 });
      const intro = page.locator('.intro');
      assert.equal(await intro.locator('img, b').count(), 0);
      assert.match(String(await intro.textContent()), /<img src=x onerror="window.pwned=1">/);
      assert.equal(await intro.locator('strong').textContent(), 'bold');
      assert.equal(await intro.locator('code').textContent(), '<b>code</b>');
      assert.equal(await intro.locator('a').count(), 1, 'only the https link is a link');
      assert.equal(await intro.locator('a').getAttribute('href'), 'https://example.org/');
      assert.equal(await intro.locator('li').count(), 2);
      assert.equal(await page.evaluate(() => (window as { pwned?: number }).pwned), undefined);
      assert.deepEqual(problems, []);
    } finally {
      await page.close();
    }
  });
});
