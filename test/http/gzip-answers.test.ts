import assert from 'node:assert/strict';
import { type IncomingHttpHeaders, request } from 'node:http';
import { before, test } from 'node:test';
import { gunzipSync } from 'node:zlib';
import { GZIP_MIN_BYTES } from '../../src/http/respond.ts';
import { insertTopics } from '../helpers/data-setup.ts';
import { describeWithDatabase, SQLITE } from '../helpers/each-database.ts';
import { useTestServer } from '../helpers/test-server.ts';

interface RawReply {
  status: number;
  headers: IncomingHttpHeaders;
  /** The bytes as they came over the socket, not decoded. */
  raw: Buffer;
}

/** A GET with a JSON body over a real socket; the answer's bytes are left as sent (as curl without --compressed). */
function exchange(url: string, body: unknown, headers: Record<string, string>): Promise<RawReply> {
  const payload = Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'GET',
      agent: false,
      headers: { 'Content-Length': String(payload.length), ...headers },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, raw: Buffer.concat(chunks) }),
      );
    });
    req.end(payload);
  });
}

describeWithDatabase('gzip for large answers', SQLITE, (database) => {
  const server = useTestServer({ database });
  const all = { query: 'topics', condition: 'all' };
  const one = { query: 'topics', condition: 'specific', parameters: { id: 1 } };

  before(async () => {
    await insertTopics(
      server,
      Array.from({ length: 40 }, (_, i) => ({
        parentId: 0,
        isPublic: true,
        sort: i,
        name: `Topic number ${i}`,
        notes: 'A note long enough to make the list of every topic several kilobytes of JSON.',
      })),
    );
  });

  test('a large answer to a client that accepts gzip is gzipped, Vary: Accept-Encoding', async () => {
    const reply = await exchange(server.url, all, {
      apikey: server.key,
      'Accept-Encoding': 'br;q=1, gzip;q=0.8',
    });
    assert.equal(reply.status, 200);
    assert.equal(reply.headers['content-encoding'], 'gzip');
    assert.equal(reply.headers.vary, 'Accept-Encoding');
    assert.equal(Number(reply.headers['content-length']), reply.raw.length);
    assert.ok(reply.headers['x-request-id']);
    const text = gunzipSync(reply.raw).toString('utf8');
    assert.ok(text.length > GZIP_MIN_BYTES);
    assert.ok(reply.raw.length < text.length / 2, 'compressed');
    const envelope = JSON.parse(text) as { status: string; data: { total: number } };
    assert.equal(envelope.status, 'Success');
    assert.equal(envelope.data.total, 44);
  });

  test('the same answer without Accept-Encoding, or with gzip;q=0, is plain JSON', async () => {
    const variants: Record<string, string>[] = [
      {},
      { 'Accept-Encoding': 'gzip;q=0, identity' },
      { 'Accept-Encoding': 'br' },
    ];
    for (const headers of variants) {
      const reply = await exchange(server.url, all, { apikey: server.key, ...headers });
      assert.equal(reply.headers['content-encoding'], undefined);
      assert.equal(reply.headers.vary, 'Accept-Encoding');
      assert.equal(
        (JSON.parse(reply.raw.toString('utf8')) as { status: string }).status,
        'Success',
      );
    }
  });

  test('a small look-up is never compressed, whatever the client accepts', async () => {
    const reply = await exchange(server.url, one, {
      apikey: server.key,
      'Accept-Encoding': 'gzip',
    });
    assert.equal(reply.status, 200);
    assert.ok(reply.raw.length <= GZIP_MIN_BYTES);
    assert.equal(reply.headers['content-encoding'], undefined);
    assert.equal(reply.headers.vary, undefined);
    assert.equal((JSON.parse(reply.raw.toString('utf8')) as { status: string }).status, 'Success');
  });

  test('many gzipped and plain answers at once each reach their own client whole', async () => {
    const replies = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        exchange(server.url, i % 2 ? all : one, { apikey: server.key, 'Accept-Encoding': 'gzip' }),
      ),
    );
    replies.forEach((reply, i) => {
      const text = i % 2 ? gunzipSync(reply.raw).toString('utf8') : reply.raw.toString('utf8');
      const data = (JSON.parse(text) as { data: { total?: number; topic?: unknown } }).data;
      if (i % 2) assert.equal(data.total, 44);
      else assert.ok(data.topic);
    });
  });
});
