/** osTicket's flag bits deskgate reads in its catalogue tables (include/class.*.php). */

/** Topic::FLAG_ACTIVE; archived (4) and disabled (0) topics lack it. */
export const TOPIC_ACTIVE = 0x2;

/** Team::FLAG_ENABLED. */
export const TEAM_ENABLED = 0x1;

/** Dept::FLAG_ACTIVE and Dept::FLAG_ARCHIVED; a department with neither is disabled. */
export const DEPARTMENT_ACTIVE = 0x4;
export const DEPARTMENT_ARCHIVED = 0x8;
