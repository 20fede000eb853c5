import { hasFlag } from '../common/flags.ts';
import { DEPARTMENT_ACTIVE, DEPARTMENT_ARCHIVED } from '../osticket/osticket-flags.ts';
import { formatTimestamp } from '../time.ts';

/** A department (osTicket's `department`): `status` from its flags (active 4, archived 8). */
export interface Department {
  id: number;
  /** 0: a top-level department. */
  parentId: number;
  name: string;
  signature: string;
  isPublic: boolean;
  status: 'active' | 'disabled' | 'archived';
  slaId: number;
  created: string;
  updated: string;
}

export interface NewDepartment {
  name: string;
  /** Stored as given: the caller escapes it (plain text, HTML-escaped). */
  signature: string;
  /** osTicket's department flags (active 0x4, archived 0x8, assignment bits). */
  flags: number;
  isPublic: boolean;
}

/** A department for `deskgate departments add`: its parent (0: top level) too. */
export interface NewCliDepartment extends NewDepartment {
  parentId: number;
}

/**
 * A department row as both layouts' column maps answer it. The state is stored apart: deskgate's
 * schema has a `status` text, osTicket the `flags` it stands for; each layout reads its own.
 */
export interface DepartmentRow {
  id: number;
  parent_id: number | null;
  name: string;
  signature: string;
  is_public: number;
  status: string | null;
  flags: number | null;
  sla_id: number;
  created: string;
  updated: string;
}

/** The state osTicket's department flags stand for (include/class.dept.php: active 0x4, archived 0x8). */
export function statusOfFlags(flags: number): Department['status'] {
  if (hasFlag(flags, DEPARTMENT_ACTIVE)) return 'active';
  return hasFlag(flags, DEPARTMENT_ARCHIVED) ? 'archived' : 'disabled';
}

/** The department of a row whose state `status` is. */
export function toDepartment(row: DepartmentRow, status: Department['status']): Department {
  return {
    id: Number(row.id),
    parentId: Number(row.parent_id ?? 0),
    name: row.name,
    signature: row.signature,
    isPublic: Number(row.is_public) !== 0,
    status,
    slaId: Number(row.sla_id),
    created: formatTimestamp(row.created),
    updated: formatTimestamp(row.updated),
  };
}
