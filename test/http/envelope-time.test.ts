import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeWithDatabase, SQLITE } from '../helpers/each-database.ts';
import { topicBody } from '../helpers/http.ts';
import { useTestServer } from '../helpers/test-server.ts';

/** `"time":` as the body's text has it: seconds with at most six decimals. */
const TIME = /^\{"status":"(?:Success|Error)","time":(\d+(?:\.\d{1,6})?),/;

// Issue 37, item 13: `time` printed the float's noise (0.14251865100000033).
describeWithDatabase("the envelope's time", SQLITE, (database) => {
  const server = useTestServer({ database });

  test('success and error answers: seconds to the microsecond, never float noise', async () => {
    const texts: string[] = [];
    for (let n = 0; n < 20; n++) {
      const found = await server.request(topicBody(1));
      const invalid = await server.request(topicBody('x'));
      const refused = await server.request(topicBody(1), { key: null });
      assert.deepEqual([found.status, invalid.status, refused.status], [200, 400, 401]);
      texts.push(found.text, invalid.text, refused.text);
    }
    for (const text of texts) {
      const time = TIME.exec(text)?.[1];
      assert.ok(time, text.slice(0, 80));
      assert.ok(Number(time) >= 0 && Number(time) < 10, text.slice(0, 80));
    }
    // Sub-millisecond precision is kept: some answer took a fraction of a millisecond's more.
    assert.ok(texts.some((text) => /"time":\d+\.\d{4,6},/.test(text)));
  });
});
