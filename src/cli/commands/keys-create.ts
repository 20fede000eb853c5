import { type IssuedApiKey, issueApiKey } from '../../auth/issue-api-key.ts';
import { describeAgents } from '../../auth/key-agents.ts';
import { agents } from '../../data/agents/agents.ts';
import { apiKeys } from '../../data/api-keys/api-keys.ts';
import type { Store } from '../../data/store.ts';
import type { ApiKey } from '../../domain.ts';
import { DEFAULT_SCOPES, SCOPES, type Scope } from '../../domain.ts';
import { AGENT_OPTIONS, parseAgentOptions } from '../agent-options.ts';
import {
  type Command,
  CommandError,
  type CommandInput,
  JSON_OPTION,
  printJson,
  UsageError,
} from '../command.ts';
import { hasControlCharacters } from '../control-characters.ts';
import { parseExpiry } from '../expiry-input.ts';
import { textTimestamp } from '../text-timestamp.ts';
import { usingStore } from '../using-store.ts';

function parseScopes(value: string): Scope[] {
  const scopes = value.split(',').map((s) => s.trim());
  const unknown = scopes.filter((s) => !(SCOPES as string[]).includes(s));
  if (unknown.length > 0 || scopes.length === 0) {
    throw new UsageError(
      `--scope takes a comma list of ${SCOPES.join(', ')}; got ${JSON.stringify(value)}`,
    );
  }
  return SCOPES.filter((s) => scopes.includes(s));
}

/** Every agent --agent names exists (own schema; osTicket's staff are checked by the grant). */
async function assertAgentsExist(store: Store, agentIds: ApiKey['agents']): Promise<void> {
  const data = store.data(agents);
  if (agentIds === 'any' || agentIds.length === 0 || !data) return;
  const known = new Set((await data.listAgents()).map((agent) => agent.id));
  const unknown = agentIds.filter((id) => !known.has(id));
  if (unknown.length > 0)
    throw new CommandError(
      `--agent: no agent with id ${unknown.join(', ')} (deskgate agents list shows them)`,
    );
}

export const keysCreate: Command = {
  name: 'keys create',
  usage:
    'deskgate keys create --name NAME [--scope SCOPE,...] [--allow-ip CIDR]... [--notes] [--agent ID,... | --any-agent] [--expires 90d|DATE] [--json]',
  summary:
    `Create an API key and show it once. --scope: a comma list of ${SCOPES.join(', ')} ` +
    `(default: ${DEFAULT_SCOPES.join(',')}); --expires: a duration (30d, 12h) or a UTC date ` +
    '(and time); --agent: the agents a tickets:write key may act as, replying, closing and changing tickets (default none; ' +
    '--any-agent: any).',
  options: {
    ...JSON_OPTION,
    name: { type: 'string' },
    scope: { type: 'string', default: DEFAULT_SCOPES.join(',') },
    'allow-ip': { type: 'string', multiple: true, default: [] },
    /** With tickets:read, the key also reads internal notes. */
    notes: { type: 'boolean', default: false },
    expires: { type: 'string', default: 'never' },
    ...AGENT_OPTIONS,
  },
  positionals: 0,
  async run(input) {
    const name = String(input.values.name ?? '').trim();
    if (name === '' || name.length > 128)
      throw new UsageError('--name is required (1 to 128 characters)');
    if (hasControlCharacters(name))
      throw new UsageError('--name must not contain control characters');
    const scopes = parseScopes(String(input.values.scope));
    const allowIps = (input.values['allow-ip'] as string[]).map((s) => s.trim());
    const expiresAt = parseExpiry(String(input.values.expires), '--expires', Date.now());
    const agentIds = parseAgentOptions(input);
    const { apiKey, key } = await usingStore(input.config, [apiKeys, agents], async (store) => {
      await assertAgentsExist(store, agentIds);
      return issueApiKey(store, {
        name,
        scopes,
        allowIps,
        notes: input.values.notes === true,
        expiresAt,
        agents: agentIds,
      }).catch((error: unknown) => {
        throw error instanceof RangeError ? new UsageError(`--allow-ip: ${error.message}`) : error;
      });
    });
    printIssuedKey(input, { apiKey, key }, 'Created');
  },
};

/** What `keys create` and `keys rotate` print: the key, once. `expires` only on a key that expires. */
export function printIssuedKey(input: CommandInput, { apiKey, key }: IssuedApiKey, verb: string) {
  if (input.values.json) {
    printJson(input, {
      id: apiKey.id,
      name: apiKey.name,
      key,
      scopes: apiKey.scopes,
      allowIps: apiKey.allowIps,
      // Only when set: the --json shape of SPEC §9 stays as it was for every other key.
      ...(apiKey.notes ? { notes: true } : {}),
      // Only when it has some: a key of no agent prints as before.
      ...(apiKey.agents === 'any' || apiKey.agents.length > 0 ? { agents: apiKey.agents } : {}),
      ...(apiKey.expires === null ? {} : { expires: apiKey.expires }),
    });
    return;
  }
  input.out(
    `${verb} API key ${apiKey.id} "${apiKey.name}" (scopes: ${apiKey.scopes.join(', ')}` +
      `${apiKey.allowIps.length ? `; from ${apiKey.allowIps.join(', ')}` : ''}` +
      `${apiKey.notes ? '; reads internal notes' : ''}` +
      `${apiKey.scopes.includes('tickets:write') ? `; writes tickets as ${describeAgents(apiKey.agents)}` : ''}` +
      `${apiKey.expires === null ? '' : `; expires ${textTimestamp(apiKey.expires, input.config)}`}).\n` +
      `It is shown only this once:\n\n    ${key}\n\n`,
  );
}
