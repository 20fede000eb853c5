import * as z from 'zod';
import type { NewSlaPlan } from '../../data/sla-plans/sla-plan.ts';
import { slaPlans } from '../../data/sla-plans/sla-plans.ts';
import { writes } from '../../data/writes/writes.ts';
import { ADMIN_ADD, addOnce, osticketHtmlChars } from '../admin-write.ts';
import { INT32_MAX, integerField } from '../fields.ts';
import { defineOperation } from '../operation.ts';
import { textField } from '../plain-text.ts';
import { idResponse } from '../response-shapes.ts';

/** ost_sla.name is varchar(64): the name as stored (HTML-escaped) must fit. */
const NAME_MAX = 64;

export const slaAddParameters = z.strictObject({
  name: textField(NAME_MAX, 'The name (stored HTML-escaped, as osTicket does).').refine(
    (name) => osticketHtmlChars(name).length <= NAME_MAX,
    { error: `must be at most ${NAME_MAX} characters once HTML-escaped` },
  ),
  flags: integerField(0, 15).optional().meta({
    description: 'Bits: 1 active, 2 escalate, 4 no overdue alerts, 8 transient; default 3.',
  }),
  grace_period: integerField(1, 8760).meta({
    description: 'Hours until a ticket on the plan is overdue, 1 to 8760.',
  }),
  schedule_id: integerField(0, INT32_MAX)
    .optional()
    .meta({ description: "A business-hours schedule; 0 (default): the help desk's default." }),
  notes: z
    .union([z.literal(''), textField(65_535, 'Notes')])
    .optional()
    .meta({ description: 'Notes, plain text (stored HTML-escaped).' }),
});

/** The plan sla/add and `deskgate sla add` store for these parameters (osTicket's escaping). */
export function toNewSlaPlan(parameters: z.output<typeof slaAddParameters>): NewSlaPlan {
  return {
    name: osticketHtmlChars(parameters.name),
    flags: parameters.flags ?? 3,
    gracePeriod: parameters.grace_period,
    scheduleId: parameters.schedule_id ?? 0,
    notes: osticketHtmlChars(parameters.notes ?? ''),
  };
}

export const slaAdd = defineOperation({
  ...ADMIN_ADD,
  query: 'sla',
  condition: 'add',
  summary: 'Add an SLA plan (name stored HTML-escaped, grace period 1–8760 h); answers the new id',
  description:
    'Needs `admin`. Adds an SLA plan as osTicket’s admin panel does: the name HTML-escaped ' +
    '(`Bronze & <b>12h</b>` is stored `Bronze &amp; &lt;b&gt;12h&lt;/b&gt;`) and unique, the ' +
    'grace period 1–8760 hours, the notes plain text stored escaped. Answers the new id (the ' +
    'original answered "Success! Row 1 affected."). Send an `Idempotency-Key` to make retries safe.',
  parameters: { '*': slaAddParameters },
  response: idResponse('The new SLA plan id.', '2'),
  responseExample: '2',
  examples: [
    {
      name: 'sla-add',
      summary: 'Add an active 12-hour plan',
      parameters: { name: 'Bronze 12h', flags: 1, grace_period: 12, schedule_id: 0, notes: '' },
    },
  ],
  uses: [slaPlans, writes],
  async handle({ parameters }, context) {
    const plan = toNewSlaPlan(parameters);
    return addOnce(context, parameters, 'SLA plan', (trx) =>
      context.data(slaPlans).insertSlaPlan(trx, plan),
    );
  },
});
