import { requireCapability } from '../../data/osticket/managed-by-osticket.ts';
import type { SlaPlan } from '../../data/sla-plans/sla-plan.ts';
import { slaPlans } from '../../data/sla-plans/sla-plans.ts';
import { slaAddParameters, toNewSlaPlan } from '../../operations/sla-add/sla-add.ts';
import { type Command, JSON_OPTION, printJson, UsageError } from '../command.ts';
import { parseOptionParameters } from '../option-parameters.ts';
import { usingStore } from '../using-store.ts';

export function slaPlanToJson(plan: SlaPlan) {
  return {
    id: plan.id,
    name: plan.name,
    flags: plan.flags,
    gracePeriod: plan.gracePeriod,
    schedule: plan.scheduleId,
    created: plan.created,
  };
}

export const slaAdd: Command = {
  name: 'sla add',
  usage:
    'deskgate sla add --name NAME --grace-period HOURS [--flags N] [--schedule ID] [--notes TEXT] [--json]',
  summary: 'Add an SLA plan (as sla/add does; osTicket mode: its admin panel).',
  options: {
    ...JSON_OPTION,
    name: { type: 'string' },
    'grace-period': { type: 'string' },
    flags: { type: 'string' },
    schedule: { type: 'string' },
    notes: { type: 'string' },
  },
  positionals: 0,
  async run(input) {
    const { values } = input;
    if (values.name === undefined) throw new UsageError('--name is required');
    if (values['grace-period'] === undefined) throw new UsageError('--grace-period is required');
    const parameters = parseOptionParameters(slaAddParameters, {
      name: values.name,
      grace_period: values['grace-period'],
      flags: values.flags,
      schedule_id: values.schedule,
      notes: values.notes,
    });
    const plan = await usingStore(input.config, [slaPlans], (store) =>
      requireCapability(store.data(slaPlans).addSlaPlan, 'SLA plans')(toNewSlaPlan(parameters)),
    );
    if (values.json) printJson(input, slaPlanToJson(plan));
    else input.out(`Added SLA plan ${plan.id} "${plan.name}".\n`);
  },
};
