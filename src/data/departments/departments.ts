import { type CatalogueReads, catalogueReads, insertAndRead } from '../common/catalogue-page.ts';
import { defineEntity, type WriteTransaction } from '../entity.ts';
import type { Department, NewCliDepartment, NewDepartment } from './department.ts';
import {
  insertOsticketDepartment,
  OSTICKET_DEPARTMENT_TABLES,
  OSTICKET_DEPARTMENTS,
} from './osticket-departments.ts';
import { insertOwnDepartment, OWN_DEPARTMENTS } from './own-departments.ts';

/**
 * Departments, as operations and commands see them: `find` and `list` read them (under `public`
 * visibility only what osTicket shows its clients: active, flags 0x4 or status active, and public).
 */
export interface DepartmentData extends CatalogueReads<Department> {
  /**
   * department/add, in the write's transaction: a top-level department as osTicket's admin
   * panel writes it; a taken name → RejectedValueError('name'). Resolves to the new id.
   */
  insertDepartment(trx: WriteTransaction, department: NewDepartment): Promise<number>;
  /**
   * `deskgate departments add`, a department anywhere in the tree. deskgate's own schema only:
   * in osTicket mode its admin panel adds them.
   */
  readonly addDepartment?: (department: NewCliDepartment) => Promise<Department>;
}

export const departments = defineEntity<DepartmentData>({
  name: 'departments',
  own(handle) {
    const reads = catalogueReads(handle.db, OWN_DEPARTMENTS);
    return {
      ...reads,
      insertDepartment: (trx, department) =>
        insertOwnDepartment(trx, handle.dialect, { ...department, parentId: 0 }),
      addDepartment: (department) =>
        insertAndRead(handle, reads, (trx) => insertOwnDepartment(trx, handle.dialect, department)),
    };
  },
  osticket(handle) {
    return {
      ...catalogueReads(handle.db, OSTICKET_DEPARTMENTS),
      insertDepartment: insertOsticketDepartment,
    };
  },
  osticketRequires: {
    comment: 'departments: read; department/add writes one as the admin panel does',
    tables: OSTICKET_DEPARTMENT_TABLES,
  },
});
