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

/** The member of a row: osTicket's first and last name joined, as the staff panel shows them. */
export function toStaffMember(row: StaffRow): StaffMember {
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
