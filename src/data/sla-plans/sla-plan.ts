import type { Generated } from 'kysely';
import { formatTimestamp } from '../time.ts';

/** osTicket's SLA flags (include/class.sla.php): active, escalate, no overdue alerts, transient. */
export const SLA_ACTIVE = 0x1;

/** An SLA plan's columns both layouts' tables name alike (deskgate's `sla_plans`, osTicket's `sla`). */
export interface SlaPlanColumns {
  id: Generated<number>;
  name: string;
  grace_period: number;
  flags: number;
  schedule_id: number;
}

/** An SLA plan (osTicket's `sla`): flags active 0x1, escalate 0x2, no alerts 0x4, transient 0x8. */
export interface SlaPlan {
  id: number;
  name: string;
  flags: number;
  gracePeriod: number;
  scheduleId: number;
  notes: string | null;
  created: string;
  updated: string;
}

export interface NewSlaPlan {
  /** HTML-escaped, as osTicket stores it. */
  name: string;
  flags: number;
  gracePeriod: number;
  scheduleId: number;
  notes: string;
}

/** An SLA plan row as both layouts' column maps answer it. */
export interface SlaPlanRow {
  id: number;
  name: string;
  flags: number;
  grace_period: number;
  schedule_id: number;
  notes: string | null;
  created: string;
  updated: string;
}

export function toSlaPlan(row: SlaPlanRow): SlaPlan {
  return {
    id: Number(row.id),
    name: row.name,
    flags: Number(row.flags),
    gracePeriod: Number(row.grace_period),
    scheduleId: Number(row.schedule_id),
    notes: row.notes,
    created: formatTimestamp(row.created),
    updated: formatTimestamp(row.updated),
  };
}
