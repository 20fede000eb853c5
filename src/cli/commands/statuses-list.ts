import { ticketStatuses } from '../../data/ticket-statuses/ticket-statuses.ts';
import { type Command, JSON_OPTION, printResult } from '../command.ts';
import { formatTable } from '../format-table.ts';
import { usingStore } from '../using-store.ts';

/** How many rows a catalogue command lists at most: these lists are a help desk's handful. */
export const CATALOGUE_COMMAND_MAX = 100_000;

export const statusesList: Command = {
  name: 'statuses list',
  usage: 'deskgate statuses list [--database URL] [--json]',
  summary: 'List the ticket statuses a ticket can be set to (as status/all).',
  options: JSON_OPTION,
  positionals: 0,
  async run(input) {
    const list = await usingStore(input.config, [ticketStatuses], (store) =>
      store.data(ticketStatuses).list(CATALOGUE_COMMAND_MAX),
    );
    printResult(input, list, () =>
      formatTable(
        ['ID', 'NAME', 'STATE'],
        list.map((s) => [String(s.id), s.name, s.state]),
      ),
    );
  },
};
