import * as z from 'zod';
import type { NewDepartment } from '../../data/departments/department.ts';
import { departments } from '../../data/departments/departments.ts';
import { writes } from '../../data/writes/writes.ts';
import { ADMIN_ADD, addOnce } from '../admin-write.ts';
import { integerField } from '../fields.ts';
import { defineOperation } from '../operation.ts';
import { escapeHtml, textField } from '../plain-text.ts';
import { idResponse } from '../response-shapes.ts';

const ACTIVE = 0x4;
const ARCHIVED = 0x8;

export const departmentAddParameters = z.strictObject({
  name: textField(128, 'The name, plain text without < or >.').refine(
    (name) => !/[<>]/.test(name),
    { error: 'must not contain < or >' },
  ),
  signature: z
    .union([z.literal(''), textField(65_535, 'The signature')])
    .optional()
    .meta({ description: 'The signature, plain text (stored HTML-escaped).' }),
  flags: integerField(0, 63)
    .refine((flags) => (flags & (ACTIVE | ARCHIVED)) !== (ACTIVE | ARCHIVED), {
      error: 'must not be both active (4) and archived (8)',
    })
    .optional()
    .meta({
      description:
        "osTicket's department flags: 4 active (the default), 8 archived, 0 disabled, plus the assignment bits 1, 2, 16, 32.",
    }),
  ispublic: integerField(0, 1)
    .optional()
    .meta({ description: '1 (the default): clients may choose it; 0: internal.' }),
});

/** The department department/add and `deskgate departments add` store for these parameters. */
export function toNewDepartment(
  parameters: z.output<typeof departmentAddParameters>,
): NewDepartment {
  return {
    name: parameters.name,
    signature: escapeHtml(parameters.signature ?? ''),
    flags: parameters.flags ?? ACTIVE,
    isPublic: (parameters.ispublic ?? 1) === 1,
  };
}

export const departmentAdd = defineOperation({
  ...ADMIN_ADD,
  query: 'department',
  condition: 'add',
  summary: "Add a top-level department as osTicket's admin panel does; answers the new id",
  description:
    'Needs `admin`, a scope no key has unless created with `--scope admin`. Adds a top-level ' +
    'department with the row osTicket’s admin panel writes (path `/<id>/`, group membership and ' +
    'auto-responses on); the signature is plain text stored HTML-escaped, a name with `<` or `>` ' +
    'is refused, a name already taken → 400. Answers the new id (the original answered ' +
    '"Success! Row 1 affected."). Send an `Idempotency-Key` to make retries safe.',
  parameters: { '*': departmentAddParameters },
  response: idResponse('The new department id.', '4'),
  responseExample: '4',
  examples: [
    {
      name: 'department-add',
      summary: 'Add an active public department',
      parameters: { name: 'Billing', signature: 'Billing team', flags: 4 },
    },
  ],
  uses: [departments, writes],
  async handle({ parameters }, context) {
    const department = toNewDepartment(parameters);
    return addOnce(context, parameters, 'department', (trx) =>
      context.data(departments).insertDepartment(trx, department),
    );
  },
});
