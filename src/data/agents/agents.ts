import { defineEntity, tablesOf } from '../entity.ts';
import type { Agent, NewAgent } from './agent.ts';
import { createAgent, listAgents, type OwnAgentTables } from './own-agents.ts';

/** Agents (staff): whom ticket/reply and ticket/close act as. */
export interface AgentData {
  /** An active agent of an existing department; RejectedValueError for a taken username or an unknown department. */
  createAgent(agent: NewAgent): Promise<Agent>;
  listAgents(): Promise<Agent[]>;
}

/**
 * An entity of deskgate's own schema only: in osTicket mode the agents are osTicket's staff,
 * managed in its admin panel, and `data(agents)` is undefined.
 */
export const agents = defineEntity<AgentData | undefined>({
  name: 'agents',
  own(handle) {
    const db = tablesOf<OwnAgentTables>(handle.db);
    return {
      createAgent: (agent) => createAgent(db, handle.dialect, agent),
      listAgents: () => listAgents(db),
    };
  },
  osticket: () => undefined,
  osticketRequires: { comment: 'agents: none (osTicket manages its staff)', tables: [] },
});
