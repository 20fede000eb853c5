import type { Generated, Kysely } from 'kysely';
import { type ColumnMap, ownColumns } from '../common/column-map.ts';
import { insertOwnRow } from '../common/insert-returning-id.ts';
import type { OwnTimestamps } from '../common/own-timestamps.ts';
import { rowExists } from '../common/row-exists.ts';
import type { Dialect } from '../dialects/dialect.ts';
import { tablesOf } from '../entity.ts';
import { RejectedValueError } from '../store.ts';
import {
  type Department,
  type DepartmentRow,
  type NewCliDepartment,
  statusOfFlags,
  toDepartment,
} from './department.ts';

/** deskgate's `departments` (migrations 006 and 008). */
export interface OwnDepartmentTable extends OwnTimestamps {
  id: Generated<number>;
  parent_id: number;
  name: string;
  signature: string;
  is_public: number;
  /** active, disabled or archived. */
  status: string;
  sla_id: number;
}

interface Tables {
  departments: OwnDepartmentTable;
}

function parseStatus(status: string | null): Department['status'] {
  return status === 'archived' || status === 'disabled' ? status : 'active';
}

/** Departments on deskgate's own schema; clients see the public, active ones. */
export const OWN_DEPARTMENTS: ColumnMap<OwnDepartmentTable, DepartmentRow, Department> = {
  table: 'departments',
  columns: {
    ...ownColumns('id', 'parent_id', 'name', 'signature', 'is_public', 'status', 'sla_id'),
    flags: null,
  },
  isPublic: (eb) => eb.and([eb('is_public', '=', 1), eb('status', '=', 'active')]),
  toDomain: (row) => toDepartment(row, parseStatus(row.status)),
};

/**
 * A department in the write's transaction, its name unique across the tree (decision 250) and
 * its parent an existing department (0: top level). Resolves to the new id.
 */
export async function insertOwnDepartment(
  transaction: Kysely<object>,
  dialect: Dialect,
  department: NewCliDepartment,
): Promise<number> {
  const trx = tablesOf<Tables>(transaction);
  if (await rowExists(trx, 'departments', 'name', department.name)) {
    throw new RejectedValueError('name', 'is already the name of a department');
  }
  const parentMissing =
    department.parentId !== 0 && !(await rowExists(trx, 'departments', 'id', department.parentId));
  if (parentMissing) throw new RejectedValueError('parent', 'is not an existing department');
  return insertOwnRow(trx, dialect, 'departments', {
    parent_id: department.parentId,
    name: department.name,
    signature: department.signature,
    is_public: department.isPublic ? 1 : 0,
    status: statusOfFlags(department.flags),
    sla_id: 0,
  });
}
