import type { Generated, Kysely, Selectable } from 'kysely';
import type { CatalogueListQuery, CatalogueVisibility, Department } from '../../domain.ts';
import { catalogueRange } from '../common/catalogue-page.ts';
import { insertReturningId } from '../common/insert-returning-id.ts';
import type { Dialect } from '../dialects/dialect.ts';
import { type OwnHandle, tablesOf, type WriteTransaction } from '../entity.ts';
import { RejectedValueError } from '../store.ts';
import { now } from '../time.ts';
import { type DepartmentData, type NewCliDepartment, statusOfFlags } from './departments.ts';

/** deskgate's `departments` (migrations 006 and 007). */
export interface OwnDepartmentTable {
  id: Generated<number>;
  parent_id: number;
  name: string;
  signature: string;
  is_public: number;
  status: string;
  sla_id: number;
  created_at: string;
  updated_at: string;
}

interface Tables {
  departments: OwnDepartmentTable;
}
type Db = Kysely<Tables>;

function toDepartment(row: Selectable<OwnDepartmentTable>): Department {
  return {
    id: Number(row.id),
    parentId: Number(row.parent_id),
    name: row.name,
    signature: row.signature,
    isPublic: Number(row.is_public) === 1,
    status: row.status === 'archived' || row.status === 'disabled' ? row.status : 'active',
    slaId: Number(row.sla_id),
    created: row.created_at,
    updated: row.updated_at,
  };
}

function visible(db: Db, visibility: CatalogueVisibility) {
  const select = db.selectFrom('departments').selectAll();
  return visibility === 'all'
    ? select
    : select.where('is_public', '=', 1).where('status', '=', 'active');
}

async function findDepartment(db: Db, id: number, visibility: CatalogueVisibility) {
  const row = await visible(db, visibility).where('id', '=', id).executeTakeFirst();
  return row && toDepartment(row);
}

async function listDepartments(db: Db, query: CatalogueListQuery): Promise<Department[]> {
  const rows = await catalogueRange(
    visible(db, query.visibility),
    { id: 'id', created: 'created_at', name: 'name' },
    query,
  ).execute();
  return rows.map(toDepartment);
}

async function insertDepartment(
  trx: Kysely<Tables>,
  dialect: Dialect,
  department: NewCliDepartment,
): Promise<number> {
  const taken = await trx
    .selectFrom('departments')
    .select('id')
    .where('name', '=', department.name)
    .executeTakeFirst();
  if (taken) throw new RejectedValueError('name', 'is already the name of a department');
  if (department.parentId !== 0) {
    const parent = await trx
      .selectFrom('departments')
      .select('id')
      .where('id', '=', department.parentId)
      .executeTakeFirst();
    if (!parent) throw new RejectedValueError('parent', 'is not an existing department');
  }
  const at = now();
  return insertReturningId(
    trx.insertInto('departments').values({
      parent_id: department.parentId,
      name: department.name,
      signature: department.signature,
      is_public: department.isPublic ? 1 : 0,
      status: statusOfFlags(department.flags),
      sla_id: 0,
      created_at: at,
      updated_at: at,
    }),
    dialect,
  );
}

/** Departments on deskgate's own schema (names unique across the tree, decision 250). */
export function makeOwnDepartments(handle: OwnHandle): DepartmentData {
  const db = tablesOf<Tables>(handle.db);
  const { dialect } = handle;
  return {
    findDepartment: (id, visibility) => findDepartment(db, id, visibility),
    listDepartments: (query) => listDepartments(db, query),
    insertDepartment: (trx: WriteTransaction, department) =>
      insertDepartment(tablesOf<Tables>(trx), dialect, {
        ...department,
        parentId: 0,
      }),
    async addDepartment(department) {
      const id = await dialect.writeTransaction(handle.db, (trx) =>
        insertDepartment(tablesOf<Tables>(trx), dialect, department),
      );
      const added = await findDepartment(db, id, 'all');
      if (!added) throw new Error(`department ${id} vanished after its creation`);
      return added;
    },
  };
}
