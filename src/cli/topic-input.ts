import * as z from 'zod';
import type { NewTopic, Topic } from '../data/topics/topic.ts';
import { INT32_MAX, integerField } from '../operations/fields.ts';
import { CommandError } from './command.ts';
import { hasControlCharacters, hasControlCharactersInText } from './control-characters.ts';
import { optionError } from './option-parameters.ts';

/** A topic as `topics import` reads it: the interface's Topic fields, numbers or digit strings. */
export const topicInput = z.strictObject({
  id: integerField(1, INT32_MAX).optional(),
  parent: integerField(0, INT32_MAX).default(0),
  ispublic: integerField(0, 1).default(1),
  sort: integerField(0, INT32_MAX).default(0),
  topic: z
    .string()
    .trim()
    .min(1, { error: 'must not be empty' })
    .max(128, { error: 'must be at most 128 characters' })
    .refine((v) => !hasControlCharacters(v), { error: 'must not contain control characters' }),
  // null or absent: none, as in a file exported from osTicket's table (SPEC §9).
  notes: z
    .string()
    .max(65535)
    .refine((v) => !hasControlCharactersInText(v), {
      error: 'must not contain control characters other than tab and line breaks',
    })
    .nullish()
    .transform((v) => v ?? ''),
});

export const topicListInput = z.array(topicInput).min(1, { error: 'must hold at least one topic' });

/**
 * One topic from command-line options (`topics add`, `topics edit`), checked as `topics import`
 * checks a topic; a UsageError naming the option otherwise.
 */
export function parseTopicOptions(fields: Record<string, unknown>): NewTopic {
  // One parse a process: zod's compiled fast path would cost more than it saves (src/config.ts).
  const parsed = topicListInput.safeParse([fields], { jitless: true });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw optionError(String(issue?.path[1] ?? 'topic'), issue?.message);
  }
  return toNewTopic(parsed.data[0] as z.output<typeof topicInput>);
}

export function toNewTopic(input: z.output<typeof topicInput>): NewTopic {
  return {
    id: input.id,
    parentId: input.parent,
    isPublic: input.ispublic === 1,
    sort: input.sort,
    name: input.topic,
    notes: input.notes,
  };
}

/**
 * Checks a batch against the topics already stored: ids free, parents existing (or earlier in
 * the batch), names unique among siblings. Throws a CommandError naming the first problem.
 */
export function assertTopicsFit(existing: readonly Topic[], batch: readonly NewTopic[]): void {
  const ids = new Set(existing.map((t) => t.id));
  const names = new Set(existing.map((t) => `${t.parentId}/${t.name}`));
  batch.forEach((topic, index) => {
    const where = batch.length > 1 ? `topic ${index + 1} ("${topic.name}")` : `"${topic.name}"`;
    if (topic.id !== undefined && ids.has(topic.id))
      throw new CommandError(`${where}: id ${topic.id} is already taken`);
    // `ids` holds the stored ids and those of the batch so far: a parent may come earlier in it.
    if (topic.parentId !== 0 && !ids.has(topic.parentId)) {
      throw new CommandError(`${where}: parent ${topic.parentId} does not exist`);
    }
    const key = `${topic.parentId}/${topic.name}`;
    if (names.has(key))
      throw new CommandError(
        `${where}: a topic with this name already exists under parent ${topic.parentId}`,
      );
    names.add(key);
    if (topic.id !== undefined) ids.add(topic.id);
  });
}

/** Topic `id` and every topic below it, parents before children. */
export function subtreeOf(existing: readonly Topic[], id: number): Topic[] {
  const children = new Map<number, Topic[]>();
  for (const topic of existing) {
    if (topic.id === topic.parentId) continue;
    const siblings = children.get(topic.parentId);
    if (siblings) siblings.push(topic);
    else children.set(topic.parentId, [topic]);
  }
  const found = existing.filter((t) => t.id === id);
  // One push per topic, never push(...all): a topic may have more children than the stack holds.
  for (let i = 0; i < found.length; i++) {
    for (const child of children.get(found[i]?.id ?? -1) ?? []) found.push(child);
  }
  return found;
}

/**
 * Checks `topic` as the new state of topic `id`: its parent exists and is neither the topic nor
 * below it (no cycle), and no sibling has its name. Throws a CommandError naming the problem.
 */
export function assertTopicEditFits(existing: readonly Topic[], id: number, topic: NewTopic): void {
  const where = `topic ${id} ("${topic.name}")`;
  if (topic.parentId !== 0) {
    if (!existing.some((t) => t.id === topic.parentId))
      throw new CommandError(`${where}: parent ${topic.parentId} does not exist`);
    if (subtreeOf(existing, id).some((t) => t.id === topic.parentId))
      throw new CommandError(
        `${where}: parent ${topic.parentId} is the topic itself or one of its subtopics`,
      );
  }
  if (existing.some((t) => t.id !== id && t.parentId === topic.parentId && t.name === topic.name))
    throw new CommandError(
      `${where}: a topic with this name already exists under parent ${topic.parentId}`,
    );
}

export function topicToJson(topic: Topic) {
  return {
    id: topic.id,
    parent: topic.parentId,
    ispublic: topic.isPublic ? 1 : 0,
    sort: topic.sort,
    topic: topic.name,
    notes: topic.notes,
    created: topic.created,
    updated: topic.updated,
  };
}
