import { agents } from '../../data/agents/agents.ts';
import { requireCapability } from '../../data/osticket/managed-by-osticket.ts';
import { type Command, JSON_OPTION, printJson } from '../command.ts';
import { formatTable } from '../format-table.ts';
import { usingStore } from '../using-store.ts';
import { agentToJson } from './agents-add.ts';

export const agentsList: Command = {
  name: 'agents list',
  usage: 'deskgate agents list [--database URL] [--json]',
  summary: 'List agents.',
  options: JSON_OPTION,
  positionals: 0,
  async run(input) {
    const list = await usingStore(input.config, [agents], (store) =>
      requireCapability(store.data(agents), 'agents').listAgents(),
    );
    if (input.values.json) {
      printJson(input, list.map(agentToJson));
      return;
    }
    input.out(
      formatTable(
        ['ID', 'USERNAME', 'NAME', 'EMAIL', 'DEPT', 'ACTIVE'],
        list.map((a) => [
          String(a.id),
          a.username,
          a.name,
          a.email,
          String(a.deptId),
          a.isActive ? 'yes' : 'no',
        ]),
      ),
    );
  },
};
