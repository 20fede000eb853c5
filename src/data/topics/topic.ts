import { StoreError } from '../store.ts';
import { formatTimestamp } from '../time.ts';

export interface Topic {
  id: number;
  parentId: number;
  isPublic: boolean;
  /** Whether the help desk still offers it (osTicket: active in `flags`; always true on deskgate's schema). */
  isActive: boolean;
  sort: number;
  name: string;
  notes: string;
  created: string;
  updated: string;
}

export interface NewTopic {
  id?: number | undefined;
  parentId: number;
  isPublic: boolean;
  sort: number;
  name: string;
  notes: string;
}

/** A help topic row as both layouts' column maps answer it (`flags`: osTicket's only). */
export interface TopicRow {
  id: number;
  parent_id: number;
  is_public: number;
  flags: number | null;
  sort: number;
  name: string;
  notes: string | null;
  created: string;
  updated: string;
}

/** The topic of a row; whether it is active, each layout knows its own way. */
export function toTopic(row: TopicRow, isActive: boolean): Topic {
  return {
    id: Number(row.id),
    parentId: Number(row.parent_id),
    isPublic: Number(row.is_public) === 1,
    isActive,
    sort: Number(row.sort),
    name: row.name,
    notes: row.notes ?? '',
    // osTicket's DATETIME text as it stored it (its database's clock), never shifted.
    created: formatTimestamp(row.created),
    updated: formatTimestamp(row.updated),
  };
}

/** A topic of an import that does not fit what is stored or the rest of the import. */
export class TopicImportError extends StoreError {
  override name = 'TopicImportError';
  /** 1-based, in import order. */
  readonly position: number;
  readonly topicName: string;
  /** e.g. `parent 12 does not exist`. */
  readonly problem: string;
  /** How many topics the import had. */
  readonly count: number;
  constructor(position: number, topicName: string, problem: string, count: number) {
    super(`topic ${position} ("${topicName}"): ${problem}`);
    this.position = position;
    this.topicName = topicName;
    this.problem = problem;
    this.count = count;
  }
}
