import { describeAgents } from '../../auth/key-agents.ts';
import {
  apiKeys,
  type OsticketGrantData,
  type OsticketKeyListing,
} from '../../data/api-keys/api-keys.ts';
import type { Store } from '../../data/store.ts';
import { ticketInputs } from '../../data/ticket-inputs/ticket-inputs.ts';
import { SCOPES, type Scope } from '../../domain.ts';
import { AGENT_OPTIONS, parseAgentOptions } from '../agent-options.ts';
import {
  type Command,
  CommandError,
  type CommandInput,
  JSON_OPTION,
  parseId,
  printResult,
  UsageError,
} from '../command.ts';
import { formatTable } from '../format-table.ts';
import { usingStore } from '../using-store.ts';

/** What a grant may give: every scope but `admin` (deskgate's own admin keys only). */
const GRANTABLE: readonly Scope[] = SCOPES.filter((scope) => scope !== 'admin');

function grantsOf(store: Store): OsticketGrantData {
  const grants = store.data(apiKeys).osticketGrants;
  if (!grants)
    throw new CommandError(
      'osticket keys works in osTicket mode only (DESKGATE_SCHEMA=osticket); on the own schema use keys create',
    );
  return grants;
}

function parseGrantScopes(value: unknown): Scope[] {
  const scopes = String(value ?? '')
    .split(',')
    .map((s) => s.trim());
  const unknown = scopes.filter((s) => !(GRANTABLE as string[]).includes(s));
  if (value === undefined || unknown.length > 0) {
    throw new UsageError(
      `--scope takes a comma list of ${GRANTABLE.join(', ')}; got ${JSON.stringify(value ?? '')}`,
    );
  }
  return GRANTABLE.filter((s) => scopes.includes(s));
}

/** One key as --json shows it: what deskgate lets it do, what osTicket does, and the grant. */
function toJson({ key, canCreateTickets, grant }: OsticketKeyListing) {
  return {
    id: key.id,
    name: key.name,
    active: key.revoked === null,
    canCreateTickets,
    scopes: key.scopes,
    notes: key.notes,
    agents: key.agents,
    accounts: key.accounts,
    grant: grant
      ? {
          scopes: grant.scopes,
          notes: grant.notes,
          agents: grant.agents,
          accounts: grant.accounts,
          granted: grant.granted,
        }
      : null,
  };
}

/**
 * The key's scopes as a person reads them: `tickets:write` that comes from osTicket's "Can
 * Create Tickets" alone, not from a grant, is `ticket/add` (as no agent, with osTicket's own
 * choices; decision 310): reply and close need the grant.
 */
function shownScopes({ key, grant }: OsticketKeyListing): string[] {
  const granted = grant?.scopes.includes('tickets:write') === true;
  return key.scopes.map((scope) => (scope === 'tickets:write' && !granted ? 'ticket/add' : scope));
}

/** "scopes read, tickets:write; writes tickets as agent 1" */
function describe(listing: OsticketKeyListing): string {
  const { key, grant } = listing;
  const scopes = shownScopes(listing);
  return [
    `scopes ${scopes.join(', ')}`,
    ...(key.notes ? ['reads internal notes'] : []),
    ...(scopes.includes('tickets:write')
      ? [`writes tickets as ${describeAgents(key.agents)}`]
      : []),
    ...(key.accounts.organizations ? ['may put users in organizations'] : []),
    ...(key.accounts.confirmed ? ['makes confirmed portal accounts'] : []),
    ...(grant ? [] : ["osTicket's own rights only"]),
  ].join('; ');
}

/** osTicket's staff ids named by --agent exist (an unknown one would never work). */
async function assertStaffExist(store: Store, agents: number[] | 'any'): Promise<void> {
  if (agents === 'any') return;
  for (const id of agents) {
    if ((await store.data(ticketInputs).agentUsername(id)) === undefined)
      throw new CommandError(`--agent: osTicket has no agent (staff) with id ${id}`);
  }
}

