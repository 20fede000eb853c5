import { agents } from '../../src/data/agents/agents.ts';
import { requireCapability } from '../../src/data/osticket/managed-by-osticket.ts';
import type { Store } from '../../src/data/store.ts';
import { storeUser } from './data-setup.ts';

/** A bcrypt hash, stored as sent: making users costs no hashing. */
const HASH = '$2y$04$abcdefghijklmnopqrstuu7tWf1Lh1Iu7cL0n2K3p8o5B6v8sQm3Cq';
let made = 0;

/** A user to open tickets for; resolves to its id. */
export function addUser(store: Store, name = 'Tess Ticket'): Promise<number> {
  made++;
  const user = {
    name,
    email: `tess.${process.pid}.${made}@example.com`,
    passwordHash: HASH,
    timezone: 'UTC',
    phone: '',
    orgId: 0,
    defaultEmailId: 0,
    status: 0,
    accountConfirmed: true,
  };
  return storeUser(store, user);
}

/** An active agent of the default department; resolves to its id. */
export async function addAgent(store: Store, name = 'Alex Agent'): Promise<number> {
  made++;
  const agent = await requireCapability(store.data(agents), 'agents').createAgent({
    username: `agent${made}`,
    name,
    email: `agent${made}@example.com`,
    deptId: 1,
  });
  return agent.id;
}

/** A ticket/add body; `parameters` over a valid default for `userId`. */
export function ticketAddBody(
  userId: number,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    query: 'ticket',
    condition: 'add',
    parameters: {
      title: 'Printer on fire',
      subject: 'The printer on floor 2 is on fire.',
      user_id: userId,
      priority_id: 0,
      status_id: 0,
      dept_id: 0,
      sla_id: 0,
      topic_id: 0,
      ...overrides,
    },
  };
}
