import { COMMANDS, loadCommands } from './commands/index.ts';

/** The first word of a command of several words (`keys`, `topics`, `users`), or undefined. */
export function findCommandGroup(word: string | undefined): string | undefined {
  if (word === undefined) return undefined;
  return COMMANDS.some((c) => c.name.includes(' ') && c.name.split(' ')[0] === word)
    ? word
    : undefined;
}

/** `deskgate keys --help`: the usage and summary of each command in the group. */
export async function groupHelpText(group: string): Promise<string> {
  const commands = await loadCommands(COMMANDS.filter((c) => c.name.split(' ')[0] === group));
  const lines = commands.map((c) => `  ${c.usage}\n      ${c.summary}`);
  return `Usage: deskgate ${group} <command> [options]\n\nCommands:\n${lines.join('\n')}\n\nRun deskgate ${group} <command> --help for one command, deskgate --help for all.\n`;
}
