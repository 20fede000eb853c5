import { webhooks } from '../data/webhooks/webhooks.ts';
import { writes } from '../data/writes/writes.ts';
import { SCOPES } from '../domain.ts';
import { DeskgateError } from '../errors.ts';
import { CommandError, type CommandInput, UsageError } from './command.ts';
import { usingStore } from './using-store.ts';

type WebhookOperation =
  | 'webhook/add'
  | 'webhook/all'
  | 'webhook/update'
  | 'webhook/delete'
  | 'webhook/test'
  | 'webhook/deliveries'
  | 'webhook/redeliver';

/**
 * Runs a webhook operation from the command line: the same validation, rules and audit entry as
 * over HTTP, as a person at the command line (key 0, address `cli`). A refused parameter is a
 * usage error naming it; undefined is the operation's "nothing found".
 */
export async function runWebhookOperation(
  input: CommandInput,
  name: WebhookOperation,
  parameters: Record<string, unknown>,
): Promise<unknown> {
  // Loaded here, not at the top, so that help and completion, which read every command's
  // options, do not load every operation and pino.
  const { OPERATIONS } = await import('../operations/registry.ts');
  const { pino } = await import('pino');
  const operation = OPERATIONS[name];
  const [query, condition] = name.split('/');
  return usingStore(input.config, [webhooks, writes], async (store) => {
    try {
      return await operation.run(
        { query, condition, parameters },
        {
          data: store.data,
          config: input.config,
          operation: name,
          apiKey: {
            id: 0,
            name: 'cli',
            scopes: [...SCOPES],
            allowIps: [],
            created: '',
            lastUsed: null,
            revoked: null,
            expires: null,
            replacedBy: null,
            notes: true,
            agents: [],
            accounts: { organizations: false, confirmed: false },
          },
          clientIp: 'cli',
          requestId: 'cli',
          idempotencyKey: undefined,
          logger: pino({ level: 'silent' }),
          addResponseHeader: () => {},
        },
      );
    } catch (error) {
      if (!(error instanceof DeskgateError)) throw error;
      // A parameter is named as the option that sets it: parameters.events.0 → --events.0.
      const message = error.message.replace(
        /parameters\.([a-z_]+)/g,
        (_whole, field: string) => `--${field.replaceAll('_', '-')}`,
      );
      if (error.code === 'invalid_parameters') throw new UsageError(message);
      throw new CommandError(message);
    }
  });
}
