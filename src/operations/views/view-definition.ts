import * as z from 'zod';
import { clientRecord } from '../client-records.ts';
import { digitsText } from './digits-text.ts';
import { flagOf, flagText } from './flag-text.ts';

/** One key of a view: its schema (OpenAPI, the typed client) and how it is read from the entity. */
export interface ViewField<Entity, Schema extends z.ZodType> {
  schema: Schema;
  read: (entity: Entity) => z.output<Schema>;
}

/** A view: the record's schema, named for the client, and the function that shows an entity so. */
export interface View<Entity, Shape extends Record<string, z.ZodType>> {
  schema: z.ZodObject<Shape, z.core.$strict>;
  toView: (entity: Entity) => z.output<z.ZodObject<Shape, z.core.$strict>>;
}

/**
 * A view declared once, key by key, in the order the answer shows them: both the strict schema
 * (named `record` for the typed client, clientRecord) and `toView` come from the same fields, so
 * the two cannot drift apart. `Entity` is given, the fields are inferred:
 * `defineView<Team>()('TeamRecord', 'A team.', { team_id: asDigits((team) => team.id) })`.
 */
export function defineView<Entity>() {
  return <Shape extends Record<string, z.ZodType>>(
    record: string,
    description: string,
    fields: { [Key in keyof Shape]: ViewField<Entity, Shape[Key]> },
  ): View<Entity, Shape> => {
    const entries = Object.entries(fields) as [string, ViewField<Entity, z.ZodType>][];
    const schema = z
      .strictObject(Object.fromEntries(entries.map(([key, field]) => [key, field.schema])))
      .meta({ description }) as z.ZodObject<Shape, z.core.$strict>;
    clientRecord(schema, record);
    return {
      schema,
      toView: (entity) =>
        Object.fromEntries(entries.map(([key, field]) => [key, field.read(entity)])) as z.output<
          typeof schema
        >,
    };
  };
}

/** What a timestamp of a view is. */
export const TIMESTAMP =
  'YYYY-MM-DD HH:MM:SS: UTC on deskgate’s own schema, the database’s clock in osTicket mode.';

/** A timestamp shown as the store formats it (TIMESTAMP). */
export function asTimestamp<Entity>(
  read: (entity: Entity) => string,
): ViewField<Entity, z.ZodString> {
  return asText(read, TIMESTAMP);
}

/** A number shown as a string of digits (an id, a count). */
export function asDigits<Entity>(
  read: (entity: Entity) => number,
  description?: string,
): ViewField<Entity, z.ZodString> {
  return { schema: digitsText(description), read: (entity) => String(read(entity)) };
}

/** Text shown as it is. */
export function asText<Entity>(
  read: (entity: Entity) => string,
  description?: string,
): ViewField<Entity, z.ZodString> {
  const text = z.string();
  return { schema: description === undefined ? text : text.meta({ description }), read };
}

/** A yes/no shown as "1" or "0". */
export function asFlag<Entity>(
  read: (entity: Entity) => boolean,
  description?: string,
): ViewField<Entity, ReturnType<typeof flagText>> {
  return { schema: flagText(description), read: (entity) => flagOf(read(entity)) };
}
