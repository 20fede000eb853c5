import { columnOf, readInOrder, selectRows } from '../common/column-map.ts';
import { defineEntity } from '../entity.ts';
import {
  memberOfDepartment,
  OSTICKET_STAFF,
  OSTICKET_STAFF_TABLES,
} from './osticket-staff-directory.ts';
import { OWN_STAFF } from './own-staff-directory.ts';
import type { StaffMember } from './staff-member.ts';

/** Agents as staff/all (and `deskgate agents list` in osTicket mode) list them. */
export interface StaffDirectoryData {
  /**
   * Every agent, active or not (`isActive` says), in id order, `limit` at most; with `deptId`
   * the members of that department: in osTicket mode those whose primary department it is and
   * those given access to it (`staff_dept_access`), as Dept::getMembers counts them.
   */
  list(limit: number, deptId: number | undefined): Promise<StaffMember[]>;
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
