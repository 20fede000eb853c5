import type { Command } from '../command.ts';
import { agentsAdd } from './agents-add.ts';
import { agentsList } from './agents-list.ts';
import { completion } from './completion.ts';
import { departmentsAdd } from './departments-add.ts';
import { departmentsList } from './departments-list.ts';
import { faqImport } from './faq-import.ts';
import { faqList } from './faq-list.ts';
import { keysCreate } from './keys-create.ts';
import { keysList } from './keys-list.ts';
import { keysRevoke } from './keys-revoke.ts';
import { keysRotate } from './keys-rotate.ts';
import { migrate } from './migrate.ts';
import { osticketCheck } from './osticket-check.ts';
import { serve } from './serve.ts';
import { slaAdd } from './sla-add.ts';
import { slaList } from './sla-list.ts';
import { tasksAdd } from './tasks-add.ts';
import { topicsAdd } from './topics-add.ts';
import { topicsDelete } from './topics-delete.ts';
import { topicsEdit } from './topics-edit.ts';
import { topicsImport } from './topics-import.ts';
import { topicsList } from './topics-list.ts';
import { usersDelete } from './users-delete.ts';
import { usersGet } from './users-get.ts';

/** Every command, in the order `deskgate --help` lists them. */
export const COMMANDS: readonly Command[] = [
  serve,
  migrate,
  keysCreate,
  keysList,
  keysRevoke,
  keysRotate,
  topicsAdd,
  topicsEdit,
  topicsDelete,
  topicsImport,
  topicsList,
  usersGet,
  usersDelete,
  osticketCheck,
  agentsAdd,
  agentsList,
  tasksAdd,
  departmentsAdd,
  departmentsList,
  slaAdd,
  slaList,
  faqImport,
  faqList,
  completion,
];
