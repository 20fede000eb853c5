import * as z from 'zod';
import type { Config } from '../config.ts';
import { DeskgateError } from '../errors.ts';
import { tooManyResultsMessage } from '../messages.ts';
import {
  defineOperation,
  NO_SORT,
  type OperationContext,
  type OperationExample,
  type TypedOperation,
  type Uses,
} from './operation.ts';
import { wholeListResponse } from './response-shapes.ts';
import type { View } from './views/view-definition.ts';

/**
 * status/all, priority/all, staff/all and team/all: a short list answered whole, bounded as every
 * list is (SPEC §4a): `read(count)` is asked for one more than DESKGATE_MAX_LIST, and more than
 * that is 400 `too_many_results` rather than a list cut short.
 */
export async function readWholeList<Element>(
  config: Pick<Config, 'maxList'>,
  noun: string,
  read: (count: number) => Promise<Element[]>,
): Promise<Element[]> {
  const elements = await read(config.maxList + 1);
  if (elements.length > config.maxList) {
    throw new DeskgateError('too_many_results', tooManyResultsMessage(noun, config.maxList));
  }
  return elements;
}

/**
 * A whole list read (readWholeList) and answered: `total` and each element's view under `key`,
 * never a `next`.
 */
export async function answerWholeList<const Key extends string, Element, View>(
  config: Pick<Config, 'maxList'>,
  list: { noun: string; key: Key; toView: (element: Element) => View },
  read: (count: number) => Promise<Element[]>,
) {
  const views = (await readWholeList(config, list.noun, read)).map(list.toView);
  return { total: views.length, [list.key]: views } as { total: number } & Record<Key, View[]>;
}

/** What makes one whole-list operation (status/all, priority/all, staff/all, team/all) its own. */
export interface WholeListDefinition<
  Parameters extends z.ZodType,
  Key extends string,
  Entity,
  Shape extends Record<string, z.ZodType>,
  Used extends Uses,
> {
  /** Its `query`; the condition is `all`. */
  query: string;
  summary: string;
  /** What it lists, between "Needs `tickets:read`." and the sentence on DESKGATE_MAX_LIST. */
  description: string;
  /** Its parameters (it takes no `sort`); none when left out. */
  parameters?: Parameters;
  /** The key the elements stand under in `data`. */
  key: Key;
  view: View<Entity, Shape>;
  /** What `total` counts ("How many {counted} this answer holds."); `key` when left out. */
  counted?: string;
  /** What a too_many_results message calls the elements; `counted` when left out. */
  noun?: string;
  /** The answer's description in the document. */
  answers: string;
  /** Elements it really answers, for the document (the answer's `total` is their count). */
  example: z.output<z.ZodObject<Shape, z.core.$strict>>[];
  examples: readonly [
    OperationExample<{ '*': Parameters }>,
    ...OperationExample<{ '*': Parameters }>[],
  ];
  uses: Used;
  /** Reads up to `count` elements, in the order answered. */
  read(
    context: OperationContext<Used> & { parameters: z.output<Parameters> },
    count: number,
  ): Promise<Entity[]>;
}

/**
 * A short list answered whole: GET, `tickets:read`, optional parameters, never "nothing found"
 * (an empty list is an answer), 400 `too_many_results` beyond DESKGATE_MAX_LIST.
 */
export function defineWholeListOperation<
  Parameters extends z.ZodType = z.ZodObject<Record<never, never>, z.core.$strict>,
  const Key extends string = string,
  Entity = unknown,
  Shape extends Record<string, z.ZodType> = Record<string, z.ZodType>,
  const Used extends Uses = Uses,
>(
  list: WholeListDefinition<Parameters, Key, Entity, Shape, Used>,
): TypedOperation<
  { '*': Parameters },
  ReturnType<typeof wholeListResponse<Key, z.ZodObject<Shape, z.core.$strict>>>
> {
  const counted = list.counted ?? list.key;
  const response = wholeListResponse(list.key, list.view.schema, counted, list.answers);
  // The same type as answerWholeList's, which the checker cannot see through zod's generics.
  type Answer = z.output<typeof response>;
  return defineOperation<{ '*': Parameters }, typeof response, false, Used>({
    query: list.query,
    condition: 'all',
    methods: ['GET'],
    scope: 'tickets:read',
    summary: list.summary,
    description:
      `Needs \`tickets:read\`. ${list.description} Every match up to DESKGATE_MAX_LIST, else ` +
      '400 `too_many_results`.',
    parameters: { [NO_SORT]: list.parameters ?? z.strictObject({}) } as { '*': Parameters },
    parametersOptional: true,
    response,
    responseExample: { total: list.example.length, [list.key]: list.example } as Answer,
    examples: list.examples,
    uses: list.uses,
    nothingFound: false,
    errors: ['too_many_results'],
    handle: async ({ parameters }, context) =>
      (await answerWholeList(
        context.config,
        { noun: list.noun ?? counted, key: list.key, toView: list.view.toView },
        (count) => list.read({ ...context, parameters }, count),
      )) as Answer,
  });
}
