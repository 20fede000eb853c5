import type { Department } from '../../data/departments/department.ts';
import { departments } from '../../data/departments/departments.ts';
import { requireCapability } from '../../data/osticket/managed-by-osticket.ts';
import {
  departmentAddParameters,
  toNewDepartment,
} from '../../operations/department-add/department-add.ts';
import { type Command, JSON_OPTION, printJson, UsageError } from '../command.ts';
import { parseOptionParameters } from '../option-parameters.ts';
import { usingStore } from '../using-store.ts';

export function departmentToJson(department: Department) {
  return {
    id: department.id,
    parent: department.parentId,
    name: department.name,
    public: department.isPublic,
    status: department.status,
    sla: department.slaId,
    created: department.created,
  };
}

export const departmentsAdd: Command = {
  name: 'departments add',
  usage:
    'deskgate departments add --name NAME [--parent ID] [--private] [--flags N] [--signature TEXT] [--json]',
  summary: 'Add a department (as department/add does; osTicket mode: its admin panel).',
  options: {
    ...JSON_OPTION,
    name: { type: 'string' },
    parent: { type: 'string', default: '0' },
    private: { type: 'boolean', default: false },
    flags: { type: 'string' },
    signature: { type: 'string' },
  },
  positionals: 0,
  async run(input) {
    const { values } = input;
    if (values.name === undefined) throw new UsageError('--name is required');
    const parameters = parseOptionParameters(departmentAddParameters, {
      name: values.name,
      signature: values.signature,
      flags: values.flags,
      ispublic: values.private ? 0 : 1,
    });
    const parent = String(values.parent);
    if (!/^[0-9]{1,10}$/.test(parent) || Number(parent) > 2147483647)
      throw new UsageError(`--parent must be a department id or 0, got ${JSON.stringify(parent)}`);
    const department = await usingStore(input.config, [departments], (store) =>
      requireCapability(
        store.data(departments).addDepartment,
        'departments',
      )({
        ...toNewDepartment(parameters),
        parentId: Number(parent),
      }),
    );
    if (values.json) printJson(input, departmentToJson(department));
    else input.out(`Added department ${department.id} "${department.name}".\n`);
  },
};
