import { agents } from '../../data/agents/agents.ts';
import { staffDirectory } from '../../data/agents/staff-directory.ts';
import { type Command, JSON_OPTION, printResult } from '../command.ts';
import { formatTable } from '../format-table.ts';
import { usingStore } from '../using-store.ts';
import { agentToJson } from './agents-add.ts';
import { CATALOGUE_COMMAND_MAX } from './statuses-list.ts';

export const agentsList: Command = {
  name: 'agents list',
  usage: 'deskgate agents list [--database URL] [--json]',
  summary: 'List agents (osTicket mode: its staff, as staff/all answers them).',
  options: JSON_OPTION,
  positionals: 0,
  async run(input) {
    const listed = await usingStore(input.config, [agents, staffDirectory], async (store) => {
      const own = store.data(agents);
      if (own) return { own: await own.listAgents() };
      // osTicket mode: its staff as staff/all reads them, never their e-mail or login name.
      return { staff: await store.data(staffDirectory).list(CATALOGUE_COMMAND_MAX, undefined) };
    });
    if (listed.staff) {
      const rows = listed.staff.map((a) => ({
        id: a.id,
        name: a.name,
        dept_id: a.deptId,
        active: a.isActive,
      }));
      printResult(input, rows, () =>
        formatTable(
          ['ID', 'NAME', 'DEPT', 'ACTIVE'],
          rows.map((a) => [String(a.id), a.name, String(a.dept_id), a.active ? 'yes' : 'no']),
        ),
      );
      return;
    }
    const list = listed.own ?? [];
    printResult(input, list.map(agentToJson), () =>
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
