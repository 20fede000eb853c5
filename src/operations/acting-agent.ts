import { describeAgents } from '../auth/key-agents.ts';
import type { Config } from '../config.ts';
import { ADMIN_KEY_FIRST_ID } from '../data/api-keys/admin-key-table.ts';
import { type ApiKey, SCOPES, type Scope } from '../domain.ts';
import { DeskgateError } from '../errors.ts';
import { agentNotAllowedMessage, invalidParametersMessage } from '../messages.ts';
import { byLayout } from './by-layout.ts';
import type { OperationContext } from './operation.ts';

type Context = Pick<OperationContext, 'apiKey' | 'config'>;

/**
 * The whole grant of osTicket key `apiKey` repeated with what `add` names added (a grant
 * replaces the earlier one, so the command states everything the key keeps).
 */
export function osticketGrantCommand(
  apiKey: ApiKey,
  add: { scope?: Scope; staffId?: number | 'ID'; notes?: boolean; organizations?: boolean },
): string {
  const wanted = SCOPES.filter(
    (scope) => scope !== 'read' && (apiKey.scopes.includes(scope) || scope === add.scope),
  );
  const agents =
    apiKey.agents === 'any'
      ? ['--any-agent']
      : add.staffId === undefined && apiKey.agents.length === 0
        ? []
        : [
            `--agent ${[...new Set([...apiKey.agents.map(String), ...(add.staffId === undefined ? [] : [String(add.staffId)])])].join(',')}`,
          ];
  return [
    `deskgate osticket keys grant ${apiKey.id}`,
    `--scope ${wanted.join(',')}`,
    ...(apiKey.notes || add.notes ? ['--notes'] : []),
    ...(apiKey.accounts.organizations || add.organizations ? ['--organizations'] : []),
    ...(apiKey.accounts.confirmed ? ['--confirmed-accounts'] : []),
    ...agents,
  ].join(' ');
}

/** Whether `apiKey` is an osTicket key (osTicket mode; not one of deskgate's admin keys). */
export function isOsticketKey(config: Pick<Config, 'schema'>, apiKey: Pick<ApiKey, 'id'>): boolean {
  return byLayout({ config }, { own: () => false, osticket: () => apiKey.id < ADMIN_KEY_FIRST_ID });
}

/**
 * The one command that lets this key act as `staffId` as well: in osTicket mode the osTicket
 * key's grant, repeated with the agent added (a grant replaces the earlier one); on the own
 * schema a new key, since a key's agents are set when it is made (decision 312).
 */
export function grantCommandFor({ apiKey, config }: Context, staffId: number | undefined): string {
  const agent = staffId === undefined ? 'ID' : staffId;
  if (isOsticketKey(config, apiKey))
    return osticketGrantCommand(apiKey, { scope: 'tickets:write', staffId: agent });
  return `deskgate keys create --name NAME --scope ${apiKey.scopes.join(',')} --agent ${agent} (agents are given when a key is made)`;
}

function refuse(context: Context, staffId: number | undefined): never {
  throw new DeskgateError(
    'agent_not_allowed',
    agentNotAllowedMessage(staffId, grantCommandFor(context, staffId)),
  );
}

/**
 * The agent a ticket write acts as (SPEC §4a): `staffId` when the key was given it; absent, the
 * key's one agent. Otherwise 403 agent_not_allowed naming the grant, or, for a key of several
 * agents, 400 asking for staff_id. Checked before anything about the ticket is looked at.
 */
export function actingAgent(context: Context, staffId: number | undefined): number {
  const { agents } = context.apiKey;
  if (staffId === undefined) {
    if (agents !== 'any' && agents.length === 1 && agents[0] !== undefined) return agents[0];
    if (agents !== 'any' && agents.length === 0) refuse(context, undefined);
    const message = `is required: this key may act as ${describeAgents(agents)}`;
    throw new DeskgateError(
      'invalid_parameters',
      invalidParametersMessage([`parameters.staff_id ${message}`]),
      { errors: [{ field: 'parameters.staff_id', message }] },
    );
  }
  if (agents === 'any' || agents.includes(staffId)) return staffId;
  return refuse(context, staffId);
}

/** Whether the key may act as some agent (a ticket/add through the plugin needs one). */
export function writesAsAgents(key: Pick<ApiKey, 'agents'>): boolean {
  return key.agents === 'any' || key.agents.length > 0;
}
