import { slaPlans } from '../../data/sla-plans/sla-plans.ts';
import { type Command, JSON_OPTION, printResult } from '../command.ts';
import { formatTable } from '../format-table.ts';
import { listCatalogue } from '../list-catalogue.ts';
import { usingStore } from '../using-store.ts';
import { slaPlanToJson } from './sla-add.ts';

export const slaList: Command = {
  name: 'sla list',
  usage: 'deskgate sla list [--database URL] [--json]',
  summary: 'List every SLA plan, inactive ones too.',
  options: JSON_OPTION,
  positionals: 0,
  async run(input) {
    const list = await usingStore(input.config, [slaPlans], (store) =>
      listCatalogue(store.data(slaPlans)),
    );
    printResult(input, list.map(slaPlanToJson), () =>
      formatTable(
        ['ID', 'FLAGS', 'GRACE', 'NAME'],
        list.map((p) => [String(p.id), String(p.flags), `${p.gracePeriod}h`, p.name]),
      ),
    );
  },
};
