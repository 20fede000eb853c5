import { COMMANDS, loadCommands } from './commands/index.ts';

/**
 * The longest run of leading `words` that names a group of commands, not a command (`keys`,
 * `osticket`, `osticket keys`), or undefined.
 */
export function findCommandGroup(words: readonly string[]): string | undefined {
  let group: string | undefined;
  for (let n = 1; n <= words.length && !words[n - 1]?.startsWith('-'); n++) {
    const prefix = words.slice(0, n).join(' ');
    if (!COMMANDS.some((c) => c.name.startsWith(`${prefix} `))) break;
    group = prefix;
  }
  return group;
}

/** `deskgate keys --help`: the usage and summary of each command in the group. */
export async function groupHelpText(group: string): Promise<string> {
  const commands = await loadCommands(COMMANDS.filter((c) => c.name.startsWith(`${group} `)));
  const lines = commands.map((c) => `  ${c.usage}\n      ${c.summary}`);
  return `Usage: deskgate ${group} <command> [options]\n\nCommands:\n${lines.join('\n')}\n\nRun deskgate ${group} <command> --help for one command, deskgate --help for all.\n`;
}
