import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';

test('stdout: a fatal line is written at once, before anything can kill the process', () => {
  // The lines wait in a 32 KiB batch; fatal() flushes the batch synchronously.
  const script = `
    import { makeLogger } from ${JSON.stringify(new URL('./logger.ts', import.meta.url).href)};
    const logger = makeLogger({ logLevel: 'info', logFormat: 'json' });
    logger.info('waiting in the batch');
    logger.fatal('last words');
    process.kill(process.pid, 'SIGKILL');
  `;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8',
  });
  assert.equal(child.signal, 'SIGKILL');
  const messages = child.stdout
    .trim()
    .split('\n')
    .map((line) => (JSON.parse(line) as { msg: string }).msg);
  assert.deepEqual(messages, ['waiting in the batch', 'last words']);
});
