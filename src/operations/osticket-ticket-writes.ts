import type { OsticketApiConfig } from '../config.ts';
import { RejectedValueError } from '../data/store.ts';
import { ticketInputs } from '../data/ticket-inputs/ticket-inputs.ts';
import { tickets } from '../data/tickets/tickets.ts';
import { writes } from '../data/writes/writes.ts';
import { DeskgateError, type ErrorCode } from '../errors.ts';
import { MESSAGES } from '../messages.ts';
import type { Claim } from './idempotent-write.ts';
import { type OperationContext, WRITE_METHODS } from './operation.ts';
import { toParameterError } from './record-operation-write.ts';

/** What an osTicket-mode ticket write reaches: osTicket's inputs, its tickets, the write path. */
export const OSTICKET_WRITE_USES = [tickets, writes, ticketInputs] as const;

/** What every ticket write's definition shares (add, close, reply, the changes): where, who may. */
export const TICKET_WRITE = {
  query: 'ticket',
  methods: WRITE_METHODS,
  scope: 'tickets:write',
  uses: OSTICKET_WRITE_USES,
  nothingFound: false,
  idempotencyKey: true,
} as const;

/** The error codes every ticket write can answer, besides the ones every call can. */
export const TICKET_WRITE_ERRORS = [
  'agent_not_allowed',
  'idempotency_mismatch',
  'write_in_progress',
  'requires_osticket_bridge',
  'osticket_refused',
  'osticket_unavailable',
  'osticket_timeout',
] as const satisfies readonly ErrorCode[];
export type OsticketWriteContext = Omit<OperationContext, 'data'> & {
  data: OperationContext<typeof OSTICKET_WRITE_USES>['data'];
};

/**
 * How long osTicket may go on writing after deskgate stopped waiting for it: PHP's own
 * max_execution_time default (30 s) is the bound a request of osTicket's has (decision 240).
 */
export const OSTICKET_SETTLE_GRACE_MS = 30_000;

/** deskgate's osTicket API settings, or 501 naming what to set up (nothing written). */
export function osticketApiOf({ config }: Pick<OperationContext, 'config'>): OsticketApiConfig {
  if (!config.osticketApi) {
    throw new DeskgateError('requires_osticket_bridge', MESSAGES.requiresOsticketBridge);
  }
  return config.osticketApi;
}

/** The same, for a call that needs deskgate's osTicket plugin. */
export function osticketBridgeOf(context: Pick<OperationContext, 'config'>): OsticketApiConfig {
  const api = osticketApiOf(context);
  if (!api.bridge) {
    throw new DeskgateError('requires_osticket_bridge', MESSAGES.requiresOsticketPlugin);
  }
  return api;
}

/** A 400 naming the parameter, as the own schema's writes answer (RejectedValueError). */
export function rejectParameter(field: string, message: string): never {
  throw toParameterError(new RejectedValueError(field, message));
}

/**
 * Records what osTicket wrote on deskgate's generic write path: the audit entry, the call log
 * and, with a claim, the answer stored under it (no row of osTicket's is written here).
 */
export function recordOsticketWrite<Answer>(
  context: OsticketWriteContext,
  claim: (Claim & { pending?: boolean }) | undefined,
  done: { targetId: string; outcome: string; answer: Answer },
): Promise<Answer> {
  const { apiKey, clientIp, operation } = context;
  return context.data(writes).recordWrite({
    actor: { apiKeyId: apiKey.id, clientIp, operation },
    claim,
    run: async () => done,
    targetId: () => done.targetId,
    outcome: () => `${done.outcome} (through osTicket)`,
    answer: () => done.answer,
  });
}
