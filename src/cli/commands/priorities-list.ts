import { ticketPriorities } from '../../data/ticket-priorities/ticket-priorities.ts';
import { type Command, JSON_OPTION, printResult } from '../command.ts';
import { formatTable } from '../format-table.ts';
import { usingStore } from '../using-store.ts';
import { CATALOGUE_COMMAND_MAX } from './statuses-list.ts';

export const prioritiesList: Command = {
  name: 'priorities list',
  usage: 'deskgate priorities list [--database URL] [--json]',
  summary: 'List the ticket priorities (as priority/all).',
  options: JSON_OPTION,
  positionals: 0,
  async run(input) {
    const list = await usingStore(input.config, [ticketPriorities], (store) =>
      store.data(ticketPriorities).list(CATALOGUE_COMMAND_MAX),
    );
    printResult(input, list, () =>
      formatTable(
        ['ID', 'NAME', 'URGENCY'],
        list.map((p) => [String(p.id), p.name, String(p.urgency)]),
      ),
    );
  },
};
