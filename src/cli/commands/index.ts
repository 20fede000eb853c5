import type { Command } from '../command.ts';

/**
 * A command's words, and its module, loaded only when that command runs (or help lists it): a
 * data command then loads neither the HTTP server nor the other commands' dependencies.
 */
export interface CommandEntry {
  /** Words that select it, e.g. `keys create`; the same as the loaded command's `name`. */
  name: string;
  load(): Promise<Command>;
}

/** Every command, in the order `deskgate --help` lists them. */
export const COMMANDS: readonly CommandEntry[] = [
  { name: 'serve', load: async () => (await import('./serve.ts')).serve },
  { name: 'migrate', load: async () => (await import('./migrate.ts')).migrate },
  { name: 'keys create', load: async () => (await import('./keys-create.ts')).keysCreate },
  { name: 'keys list', load: async () => (await import('./keys-list.ts')).keysList },
  { name: 'keys revoke', load: async () => (await import('./keys-revoke.ts')).keysRevoke },
  { name: 'keys rotate', load: async () => (await import('./keys-rotate.ts')).keysRotate },
  { name: 'topics add', load: async () => (await import('./topics-add.ts')).topicsAdd },
  { name: 'topics edit', load: async () => (await import('./topics-edit.ts')).topicsEdit },
  { name: 'topics delete', load: async () => (await import('./topics-delete.ts')).topicsDelete },
  { name: 'topics import', load: async () => (await import('./topics-import.ts')).topicsImport },
  { name: 'topics list', load: async () => (await import('./topics-list.ts')).topicsList },
  { name: 'users get', load: async () => (await import('./users-get.ts')).usersGet },
  { name: 'users delete', load: async () => (await import('./users-delete.ts')).usersDelete },
  { name: 'osticket check', load: async () => (await import('./osticket-check.ts')).osticketCheck },
  {
    name: 'osticket keys grant',
    load: async () => (await import('./osticket-keys.ts')).osticketKeysGrant,
  },
  {
    name: 'osticket keys revoke',
    load: async () => (await import('./osticket-keys.ts')).osticketKeysRevoke,
  },
  {
    name: 'osticket keys list',
    load: async () => (await import('./osticket-keys.ts')).osticketKeysList,
  },
  {
    name: 'osticket indexes',
    load: async () => (await import('./osticket-indexes.ts')).osticketIndexes,
  },
  { name: 'agents add', load: async () => (await import('./agents-add.ts')).agentsAdd },
  { name: 'agents list', load: async () => (await import('./agents-list.ts')).agentsList },
  { name: 'tasks add', load: async () => (await import('./tasks-add.ts')).tasksAdd },
  { name: 'statuses list', load: async () => (await import('./statuses-list.ts')).statusesList },
  {
    name: 'priorities list',
    load: async () => (await import('./priorities-list.ts')).prioritiesList,
  },
  { name: 'teams add', load: async () => (await import('./teams-add.ts')).teamsAdd },
  { name: 'teams list', load: async () => (await import('./teams-list.ts')).teamsList },
  {
    name: 'departments add',
    load: async () => (await import('./departments-add.ts')).departmentsAdd,
  },
  {
    name: 'departments list',
    load: async () => (await import('./departments-list.ts')).departmentsList,
  },
  { name: 'sla add', load: async () => (await import('./sla-add.ts')).slaAdd },
  { name: 'sla list', load: async () => (await import('./sla-list.ts')).slaList },
  { name: 'faq import', load: async () => (await import('./faq-import.ts')).faqImport },
  { name: 'faq list', load: async () => (await import('./faq-list.ts')).faqList },
  { name: 'webhooks add', load: async () => (await import('./webhooks.ts')).webhooksAdd },
  { name: 'webhooks list', load: async () => (await import('./webhooks.ts')).webhooksList },
  { name: 'webhooks update', load: async () => (await import('./webhooks.ts')).webhooksUpdate },
  { name: 'webhooks delete', load: async () => (await import('./webhooks.ts')).webhooksDelete },
  { name: 'webhooks test', load: async () => (await import('./webhooks.ts')).webhooksTest },
  {
    name: 'webhooks deliveries',
    load: async () => (await import('./webhooks.ts')).webhooksDeliveries,
  },
  {
    name: 'webhooks redeliver',
    load: async () => (await import('./webhooks.ts')).webhooksRedeliver,
  },
  { name: 'completion', load: async () => (await import('./completion.ts')).completion },
];

/** Every command loaded, in the table's order (for help texts). */
export function loadCommands(entries: readonly CommandEntry[] = COMMANDS): Promise<Command[]> {
  return Promise.all(entries.map((entry) => entry.load()));
}
