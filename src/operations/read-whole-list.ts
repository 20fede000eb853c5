import type { Config } from '../config.ts';
import { DeskgateError } from '../errors.ts';
import { tooManyResultsMessage } from '../messages.ts';

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
