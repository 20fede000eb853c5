import { sql } from 'kysely';
import type { AddExampleRows } from '../example-rows.ts';

/** What team/all's examples read: a team, on every layout. */
export const addExampleRows: AddExampleRows = async ({ own, osticket, created }) => {
  if (osticket) {
    await osticket.query(
      `INSERT INTO \`${osticket.prefix}team\` (lead_id, flags, name, notes, created, updated)
       VALUES (0, 1, 'Level I Support', NULL, NOW(), NOW())`,
    );
    return;
  }
  await own?.(
    sql`insert into teams (name, is_enabled, created_at, updated_at) values ('Level I Support', 1, ${created}, ${created})`,
  );
};
