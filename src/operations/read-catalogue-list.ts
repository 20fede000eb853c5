import type { Config } from '../config.ts';
import type { CatalogueReads } from '../data/common/catalogue-page.ts';
import type { CatalogueListQuery, CataloguePosition } from '../domain.ts';
import { CATALOGUE_CURSOR } from './catalogue-cursor.ts';
import { dateRangeParameters, endBound } from './date-range.ts';
import { type ListAnswer, listParameters, listRequest, readList } from './list-page.ts';

/** The parameters of a catalogue list by creation date: the inclusive range, and the page. */
export function creationRangeParameters(noun: string) {
  return dateRangeParameters(listParameters(CATALOGUE_CURSOR, noun));
}

/** What a catalogue list's parameters may hold (by name: no range). */
export interface CatalogueListParameters {
  start_date?: string;
  end_date?: string;
  limit?: number | undefined;
  after?: CataloguePosition | undefined;
}

/**
 * department/all and sla/all: one answer of a catalogue list in `order` (creation time or name,
 * then id), within the creation range when the parameters give one, the rows
 * DESKGATE_CATALOGUE_VISIBILITY shows, read from the entity's `reads`.
 */
export function readCatalogueList<Element extends { id: number; name: string; created: string }>(
  config: Pick<Config, 'maxList' | 'maxAnswerBytes' | 'endDate' | 'catalogueVisibility'>,
  request: {
    noun: string;
    order: CatalogueListQuery['order'];
    parameters: CatalogueListParameters;
  },
  reads: Pick<CatalogueReads<Element>, 'list'>,
): Promise<ListAnswer<Element>> {
  const { noun, order, parameters } = request;
  const { start_date: from, end_date: to } = parameters;
  return readList(
    listRequest(parameters, config, noun, CATALOGUE_CURSOR),
    (count, after) =>
      reads.list({
        order,
        from,
        to: to === undefined ? undefined : endBound(to, config.endDate),
        visibility: config.catalogueVisibility,
        after,
        limit: count,
      }),
    (element) => ({ key: order === 'name' ? element.name : element.created, id: element.id }),
  );
}
