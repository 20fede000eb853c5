import type { Command } from '../command.ts';
import { CommandError, JSON_OPTION, parseId, printJson, UsageError } from '../command.ts';
import { formatTable } from '../format-table.ts';
import { runWebhookOperation } from '../webhook-operation.ts';

type Data = Record<string, unknown>;

function printWebhooks(input: Parameters<Command['run']>[0], list: Data[]): void {
  input.out(
    formatTable(
      ['ID', 'URL', 'EVENTS', 'ENABLED', 'FAILING SINCE', 'DESCRIPTION'],
      list.map((w) => [
        String(w.id),
        String(w.url),
        (w.events as string[]).join(','),
        w.enabled ? 'yes' : `no${w.disabled_reason ? ` (${String(w.disabled_reason)})` : ''}`,
        w.failing_since === null ? '-' : String(w.failing_since),
        String(w.description) || '-',
      ]),
    ),
  );
}

const EVENT_OPTION = { event: { type: 'string', multiple: true } } as const;

export const webhooksAdd: Command = {
  name: 'webhooks add',
  usage:
    'deskgate webhooks add --url URL --event TYPE [--event TYPE]... [--description TEXT] [--json]',
  summary:
    'Add a webhook (as webhook/add) and show its signing secret once. --event: a type, a prefix and .* (ticket.*), or *.',
  options: {
    ...JSON_OPTION,
    url: { type: 'string' },
    description: { type: 'string' },
    ...EVENT_OPTION,
  },
  positionals: 0,
  async run(input) {
    const events = (input.values.event as string[] | undefined) ?? [];
    if (input.values.url === undefined) throw new UsageError('--url is required');
    if (events.length === 0) throw new UsageError('--event is required (e.g. --event ticket.*)');
    const added = (await runWebhookOperation(input, 'webhook/add', {
      url: input.values.url,
      events,
      ...(input.values.description === undefined ? {} : { description: input.values.description }),
    })) as Data;
    if (input.values.json) {
      printJson(input, added);
      return;
    }
    input.out(
      `Created webhook ${String(added.id)}. Its signing secret is shown only this once:\n\n    ${String(added.secret)}\n\n`,
    );
  },
};

export const webhooksList: Command = {
  name: 'webhooks list',
  usage: 'deskgate webhooks list [--json]',
  summary: 'List the webhooks (as webhook/all), enabled or not; never their secrets.',
  options: JSON_OPTION,
  positionals: 0,
  async run(input) {
    const { webhooks } = (await runWebhookOperation(input, 'webhook/all', {})) as {
      webhooks: Data[];
    };
    if (input.values.json) printJson(input, webhooks);
    else printWebhooks(input, webhooks);
  },
};

export const webhooksUpdate: Command = {
  name: 'webhooks update',
  usage:
    'deskgate webhooks update ID [--url URL] [--event TYPE]... [--description TEXT] [--enable | --disable] [--rotate-secret] [--json]',
  summary:
    'Change a webhook (as webhook/update); --enable resumes one deskgate disabled; --rotate-secret shows the new secret once.',
  options: {
    ...JSON_OPTION,
    url: { type: 'string' },
    description: { type: 'string' },
    enable: { type: 'boolean', default: false },
    disable: { type: 'boolean', default: false },
    'rotate-secret': { type: 'boolean', default: false },
    ...EVENT_OPTION,
  },
  positionals: 1,
  async run(input) {
    const id = parseId(input.positionals[0], 'ID');
    const { values } = input;
    if (values.enable && values.disable)
      throw new UsageError('--enable and --disable exclude each other');
    const events = values.event as string[] | undefined;
    const updated = (await runWebhookOperation(input, 'webhook/update', {
      id,
      ...(values.url === undefined ? {} : { url: values.url }),
      ...(events === undefined ? {} : { events }),
      ...(values.description === undefined ? {} : { description: values.description }),
      ...(values.enable ? { enabled: true } : values.disable ? { enabled: false } : {}),
      ...(values['rotate-secret'] ? { rotate_secret: true } : {}),
    })) as Data | undefined;
    if (!updated) throw new CommandError(`no webhook with id ${id}`);
    if (values.json) {
      printJson(input, updated);
      return;
    }
    printWebhooks(input, [updated.webhook as Data]);
    if (updated.secret !== undefined) {
      input.out(
        `\nIts new signing secret is shown only this once:\n\n    ${String(updated.secret)}\n\n`,
      );
    }
  },
};

