import type { Generated } from 'kysely';
import { type ColumnMap, mappedColumns } from '../common/column-map.ts';
import type { OwnTimestamps } from '../common/own-timestamps.ts';
import type { OsticketTableRequirement } from '../osticket/osticket-requirements.ts';
import type { StaffMember, StaffRow } from './staff-directory.ts';

/** deskgate's `agents` (migration 006). */
export interface OwnAgentTable extends OwnTimestamps {
  id: Generated<number>;
  username: string;
  name: string;
  email: string;
  dept_id: number;
  is_active: number;
}

/** The member of a row: osTicket's first and last name joined, as the staff panel shows them. */
function toStaffMember(row: StaffRow): StaffMember {
  return {
    id: Number(row.id),
    name: [row.first_name, row.last_name]
      .map((part) => (part ?? '').trim())
      .filter((part) => part !== '')
      .join(' '),
    deptId: Number(row.dept_id),
    isActive: Number(row.is_active) !== 0,
  };
}

/** deskgate's `agents` as staff/all reads them: never `username` or `email`. */
export const OWN_STAFF: ColumnMap<OwnAgentTable, StaffRow, StaffMember> = {
  table: 'agents',
  columns: {
    id: 'id',
    first_name: 'name',
    last_name: null,
    dept_id: 'dept_id',
    is_active: 'is_active',
  },
  toDomain: toStaffMember,
};

/** osTicket 1.18.1's `staff` (schema-1.18.1.sql), the columns staff/all reads. */
export interface OstStaffTable {
  staff_id: number;
  firstname: string | null;
  lastname: string | null;
  dept_id: number;
  isactive: number;
}

export const OSTICKET_STAFF: ColumnMap<OstStaffTable, StaffRow, StaffMember> = {
  table: 'staff',
  columns: {
    id: 'staff_id',
    first_name: 'firstname',
    last_name: 'lastname',
    dept_id: 'dept_id',
    is_active: 'isactive',
  },
  toDomain: toStaffMember,
};

export const OSTICKET_STAFF_TABLES: readonly OsticketTableRequirement[] = [
  { table: 'staff', privileges: ['SELECT'], columns: mappedColumns(OSTICKET_STAFF) },
  { table: 'staff_dept_access', privileges: ['SELECT'], columns: ['staff_id', 'dept_id'] },
];
