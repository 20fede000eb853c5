import { type Agent, agents } from '../../data/agents/agents.ts';
import { requireCapability } from '../../data/osticket/managed-by-osticket.ts';
import { RejectedValueError } from '../../data/store.ts';
import { type Command, JSON_OPTION, parseId, printJson, UsageError } from '../command.ts';
import { hasControlCharacters } from '../control-characters.ts';
import { usingStore } from '../using-store.ts';

export function agentToJson(agent: Agent): Record<string, unknown> {
  return {
    id: agent.id,
    username: agent.username,
    name: agent.name,
    email: agent.email,
    dept_id: agent.deptId,
    active: agent.isActive,
    created: agent.created,
  };
}

function requireText(value: unknown, option: string, max: number): string {
  const text = String(value ?? '').trim();
  if (text === '' || text.length > max)
    throw new UsageError(`--${option} is required (1 to ${max} characters)`);
  if (hasControlCharacters(text) || /[<>]/.test(text))
    throw new UsageError(`--${option} must not contain control characters, < or >`);
  return text;
}

/** An agent to answer and close tickets as (ticket/reply and ticket/close name it by `staff_id`). */
export const agentsAdd: Command = {
  name: 'agents add',
  usage:
    'deskgate agents add --username NAME --name "FULL NAME" --email ADDRESS [--dept ID] [--json]',
  summary: 'Add an agent (the staff_id of ticket/reply and ticket/close).',
  options: {
    ...JSON_OPTION,
    username: { type: 'string' },
    name: { type: 'string' },
    email: { type: 'string' },
    dept: { type: 'string', default: '1' },
  },
  positionals: 0,
  async run(input) {
    const { values } = input;
    const username = requireText(values.username, 'username', 32);
    const name = requireText(values.name, 'name', 128);
    const email = requireText(values.email, 'email', 255);
    if (!/^[^@\s]+@[^@\s]+$/.test(email)) throw new UsageError('--email must be an address');
    const deptId = parseId(String(values.dept), '--dept');
    const agent = await usingStore(input.config, [agents], (store) =>
      requireCapability(store.data(agents), 'agents')
        .createAgent({ username, name, email, deptId })
        .catch((error: unknown) => {
          throw error instanceof RejectedValueError
            ? new UsageError(`--${error.field} ${error.message}`)
            : error;
        }),
    );
    if (values.json) printJson(input, agentToJson(agent));
    else input.out(`Added agent ${agent.id} "${agent.username}" (${agent.name}).\n`);
  },
};