export const webhooksDelete: Command = {
  name: 'webhooks delete',
  usage: 'deskgate webhooks delete ID [--json]',
  summary: 'Delete a webhook and its delivery log (as webhook/delete).',
  options: JSON_OPTION,
  positionals: 1,
  async run(input) {
    const id = parseId(input.positionals[0], 'ID');
    const deleted = await runWebhookOperation(input, 'webhook/delete', { id });
    if (deleted === undefined) throw new CommandError(`no webhook with id ${id}`);
    if (input.values.json) printJson(input, { id, deleted: true });
    else input.out(`Deleted webhook ${id}.\n`);
  },
};

export const webhooksTest: Command = {
  name: 'webhooks test',
  usage: 'deskgate webhooks test ID [--json]',
  summary:
    'Post a signed ping to a webhook now (as webhook/test); exit 1 when it was not delivered.',
  options: JSON_OPTION,
  positionals: 1,
  async run(input) {
    const id = parseId(input.positionals[0], 'ID');
    const ping = (await runWebhookOperation(input, 'webhook/test', { id })) as Data | undefined;
    if (!ping) throw new CommandError(`no webhook with id ${id}`);
    if (input.values.json) printJson(input, ping);
    else
      input.out(
        `${ping.delivered ? 'Delivered' : 'Not delivered'}: status ${ping.status ?? '-'}, ${String(ping.latency_ms)} ms${ping.error ? `, ${String(ping.error)}` : ''}.\n`,
      );
    if (!ping.delivered) process.exitCode = 1;
  },
};

export const webhooksDeliveries: Command = {
  name: 'webhooks deliveries',
  usage:
    'deskgate webhooks deliveries ID [--status pending|delivered|failed] [--limit N] [--after NEXT] [--json]',
  summary: "A webhook's delivery log, newest first (as webhook/deliveries; 50 by default).",
  options: {
    ...JSON_OPTION,
    status: { type: 'string' },
    limit: { type: 'string', default: '50' },
    after: { type: 'string' },
  },
  positionals: 1,
  async run(input) {
    const id = parseId(input.positionals[0], 'ID');
    const { values } = input;
    const page = (await runWebhookOperation(input, 'webhook/deliveries', {
      webhook_id: id,
      limit: values.limit,
      ...(values.status === undefined ? {} : { status: values.status }),
      ...(values.after === undefined ? {} : { after: values.after }),
    })) as { deliveries: Data[]; next?: string };
    if (values.json) {
      printJson(input, page);
      return;
    }
    input.out(
      formatTable(
        ['ID', 'EVENT', 'TYPE', 'STATUS', 'ATTEMPTS', 'HTTP', 'ERROR', 'CREATED', 'NEXT ATTEMPT'],
        page.deliveries.map((d) => [
          String(d.id),
          String(d.event_id),
          String(d.event_type),
          String(d.status),
          String(d.attempts),
          d.response_status === null ? '-' : String(d.response_status),
          d.error === null ? '-' : String(d.error),
          String(d.created),
          d.next_attempt === null ? '-' : String(d.next_attempt),
        ]),
      ),
    );
    if (page.next !== undefined) input.out(`More: --after ${page.next}\n`);
  },
};

export const webhooksRedeliver: Command = {
  name: 'webhooks redeliver',
  usage: 'deskgate webhooks redeliver DELIVERY_ID [--json]',
  summary: 'Queue a logged delivery again (as webhook/redeliver): same body, same webhook-id.',
  options: JSON_OPTION,
  positionals: 1,
  async run(input) {
    const deliveryId = parseId(input.positionals[0], 'DELIVERY_ID');
    const id = await runWebhookOperation(input, 'webhook/redeliver', { delivery_id: deliveryId });
    if (id === undefined) throw new CommandError(`no delivery with id ${deliveryId} in the log`);
    if (input.values.json) printJson(input, { id, redelivers: deliveryId });
    else input.out(`Queued delivery ${String(id)} (delivery ${deliveryId} again).\n`);
  },
};
