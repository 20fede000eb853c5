import type { Generated } from 'kysely';
import { type ColumnMap, mappedColumns } from '../common/column-map.ts';
import { hasFlag } from '../common/flags.ts';
import { TOPIC_ACTIVE } from '../osticket/osticket-flags.ts';
import type { OsticketTableRequirement } from '../osticket/osticket-requirements.ts';
import { type Topic, type TopicRow, toTopic } from './topic.ts';

/**
 * osTicket 1.18.1's `help_topic` (../shared/osticket/schema-1.18.1.sql), the columns deskgate
 * reads and writes. DATETIME columns come back as the text the database holds (the pool sets
 * `dateStrings`).
 */
export interface HelpTopicTable {
  topic_id: Generated<number>;
  topic_pid: number;
  ispublic: number;
  /** Bit value 2: active; 4: archived; neither: disabled (osTicket dropped `isactive` in 1.11). */
  flags: number | null;
  sort: number;
  topic: string;
  notes: string | null;
  /** sla/delete moves topics off a deleted plan. */
  sla_id: number;
  created: string;
  updated: string;
}

/** osTicket's help topics, read only: osTicket manages them in its admin panel. */
export const OSTICKET_TOPICS: ColumnMap<HelpTopicTable, TopicRow, Topic> = {
  table: 'help_topic',
  columns: {
    id: 'topic_id',
    parent_id: 'topic_pid',
    is_public: 'ispublic',
    flags: 'flags',
    sort: 'sort',
    name: 'topic',
    notes: 'notes',
    created: 'created',
    updated: 'updated',
  },
  toDomain: (row) => toTopic(row, hasFlag(row.flags, TOPIC_ACTIVE)),
};

/** Exactly the columns deskgate reads; the start and /readyz select them too. */
export const OSTICKET_TOPIC_TABLES: readonly OsticketTableRequirement[] = [
  { table: 'help_topic', privileges: ['SELECT'], columns: mappedColumns(OSTICKET_TOPICS) },
];
