import * as z from 'zod';

/*
 * The shapes of `data` several operations answer, one definition each, so that their OpenAPI
 * schemas and the client's types cannot drift apart.
 */

/** A list answer's `total`: how many `noun` it holds. */
function totalOf(noun: string) {
  return z
    .int()
    .min(0)
    .meta({ description: `How many ${noun} this answer holds.` });
}

/** A list's `total` and its elements under `key`, the shape every list answer opens with. */
function totalAndElements<const Key extends string, Item extends z.ZodType>(
  key: Key,
  item: Item,
  noun: string,
) {
  return { total: totalOf(noun), [key]: z.array(item) } as { total: z.ZodInt } & Record<
    Key,
    z.ZodArray<Item>
  >;
}

/**
 * A list answer: `total`, the elements under `key`, and `next` when more follow (list-page.ts).
 * `noun` fills "How many {noun} this answer holds."; `description` describes the whole.
 */
export function listResponse<const Key extends string, Item extends z.ZodType>(
  key: Key,
  item: Item,
  noun: string,
  description: string,
) {
  return z
    .strictObject({
      ...totalAndElements(key, item, noun),
      next: z
        .string()
        .optional()
        .meta({ description: 'Present when more follow: pass it as `parameters.after`.' }),
    })
    .meta({ description });
}

/** A look-up's answer in the original's shape: `total` 1 and the element found, as a list of one. */
export function oneFoundResponse<const Key extends string, Item extends z.ZodType>(
  key: Key,
  item: Item,
  description: string,
) {
  const shape = { total: z.literal(1), [key]: z.array(item).length(1) } as {
    total: z.ZodLiteral<1>;
  } & Record<Key, z.ZodArray<Item>>;
  return z.strictObject(shape).meta({ description });
}

/** A write's answer: the id of the row it made or removed, as a string of digits. */
export function idResponse(description: string, example: string) {
  return z
    .string()
    .regex(/^[0-9]+$/)
    .meta({ description, examples: [example] });
}

/**
 * A short list answered whole (status/all, priority/all, staff/all, team/all): `total` and the
 * elements under `key`, never a `next` (readWholeList refuses more than DESKGATE_MAX_LIST).
 */
export function wholeListResponse<const Key extends string, Item extends z.ZodType>(
  key: Key,
  item: Item,
  noun: string,
  description: string,
) {
  return z.strictObject(totalAndElements(key, item, noun)).meta({ description });
}
