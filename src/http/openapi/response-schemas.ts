import { z } from 'zod';
import { ERROR_STATUS, type ErrorCode } from '../../errors.ts';
import type { TopicView } from '../../operations/topics-specific/topics-specific.ts';

const TIMESTAMP = 'YYYY-MM-DD HH:MM:SS, UTC';
const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];
const time = z
  .number()
  .min(0)
  .meta({ description: 'Processing time of the request in seconds.', examples: [0.00042] });

/** A help topic as the interface shows it: every value a string. */
export const topicSchema = z
  .strictObject({
    id: z.string().regex(/^[0-9]+$/),
    parent: z
      .string()
      .regex(/^[0-9]+$/)
      .meta({ description: '"0" for a top-level topic.' }),
    ispublic: z.enum(['0', '1']),
    sort: z.string().regex(/^[0-9]+$/),
    topic: z.string().meta({ description: 'The topic name.' }),
    notes: z.string().meta({ description: '"" when none.' }),
    created: z.string().meta({ description: TIMESTAMP }),
    updated: z.string().meta({ description: TIMESTAMP }),
  })
  .meta({
    examples: [
      {
        id: '1',
        parent: '0',
        ispublic: '1',
        sort: '0',
        topic: 'General Inquiry',
        notes: 'Questions about products or services',
        created: '2026-11-22 04:36:00',
        updated: '2026-11-22 04:36:00',
      },
    ],
  }) satisfies z.ZodType<TopicView>;

function success<Data extends z.ZodType>(data: Data) {
  return z.strictObject({ status: z.literal('Success'), time, data });
}

export const topicEnvelopeSchema = success(
  z.strictObject({ total: z.literal(1), topic: topicSchema }),
);

export const userIdEnvelopeSchema = success(
  z
    .string()
    .regex(/^[0-9]+$/)
    .meta({ description: 'The new user id.', examples: ['42'] }),
);

/** /healthz and /readyz. */
export const serviceStatusEnvelopeSchema = success(z.enum(['alive', 'ready']));

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
});

/** The codes an error response with this status can carry. */
export function errorCodesFor(status: number): ErrorCode[] {
  return ERROR_CODES.filter((code) => ERROR_STATUS[code] === status);
}
