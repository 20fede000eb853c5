import type { Agent, NewAgent } from '../../domain.ts';
import { defineEntity } from '../entity.ts';
import { managedByOsticket } from '../osticket/managed-by-osticket.ts';
import { makeOwnAgents } from './own-agents.ts';

/** Agents (staff): whom ticket/reply and ticket/close act as. */
export interface AgentData {
  /** An active agent of an existing department; RejectedValueError for a taken username or an unknown department. */
  createAgent(agent: NewAgent): Promise<Agent>;
  listAgents(): Promise<Agent[]>;
}

export const agents = defineEntity<AgentData>({
  name: 'agents',
  own: makeOwnAgents,
  // osTicket's agents are its own staff, managed in its admin panel.
  osticket: () => ({
    createAgent: managedByOsticket('agents'),
    listAgents: managedByOsticket('agents'),
  }),
  osticketRequires: { comment: 'agents: none (osTicket manages its staff)', tables: [] },
});
