import type { AccountGrant, ApiKey } from '../domain.ts';

/** What a key without a grant may do with `user/add` beyond a pending account of its own. */
export const NO_ACCOUNT_GRANT: AccountGrant = { organizations: false, confirmed: false };

/**
 * The agents of a key as one column holds them: `any`, or agent ids separated by commas, or ''
 * for none (decision 312).
 */
export function formatAgents(agents: ApiKey['agents']): string {
  return agents === 'any' ? 'any' : agents.join(',');
}

/** The column's text back; anything that is not an id is dropped. */
export function parseAgents(text: string | null | undefined): ApiKey['agents'] {
  const value = (text ?? '').trim();
  if (value === 'any') return 'any';
  return value
    .split(',')
    .map((part) => part.trim())
    .filter((part) => /^[1-9][0-9]{0,9}$/.test(part))
    .map(Number);
}

/** How a person reads them: "any agent", "agents 3, 5", "no agent". */
export function describeAgents(agents: ApiKey['agents']): string {
  if (agents === 'any') return 'any agent';
  if (agents.length === 0) return 'no agent';
  return `${agents.length === 1 ? 'agent' : 'agents'} ${agents.join(', ')}`;
}

/** Whether the key may act as agent `staffId`. */
export function mayActAs(key: Pick<ApiKey, 'agents'>, staffId: number): boolean {
  return key.agents === 'any' || key.agents.includes(staffId);
}
