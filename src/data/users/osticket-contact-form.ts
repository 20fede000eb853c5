import type { Kysely } from 'kysely';
import { OsticketSchemaError } from '../osticket/assert-osticket-tables.ts';
import type { OsticketUserTables } from './osticket-users.ts';

/** osTicket's DynamicFormField flags: FLAG_ENABLED, and FLAG_EXT_STORED (value kept elsewhere). */
const FLAG_ENABLED = 0x1;
const FLAG_EXT_STORED = 0x2;
/** Field types that hold no data (SectionBreakField, FreeTextField). */
const PRESENTATION_ONLY = new Set(['break', 'info']);

export interface ContactField {
  id: number;
  /** `name` in form_field; osTicket names the `__cdata` column after it (`field_<id>` when empty). */
  column: string;
  type: string;
}

/** The user contact form (`ost_form` type `U`) and the fields osTicket stores answers for. */
export interface ContactForm {
  formId: number;
  /** Enabled data fields not stored elsewhere: not `name`/`email` (those live in user/user_email). */
  answeredFields: ContactField[];
}

/**
 * Looks the contact form up by type and its fields by flags and name, as osTicket does when it
 * adds a user's answers; field ids differ between installs, so none is hard-coded.
 */
export async function findContactForm(db: Kysely<OsticketUserTables>): Promise<ContactForm> {
  const form = await db
    .selectFrom('form')
    .select('id')
    .where('type', '=', 'U')
    .orderBy('id')
    .executeTakeFirst();
  if (!form) {
    throw new OsticketSchemaError(
      "osTicket's user contact form (form type U) is missing; restore it in osTicket's admin panel",
    );
  }
  const fields = await db
    .selectFrom('form_field')
    .select(['id', 'flags', 'type', 'name'])
    .where('form_id', '=', form.id)
    .orderBy('sort')
    .orderBy('id')
    .execute();
  return {
    formId: Number(form.id),
    answeredFields: fields
      .filter((f) => {
        const flags = Number(f.flags ?? 0);
        return (
          (flags & FLAG_ENABLED) !== 0 &&
          (flags & FLAG_EXT_STORED) === 0 &&
          !PRESENTATION_ONLY.has(f.type) &&
          f.name !== 'name' &&
          f.name !== 'email'
        );
      })
      .map((f) => ({ id: Number(f.id), column: f.name || `field_${f.id}`, type: f.type })),
  };
}
