import { sql } from 'kysely';
import { type ColumnMap, mappedColumns } from '../common/column-map.ts';
import type { OsticketTableRequirement } from '../osticket/osticket-requirements.ts';
import { type StaffMember, type StaffRow, toStaffMember } from './staff-member.ts';

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

/**
 * The members of department `deptId` as Dept::getMembers counts them: their primary department,
 * or an extra access row in `staff_dept_access`. Unqualified names (a qualified reference's table
 * would get the prefix too); inside the subquery `staff_id` and `dept_id` are the access table's.
 */
export function memberOfDepartment(deptId: number) {
  const staffId = sql.ref('staff_id');
  const department = sql.ref('dept_id');
  return sql<boolean>`(${department} = ${deptId} or ${staffId} in (select ${staffId} from ${sql.table('staff_dept_access')} where ${department} = ${deptId}))`;
}

export const OSTICKET_STAFF_TABLES: readonly OsticketTableRequirement[] = [
  { table: 'staff', privileges: ['SELECT'], columns: mappedColumns(OSTICKET_STAFF) },
  { table: 'staff_dept_access', privileges: ['SELECT'], columns: ['staff_id', 'dept_id'] },
];
