import {
  type ColumnMap,
  columnOf,
  type MappedSelect,
  readRows,
  selectRows,
} from '../common/column-map.ts';
import { defineEntity } from '../entity.ts';
import {
  memberOfDepartment,
  OSTICKET_STAFF,
  OSTICKET_STAFF_TABLES,
} from './osticket-staff-directory.ts';
import { OWN_STAFF } from './own-staff-directory.ts';
import type { StaffMember, StaffRow } from './staff-member.ts';

/** Agents as staff/all (and `deskgate agents list` in osTicket mode) list them. */
export interface StaffDirectoryData {
  /**
   * Every agent, active or not (`isActive` says), in id order, `limit` at most; with `deptId`
   * the members of that department: in osTicket mode those whose primary department it is and
   * those given access to it (`staff_dept_access`), as Dept::getMembers counts them.
   */
  list(limit: number, deptId: number | undefined): Promise<StaffMember[]>;
}

function inIdOrder<Table>(
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
        const members =
          deptId === undefined ? select : select.where(columnOf(OWN_STAFF, 'dept_id'), '=', deptId);
        return inIdOrder(members, OWN_STAFF, limit);
      },
    };
  },
  osticket(handle) {
    return {
      list(limit, deptId) {
        const select = selectRows(handle.db, OSTICKET_STAFF);
        const members = deptId === undefined ? select : select.where(memberOfDepartment(deptId));
        return inIdOrder(members, OSTICKET_STAFF, limit);
      },
    };
  },
  osticketRequires: {
    comment:
      'staff: read their names, departments and whether active (staff/all), never e-mail or login',
    tables: OSTICKET_STAFF_TABLES,
  },
});