export const osticketKeysGrant: Command = {
  name: 'osticket keys grant',
  usage:
    'deskgate osticket keys grant ID --scope SCOPE,... [--notes] [--agent ID,... | --any-agent] [--organizations] [--confirmed-accounts] [--json]',
  summary:
    'osTicket mode: give osTicket API key ID (Admin panel → Manage → API) more through deskgate ' +
    `than osTicket itself lets it (read; ticket/add with "Can Create Tickets"): --scope ` +
    `(${GRANTABLE.join(', ')}), --notes (internal notes and tasks), --agent (the agents it ` +
    'acts as: replies, closes, changes tickets), --organizations and --confirmed-accounts (user/add). Replaces the ' +
    "key's earlier grant.",
  options: {
    ...JSON_OPTION,
    scope: { type: 'string' },
    notes: { type: 'boolean', default: false },
    ...AGENT_OPTIONS,
    organizations: { type: 'boolean', default: false },
    'confirmed-accounts': { type: 'boolean', default: false },
  },
  positionals: 1,
  async run(input: CommandInput) {
    const id = parseId(input.positionals[0], 'ID');
    const scopes = parseGrantScopes(input.values.scope);
    const agents = parseAgentOptions(input);
    const granted = await usingStore(input.config, [apiKeys, ticketInputs], async (store) => {
      const grants = grantsOf(store);
      await assertStaffExist(store, agents);
      return grants.grant({
        osticketKeyId: id,
        scopes,
        notes: input.values.notes === true,
        agents,
        accounts: {
          organizations: input.values.organizations === true,
          confirmed: input.values['confirmed-accounts'] === true,
        },
      });
    });
    if (!granted)
      throw new CommandError(
        `osTicket has no API key with id ${id} (deskgate osticket keys list shows them)`,
      );
    printResult(
      input,
      toJson(granted),
      () =>
        `Granted osTicket key ${id} "${granted.key.name}": ${describe(granted)}.\n` +
        'Running services apply it within DESKGATE_KEY_CACHE_TTL (2 s by default).\n',
    );
  },
};

export const osticketKeysRevoke: Command = {
  name: 'osticket keys revoke',
  usage: 'deskgate osticket keys revoke ID [--json]',
  summary:
    "osTicket mode: take back osTicket key ID's grant; it keeps what osTicket itself lets it do " +
    "(the key itself is revoked in osTicket's admin panel).",
  options: JSON_OPTION,
  positionals: 1,
  async run(input) {
    const id = parseId(input.positionals[0], 'ID');
    const outcome = await usingStore(input.config, [apiKeys], (store) =>
      grantsOf(store).revoke(id),
    );
    if (outcome === 'unknown')
      throw new CommandError(
        `osTicket has no API key with id ${id} (deskgate osticket keys list shows them)`,
      );
    printResult(input, { id, revoked: outcome === 'revoked' }, () =>
      outcome === 'revoked'
        ? `Revoked the grant of osTicket key ${id}; it keeps osTicket's own rights.\n`
        : `osTicket key ${id} had no grant; nothing changed.\n`,
    );
  },
};

export const osticketKeysList: Command = {
  name: 'osticket keys list',
  usage: 'deskgate osticket keys list [--json]',
  summary:
    "osTicket mode: osTicket's API keys with what each may do through deskgate: osTicket's own " +
    'rights and its grant; never the keys themselves. SCOPES shows `ticket/add` for what "Can ' +
    'Create Tickets" alone allows (opening tickets as no agent; reply and close need a grant).',
  options: JSON_OPTION,
  positionals: 0,
  async run(input) {
    const listings = await usingStore(input.config, [apiKeys], (store) =>
      grantsOf(store).listOsticketKeys(),
    );
    printResult(input, listings.map(toJson), () =>
      formatTable(
        ['ID', 'NAME', 'STATUS', 'CREATE TICKETS', 'SCOPES', 'NOTES', 'AGENTS', 'GRANT'],
        listings.map((listing) => [
          String(listing.key.id),
          listing.key.name,
          listing.key.revoked === null ? 'active' : 'inactive',
          listing.canCreateTickets ? 'yes' : 'no',
          shownScopes(listing).join(','),
          listing.key.notes ? 'yes' : 'no',
          describeAgents(listing.key.agents),
          listing.grant ? `granted ${listing.grant.granted ?? ''}`.trim() : 'none',
        ]),
      ),
    );
  },
};
