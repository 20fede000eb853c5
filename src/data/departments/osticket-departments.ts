import { type Generated, type Kysely, type Selectable, sql } from 'kysely';
import type { CatalogueListQuery, CatalogueVisibility, Department } from '../../domain.ts';
import { catalogueRange } from '../common/catalogue-page.ts';
import { type OsticketHandle, tablesOf, type WriteTransaction } from '../entity.ts';
import { managedByOsticket } from '../osticket/managed-by-osticket.ts';
import type { OsticketTableRequirement } from '../osticket/osticket-requirements.ts';
import { RejectedValueError } from '../store.ts';
import { formatTimestamp } from '../time.ts';
import { type DepartmentData, statusOfFlags } from './departments.ts';

/** osTicket 1.18.1's `department` (schema-1.18.1.sql), the columns deskgate reads and writes. */
export interface OstDepartmentTable {
  id: Generated<number>;
  pid: number | null;
  tpl_id: number;
  sla_id: number;
  schedule_id: number;
  email_id: number;
  autoresp_email_id: number;
  manager_id: number;
  flags: number;
  name: string;
  signature: string;
  ispublic: number;
  group_membership: number;
  ticket_auto_response: number;
  message_auto_response: number;
  path: string;
  updated: string;
  created: string;
}

interface Tables {
  department: OstDepartmentTable;
}
type Db = Kysely<Tables>;

const FLAG_ACTIVE = 0x4;
const NOW = sql<string>`now()`;

const COLUMNS = [
  'id',
  'pid',
  'sla_id',
  'flags',
  'name',
  'signature',
  'ispublic',
  'created',
  'updated',
] as const;

type Row = Pick<Selectable<OstDepartmentTable>, (typeof COLUMNS)[number]>;

function toDepartment(row: Row): Department {
  return {
    id: Number(row.id),
    parentId: Number(row.pid ?? 0),
    name: row.name,
    signature: row.signature,
    isPublic: Number(row.ispublic) !== 0,
    status: statusOfFlags(Number(row.flags)),
    slaId: Number(row.sla_id),
    created: formatTimestamp(row.created),
    updated: formatTimestamp(row.updated),
  };
}

/** What osTicket shows clients (Dept::getPublicDepartments): public and active. */
function visible(db: Db, visibility: CatalogueVisibility) {
  const select = db.selectFrom('department').select(COLUMNS);
  return visibility === 'all'
    ? select
    : select.where('ispublic', '<>', 0).where(sql<boolean>`(flags & ${FLAG_ACTIVE}) <> 0`);
}

async function listDepartments(db: Db, query: CatalogueListQuery): Promise<Department[]> {
  const rows = await catalogueRange(
    visible(db, query.visibility),
    { id: 'id', created: 'created', name: 'name' },
    query,
  ).execute();
  return rows.map(toDepartment);
}

/**
 * The row osTicket's admin panel writes for a new top-level department (Dept::update,
 * include/class.dept.php:866-924): group membership and both auto-responses on, timestamps the
 * database's NOW(), and `path` `/<id>/` written once the id is known.
 */
async function insertDepartment(
  trx: Db,
  department: { name: string; signature: string; flags: number; isPublic: boolean },
): Promise<number> {
  // The unique key is (name, pid): a top-level name is taken only by another top-level one.
  const taken = await trx
    .selectFrom('department')
    .select('id')
    .where('name', '=', department.name)
    .where('pid', 'is', null)
    .executeTakeFirst();
  if (taken) throw new RejectedValueError('name', 'is already the name of a department');
  const { insertId } = await trx
    .insertInto('department')
    .values({
      pid: null,
      tpl_id: 0,
      sla_id: 0,
      schedule_id: 0,
      email_id: 0,
      autoresp_email_id: 0,
      manager_id: 0,
      flags: department.flags,
      name: department.name,
      signature: department.signature,
      ispublic: department.isPublic ? 1 : 0,
      group_membership: 1,
      ticket_auto_response: 1,
      message_auto_response: 1,
      path: '/',
      updated: NOW,
      created: NOW,
    })
    .executeTakeFirstOrThrow();
  const id = Number(insertId);
  await trx
    .updateTable('department')
    .set({ path: `/${id}/` })
    .where('id', '=', id)
    .execute();
  return id;
}

export const OSTICKET_DEPARTMENT_TABLES: readonly OsticketTableRequirement[] = [
  { table: 'department', privileges: ['SELECT'], columns: [...COLUMNS] },
  // department/add: the path is written after the insert.
  { table: 'department', privileges: ['INSERT', 'UPDATE'], adminOnly: true },
];

/** Departments of an osTicket database: read, and department/add as its admin panel writes. */
export function makeOsticketDepartments(handle: OsticketHandle): DepartmentData {
  const db = tablesOf<Tables>(handle.db);
  return {
    async findDepartment(id, visibility) {
      const row = await visible(db, visibility).where('id', '=', id).executeTakeFirst();
      return row && toDepartment(row);
    },
    listDepartments: (query) => listDepartments(db, query),
    insertDepartment: (trx: WriteTransaction, department) =>
      insertDepartment(tablesOf<Tables>(trx), department),
    addDepartment: managedByOsticket('departments'),
  };
}
