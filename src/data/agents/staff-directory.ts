import { sql } from 'kysely';
import { columnOf, readInOrder, selectRows } from '../common/column-map.ts';
import { defineEntity } from '../entity.ts';
import { OSTICKET_STAFF, OSTICKET_STAFF_TABLES, OWN_STAFF } from './agent-tables.ts';

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
export interface StaffRow {
  id: number;
  first_name: string | null;
  last_name: string | null;
  dept_id: number;
  is_active: number;
}

/** Agents as staff/all (and `deskgate agents list` in osTicket mode) list them. */
export interface StaffDirectoryData {
  /**
   * Every agent, active or not (`isActive` says), in id order, `limit` at most; with `deptId`
   * the members of that department: in osTicket mode those whose primary department it is and
   * those given access to it (`staff_dept_access`), as Dept::getMembers counts them.
   */
  list(limit: number, deptId: number | undefined): Promise<StaffMember[]>;
}

/**
 * The members of department `deptId` as Dept::getMembers counts them: their primary department,
 * or an extra access row in `staff_dept_access`. Unqualified names (a qualified reference's table
 * would get the prefix too); inside the subquery `staff_id` and `dept_id` are the access table's.
 */
function memberOfDepartment(deptId: number) {
  const staffId = sql.ref('staff_id');
  const department = sql.ref('dept_id');
  return sql<boolean>`(${department} = ${deptId} or ${staffId} in (select ${staffId} from ${sql.table('staff_dept_access')} where ${department} = ${deptId}))`;
}

export const staffDirectory = defineEntity<StaffDirectoryData>({
  name: 'staff-directory',
  own(handle) {
    return {
      list(limit, deptId) {
        const select = selectRows(handle.db, OWN_STAFF);
        const members =
          deptId === undefined ? select : select.where(columnOf(OWN_STAFF, 'dept_id'), '=', deptId);
        return readInOrder(members, OWN_STAFF, ['id'], limit);
      },
    };
  },
  osticket(handle) {
    return {
      list(limit, deptId) {
        const select = selectRows(handle.db, OSTICKET_STAFF);
        const members = deptId === undefined ? select : select.where(memberOfDepartment(deptId));
        return readInOrder(members, OSTICKET_STAFF, ['id'], limit);
      },
    };
  },
  osticketRequires: {
    comment:
      'staff: read their names, departments and whether active (staff/all), never e-mail or login',
    tables: OSTICKET_STAFF_TABLES,
  },
});
