import { type Generated, type Kysely, sql } from 'kysely';
import { type ColumnMap, mappedColumns } from '../common/column-map.ts';
import { flagIsSet } from '../common/flags.ts';
import { tablesOf } from '../entity.ts';
import { DEPARTMENT_ACTIVE } from '../osticket/osticket-flags.ts';
import type { OsticketTableRequirement } from '../osticket/osticket-requirements.ts';
import { RejectedValueError } from '../store.ts';
import {
  type Department,
  type DepartmentRow,
  type NewDepartment,
  statusOfFlags,
  toDepartment,
} from './department.ts';

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

const NOW = sql<string>`now()`;

/** osTicket's departments; clients see what Dept::getPublicDepartments shows: public and active. */
export const OSTICKET_DEPARTMENTS: ColumnMap<OstDepartmentTable, DepartmentRow, Department> = {
  table: 'department',
  columns: {
    id: 'id',
    parent_id: 'pid',
    sla_id: 'sla_id',
    flags: 'flags',
    status: null,
    name: 'name',
    signature: 'signature',
    is_public: 'ispublic',
    created: 'created',
    updated: 'updated',
  },
  isPublic: (eb) => eb.and([eb('ispublic', '<>', 0), flagIsSet('flags', DEPARTMENT_ACTIVE)]),
  toDomain: (row) => toDepartment(row, statusOfFlags(Number(row.flags))),
};

/**
 * department/add in the write's transaction: the row osTicket's admin panel writes for a new
 * top-level department (Dept::update, include/class.dept.php:866-924): group membership and both
 * auto-responses on, timestamps the database's NOW(), and `path` `/<id>/` written once the id is
 * known. Resolves to the new id.
 */
export async function insertOsticketDepartment(
  transaction: Kysely<object>,
  department: NewDepartment,
): Promise<number> {
  const trx = tablesOf<Tables>(transaction);
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
  { table: 'department', privileges: ['SELECT'], columns: mappedColumns(OSTICKET_DEPARTMENTS) },
  // department/add: the path is written after the insert.
  { table: 'department', privileges: ['INSERT', 'UPDATE'], adminOnly: true },
];
