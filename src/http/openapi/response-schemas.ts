import * as z from 'zod';
import { ERROR_STATUS, type ErrorCode } from '../../errors.ts';

const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];
const time = z
  .number()
  .min(0)
  .meta({ description: 'Processing time of the request in seconds.', examples: [0.00042] });

/** The success envelope around an operation's `data`. */
export function successEnvelope<Data extends z.ZodType>(data: Data) {
  return z.strictObject({ status: z.literal('Success'), time, data });
}

/** /healthz and /readyz. */
export const serviceStatusEnvelopeSchema = successEnvelope(z.enum(['alive', 'ready']));

export const fieldErrorSchema = z.strictObject({
  field: z.string().meta({ examples: ['parameters.email'] }),
  message: z.string().meta({ examples: ['must be a valid email address'] }),
});

/** The error envelope; the codes are the closed set of src/errors.ts. */
export const errorEnvelopeSchema = z.strictObject({
  status: z.literal('Error'),
  time,
  data: z.string().meta({ description: 'A message for a person.' }),
  code: z.enum(ERROR_CODES).meta({ description: 'Stable code; clients match on it.' }),
  errors: z
    .array(fieldErrorSchema)
    .optional()
    .meta({ description: 'With invalid_parameters: every problem at once.' }),
  existing_id: z
    .string()
    .regex(/^[0-9]+$/)
    .optional()
    .meta({ description: 'With duplicate_email: the id of the user who holds the address.' }),
  updated: z
    .string()
    .regex(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/)
    .optional()
    .meta({ description: "With conflict: the ticket's current `updated`." }),
});

/** The codes an error response with this status can carry. */
export function errorCodesFor(status: number): ErrorCode[] {
  return ERROR_CODES.filter((code) => ERROR_STATUS[code] === status);
}
