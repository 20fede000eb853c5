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
  { name: 'topics add', load: async () => (await import('./topics-add.ts')).topicsAdd },
  { name: 'topics import', load: async () => (await import('./topics-import.ts')).topicsImport },
  { name: 'topics list', load: async () => (await import('./topics-list.ts')).topicsList },
  { name: 'users get', load: async () => (await import('./users-get.ts')).usersGet },
  {
    name: 'osticket check',
    load: async () => (await import('./osticket-check.ts')).osticketCheck,
  },
  { name: 'agents add', load: async () => (await import('./agents-add.ts')).agentsAdd },
  { name: 'agents list', load: async () => (await import('./agents-list.ts')).agentsList },
  { name: 'tasks add', load: async () => (await import('./tasks-add.ts')).tasksAdd },
  { name: 'completion', load: async () => (await import('./completion.ts')).completion },
];

/** Every command loaded, in the table's order (for help texts). */
export function loadCommands(entries: readonly CommandEntry[] = COMMANDS): Promise<Command[]> {
  return Promise.all(entries.map((entry) => entry.load()));
}
