import type { ApiKey } from '../domain.ts';
import { type CommandInput, UsageError } from './command.ts';

/** `--agent ID,…` and `--any-agent`, as `keys create` and `osticket keys grant` take them. */
export const AGENT_OPTIONS = {
  /** The agents a ticket-writing key may act as (SPEC §4a). */
  agent: { type: 'string' },
  /** Any agent: only by this explicit choice. */
  'any-agent': { type: 'boolean', default: false },
} as const;

/** The agents the options name: none when neither is given. Both → a usage error. */
export function parseAgentOptions(input: Pick<CommandInput, 'values'>): ApiKey['agents'] {
  const list = input.values.agent;
  const any = input.values['any-agent'] === true;
  if (any && list !== undefined) throw new UsageError('give --agent ID,… or --any-agent, not both');
  if (any) return 'any';
  if (list === undefined) return [];
  const parts = String(list)
    .split(',')
    .map((part) => part.trim());
  if (parts.some((part) => !/^[1-9][0-9]{0,9}$/.test(part) || Number(part) > 2_147_483_647)) {
    throw new UsageError(`--agent takes a comma list of agent ids; got ${JSON.stringify(list)}`);
  }
  return [...new Set(parts.map(Number))];
}
