import { sql } from 'kysely';
import {
  type ColumnMap,
  columnOf,
  type MappedSelect,
  mappedColumns,
  readRows,
  selectRows,
} from '../common/column-map.ts';
import { defineEntity } from '../entity.ts';

/**
 * An agent as staff/all lists it: who a ticket can be assigned to or acted as. Never the login
 * name, the e-mail address or the password hash: those columns are not even read.
 */
export interface StaffMember {
  id: number;
  name: string;
  /** The agent's primary department. */
  deptId: number;
  isActive: boolean;
}

/** A staff row: deskgate's schema stores the whole name, osTicket first and last apart. */
interface StaffRow {
  id: number;
  first_name: string | null;
  last_name: string | null;
  dept_id: number;
  is_active: number;
}

/** deskgate's `agents` (migration 006), the columns staff/all reads. */
interface OwnStaffTable {
  id: number;
  name: string;
  dept_id: number;
  is_active: number;
}

/** osTicket 1.18.1's `staff` (schema-1.18.1.sql), the columns staff/all reads. */
interface OstStaffTable {
  staff_id: number;
  firstname: string | null;
  lastname: string | null;
  dept_id: number;
  isactive: number;
}

const toStaffMember = (row: StaffRow): StaffMember => ({
  id: Number(row.id),
  // osTicket's PersonsName of firstname and lastname, as the staff panel shows an agent.
  name: [row.first_name, row.last_name]
    .map((part) => (part ?? '').trim())
    .filter((part) => part !== '')
    .join(' '),
  deptId: Number(row.dept_id),
  isActive: Number(row.is_active) !== 0,
});

const OWN_STAFF: ColumnMap<OwnStaffTable, StaffRow, StaffMember> = {
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

const OSTICKET_STAFF: ColumnMap<OstStaffTable, StaffRow, StaffMember> = {
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

export interface StaffDirectoryData {
  /**
   * Every agent, active or not (`isActive` says), in id order, `limit` at most; with `deptId`
   * the members of that department: in osTicket mode those whose primary department it is and
   * those given access to it (`staff_dept_access`), as Dept::getMembers counts them.
   */
  list(limit: number, deptId: number | undefined): Promise<StaffMember[]>;
}

function ordered<Table>(
  select: MappedSelect<Table>,
  map: ColumnMap<Table, StaffRow, StaffMember>,
  limit: number,
): Promise<StaffMember[]> {
  return readRows(select.orderBy(columnOf(map, 'id')).limit(limit), map);
}

export const staffDirectory = defineEntity<StaffDirectoryData>({
  name: 'staff-directory',
  own(handle) {
    return {
      list(limit, deptId) {
        const select = selectRows(handle.db, OWN_STAFF);
        return ordered(
          deptId === undefined ? select : select.where(columnOf(OWN_STAFF, 'dept_id'), '=', deptId),
          OWN_STAFF,
          limit,
        );
      },
    };
  },
  osticket(handle) {
    return {
      list(limit, deptId) {
        const select = selectRows(handle.db, OSTICKET_STAFF);
        if (deptId === undefined) return ordered(select, OSTICKET_STAFF, limit);
        // Unqualified names: a qualified reference's table would get the prefix too. Inside the
        // subquery, staff_id and dept_id are the access table's own.
        const staffId = sql.ref('staff_id');
        const department = sql.ref('dept_id');
        const member = sql<boolean>`(${department} = ${deptId} or ${staffId} in (select ${staffId} from ${sql.table('staff_dept_access')} where ${department} = ${deptId}))`;
        return ordered(select.where(member), OSTICKET_STAFF, limit);
      },
    };
  },
  osticketRequires: {
    comment:
      'staff: read their names, departments and whether active (staff/all), never e-mail or login',
    tables: [
      { table: 'staff', privileges: ['SELECT'], columns: mappedColumns(OSTICKET_STAFF) },
      { table: 'staff_dept_access', privileges: ['SELECT'], columns: ['staff_id', 'dept_id'] },
    ],
  },
});
