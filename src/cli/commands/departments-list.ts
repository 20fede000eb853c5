import { departments as departmentData } from '../../data/departments/departments.ts';
import { type Command, JSON_OPTION, printResult } from '../command.ts';
import { formatTable } from '../format-table.ts';
import { listCatalogue } from '../list-catalogue.ts';
import { usingStore } from '../using-store.ts';
import { departmentToJson } from './departments-add.ts';

export const departmentsList: Command = {
  name: 'departments list',
  usage: 'deskgate departments list [--database URL] [--json]',
  summary: 'List every department, disabled, archived and internal ones too.',
  options: JSON_OPTION,
  positionals: 0,
  async run(input) {
    const list = await usingStore(input.config, [departmentData], (store) =>
      listCatalogue(store.data(departmentData)),
    );
    printResult(input, list.map(departmentToJson), () =>
      formatTable(
        ['ID', 'PARENT', 'PUBLIC', 'STATUS', 'SLA', 'NAME'],
        list.map((d) => [
          String(d.id),
          String(d.parentId),
          d.isPublic ? 'yes' : 'no',
          d.status,
          String(d.slaId),
          d.name,
        ]),
      ),
    );
  },
};
