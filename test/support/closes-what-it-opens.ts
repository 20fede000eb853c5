// A test file for test/leak-check.test.ts: it opens a server and closes it again.
import { createServer } from 'node:net';
import { test } from 'node:test';

test('opens a server and closes it', async () => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
