import assert from 'node:assert/strict';

/** The keys of a topic as topics/all, topics/specific and the client answer it, in wire order. */
const TOPIC_KEYS = ['id', 'parent', 'ispublic', 'sort', 'topic', 'notes', 'created', 'updated'];

/** `topic` is a topic record: exactly its keys, in the order the answer sends them, every value a string. */
export function assertTopicRecord(topic: unknown): void {
  assert.ok(typeof topic === 'object' && topic !== null, `not a topic: ${String(topic)}`);
  assert.deepEqual(Object.keys(topic), TOPIC_KEYS);
  for (const value of Object.values(topic)) assert.equal(typeof value, 'string');
}
