import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ReadResultCache } from './read-result-cache.ts';

describe('ReadResultCache', () => {
  test('a read is its SQL and its values, compared as Map keys compare', () => {
    const cache = new ReadResultCache();
    cache.set('select ?', [1], [{ n: 'one' }]);
    assert.deepEqual(cache.get('select ?', [1]), [{ n: 'one' }]);
    assert.equal(cache.get('select ?', ['1']), undefined);
    assert.equal(cache.get('select ?', [2]), undefined);
    assert.equal(cache.get('select ? ', [1]), undefined);
    cache.set('select 1', [], []);
    assert.deepEqual(cache.get('select 1', []), []);
  });

  test('remembered rows are frozen; reads with object values are not remembered', () => {
    const cache = new ReadResultCache();
    const rows = cache.set('select ?', [1], [{ n: 1 }]);
    assert.ok(Object.isFrozen(rows) && Object.isFrozen(rows[0]));
    const value = Buffer.from('x');
    cache.set('select ?', [value], [{ n: 2 }]);
    assert.equal(cache.get('select ?', [value]), undefined);
  });

  test('clear forgets every read', () => {
    const cache = new ReadResultCache();
    cache.set('select ?', [1], [{ n: 1 }]);
    cache.clear();
    assert.equal(cache.get('select ?', [1]), undefined);
  });
});
