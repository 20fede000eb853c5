import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import type { Page } from 'playwright-core';
import { CHROMIUM_SKIP, sharedBrowser } from '../helpers/chromium.ts';
import { describeWithDatabase, SQLITE } from '../helpers/each-database.ts';
import { useTestServer } from '../helpers/test-server.ts';

/** A portal: a page on an origin of its own (another port), which calls deskgate with fetch. */
async function startPortal(): Promise<{ server: Server; origin: string }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><title>portal</title><p>portal</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

interface Outcome {
  status?: number;
  topic?: string;
  requestId?: string | null;
  remaining?: string | null;
  error?: string;
}

/** The portal page's own fetch: a topic look-up as a POST that names GET, as the README shows. */
function lookUp(page: Page, url: string, key: string): Promise<Outcome> {
  return page.evaluate(
    async ({ url, key }) => {
      try {
        const reply = await fetch(url, {
          method: 'POST',
          headers: {
            apikey: key,
            'Content-Type': 'application/json',
            'X-HTTP-Method-Override': 'GET',
          },
          body: JSON.stringify({ query: 'topics', condition: 'specific', parameters: { id: 1 } }),
        });
        const body = (await reply.json()) as { data: { topic: { topic: string } } };
        return {
          status: reply.status,
          topic: body.data.topic.topic,
          requestId: reply.headers.get('X-Request-Id'),
          remaining: reply.headers.get('X-RateLimit-Remaining'),
        };
      } catch (error) {
        return { error: String(error) };
      }
    },
    { url, key },
  );
}

describeWithDatabase(
  'a browser portal on another origin, in headless Chromium',
  SQLITE,
  (database) => {
    let listed: Awaited<ReturnType<typeof startPortal>>;
    let unlisted: Awaited<ReturnType<typeof startPortal>>;
    before(async () => {
      listed = await startPortal();
      unlisted = await startPortal();
    });
    after(() => {
      listed?.server.close();
      unlisted?.server.close();
    });
    const deskgate = useTestServer(() => ({
      database,
      env: { DESKGATE_CORS_ORIGINS: listed.origin, DESKGATE_RATE_LIMIT: '1000' },
    }));
    let key: string;
    before(async () => {
      ({ key } = await deskgate.createKey({ scopes: ['read'] }));
    });

    test('the listed origin looks a topic up and reads the exposed headers; another is blocked', async () => {
      const page = await (await sharedBrowser()).newPage();
      try {
        await page.goto(`${listed.origin}/`);
        const ok = await lookUp(page, deskgate.url, key);
        assert.equal(ok.error, undefined, ok.error);
        assert.equal(ok.status, 200);
        assert.equal(ok.topic, 'General Inquiry');
        assert.ok(ok.requestId, 'X-Request-Id is exposed');
        assert.ok(ok.remaining, 'the rate-limit headers are exposed');

        await page.goto(`${unlisted.origin}/`);
        const blocked = await lookUp(page, deskgate.url, key);
        assert.match(String(blocked.error), /TypeError|Failed to fetch/);
        assert.equal(blocked.status, undefined);
      } finally {
        await page.close();
      }
    });
  },
  { skip: CHROMIUM_SKIP },
);
