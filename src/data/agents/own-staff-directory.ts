import type { ColumnMap } from '../common/column-map.ts';
import type { OwnAgentTable } from './own-agents.ts';
import { type StaffMember, type StaffRow, toStaffMember } from './staff-member.ts';

/** deskgate's `agents` (migration 006) as staff/all reads them: never `username` or `email`. */
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
