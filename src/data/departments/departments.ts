import type {
  CatalogueListQuery,
  CatalogueVisibility,
  Department,
  NewDepartment,
} from '../../domain.ts';
import { defineEntity, type WriteTransaction } from '../entity.ts';
import { makeOsticketDepartments, OSTICKET_DEPARTMENT_TABLES } from './osticket-departments.ts';
import { makeOwnDepartments } from './own-departments.ts';

/** A department for `deskgate departments add`: its parent (0: top level) and public flag. */
export interface NewCliDepartment extends NewDepartment {
  parentId: number;
  isPublic: boolean;
}

/**
 * Departments, as operations and commands see them. Under `public` visibility only what osTicket
 * shows its clients: active (flags 0x4, status active) and public.
 */
export interface DepartmentData {
  findDepartment(id: number, visibility: CatalogueVisibility): Promise<Department | undefined>;
  /** A page in (name, id) or (created, id) order, `limit` at most. */
  listDepartments(query: CatalogueListQuery): Promise<Department[]>;
  /**
   * department/add, in the write's transaction: the row osTicket's admin panel writes; a taken
   * top-level name → RejectedValueError('name'). Resolves to the new id.
   */
  insertDepartment(trx: WriteTransaction, department: NewDepartment): Promise<number>;
  /** `deskgate departments add`; osTicket mode: UnsupportedInModeError (its admin panel's job). */
  addDepartment(department: NewCliDepartment): Promise<Department>;
}

export const departments = defineEntity<DepartmentData>({
  name: 'departments',
  own: makeOwnDepartments,
  osticket: makeOsticketDepartments,
  osticketRequires: {
    comment: 'departments: read; department/add writes one as the admin panel does',
    tables: OSTICKET_DEPARTMENT_TABLES,
  },
});

/** The state osTicket's department flags stand for (include/class.dept.php: active 0x4, archived 0x8). */
export function statusOfFlags(flags: number): Department['status'] {
  if ((flags & 0x4) !== 0) return 'active';
  return (flags & 0x8) !== 0 ? 'archived' : 'disabled';
}
