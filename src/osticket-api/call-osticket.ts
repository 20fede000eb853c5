import type { OsticketApiConfig } from '../config.ts';
import { DeskgateError } from '../errors.ts';
import { MESSAGES } from '../messages.ts';

/** What the plugin's routes answer on success (osticket-plugin/deskgate-bridge/README.md). */
export interface BridgeAnswer {
  ticketId: number;
  number: string;
  entryId: number | null;
  /** The change routes (note, status, assign, transfer, update): whether the ticket changed. */
  changed?: boolean;
  /** The change routes: the ticket's `updated` after the call. */
  updated?: string;
}

/** The plugin's routes that write a ticket (osticket-plugin/deskgate-bridge/README.md). */
export type BridgeRoute =
  | 'tickets'
  | 'reply'
  | 'close'
  | 'note'
  | 'status'
  | 'assign'
  | 'transfer'
  | 'update';

/** A plugin or stock field name → the deskgate parameter it came from. */
export type FieldNames = Readonly<Record<string, string>>;

/** Errors reaching the network layer before a byte was sent: osTicket surely wrote nothing. */
const NOT_SENT = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

function invalidParameter(field: string, message: string): DeskgateError {
  const name = `parameters.${field}`;
  return new DeskgateError('invalid_parameters', `Invalid parameters: ${name} ${message}`, {
    errors: [{ field: name, message }],
  });
}

/** osTicket's own text, without deskgate's key should it ever echo it, and short. */
function cleaned(api: OsticketApiConfig, text: string): string {
  return text.replaceAll(api.key, '[key]').replace(/\s+/g, ' ').trim().slice(0, 300);
}

/**
 * One POST to osTicket with deskgate's own key. A timeout or a connection lost after sending is
 * `osticket_timeout` (osTicket may have written: decision 240); a refused connection, or osTicket
 * refusing the key, `osticket_unavailable` (nothing written).
 */
async function post(
  api: OsticketApiConfig,
  path: string,
  body: unknown,
): Promise<{ status: number; text: string }> {
  let response: Response;
  try {
    response = await fetch(new URL(path, api.url), {
      method: 'POST',
      headers: { 'x-api-key': api.key, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      redirect: 'manual',
      signal: AbortSignal.timeout(api.timeoutMs),
    });
    return { status: response.status, text: await response.text() };
  } catch (error) {
    const code = (error as { cause?: { code?: unknown } }).cause?.code;
    if (typeof code === 'string' && NOT_SENT.has(code)) {
      throw new DeskgateError('osticket_unavailable', MESSAGES.osticketUnavailable, {
        cause: new Error(`osTicket at ${api.url} could not be reached (${code})`),
      });
    }
    throw new DeskgateError('osticket_timeout', MESSAGES.osticketTimeout, {
      cause: new Error(`osTicket at ${api.url}${path} gave no answer: ${(error as Error).name}`),
    });
  }
}

/** osTicket refused deskgate's own key: an operator's fix, never the caller's. */
function keyRefused(api: OsticketApiConfig, path: string, text: string): DeskgateError {
  return new DeskgateError('osticket_unavailable', MESSAGES.osticketUnavailable, {
    cause: new Error(
      `osTicket refused deskgate's API key at ${path} (${cleaned(api, text)}): check DESKGATE_OSTICKET_API_KEY is active, may create tickets, is bound to deskgate's address and (plugin routes) on the plugin's allow-list`,
    ),
  });
}

/**
 * osTicket's stock `api/tickets.json`: answers the new ticket's number. Its refusals are text:
 * 400 or 500 "Unable to create new ticket :<field>\n<message>" for validation, 403 for the ban
 * list or a filter (include/api.tickets.php:131-166).
 */
export async function openStockTicket(
  api: OsticketApiConfig,
  body: Record<string, unknown>,
  fields: FieldNames,
): Promise<string> {
  const path = 'api/tickets.json';
  const { status, text } = await post(api, path, body);
  if (status === 201 && /^[A-Za-z0-9-]+$/.test(text.trim())) return text.trim();
  if (status === 401) throw keyRefused(api, path, text);
  if (status === 403) {
    throw new DeskgateError(
      'osticket_refused',
      `${MESSAGES.osticketRefused} ${cleaned(api, text)}`,
    );
  }
  const field = Object.keys(fields).find((name) =>
    new RegExp(`(^|[\\s:])${name}(\\s|$)`).test(text),
  );
  if ((status === 400 || status === 500) && field) {
    throw invalidParameter(
      fields[field] as string,
      `was refused by osTicket: ${cleaned(api, text)}`,
    );
  }
  throw new DeskgateError('osticket_unavailable', MESSAGES.osticketUnavailable, {
    cause: new Error(`osTicket answered ${status} at ${path}: ${cleaned(api, text)}`),
  });
}

interface BridgeBody {
  ticket_id?: unknown;
  number?: unknown;
  entry_id?: unknown;
  changed?: unknown;
  updated?: unknown;
  error?: unknown;
  message?: unknown;
  field?: unknown;
}

/** One of the plugin's ticket routes, its JSON refusals mapped to deskgate's. */
export async function callBridge(
  api: OsticketApiConfig,
  route: BridgeRoute,
  body: Record<string, unknown>,
  fields: FieldNames,
): Promise<BridgeAnswer> {
  const path = `api/deskgate/${route}.json`;
  const { status, text } = await post(api, path, body);
  let answer: BridgeBody | undefined;
  try {
    answer = JSON.parse(text) as BridgeBody;
  } catch {
    answer = undefined;
  }
  if (answer === undefined || typeof answer !== 'object') {
    // osTicket's dispatcher answers 404 text when no plugin added the route.
    if (status === 404 || status === 400) {
      throw new DeskgateError('requires_osticket_bridge', MESSAGES.osticketPluginNotServing, {
        cause: new Error(`osTicket answered ${status} at ${path}: the plugin is not enabled`),
      });
    }
    if (status === 401) throw keyRefused(api, path, text);
    throw new DeskgateError('osticket_unavailable', MESSAGES.osticketUnavailable, {
      cause: new Error(`osTicket answered ${status} at ${path}: ${cleaned(api, text)}`),
    });
  }
  if (status === 200 || status === 201) {
    return {
      ticketId: Number(answer.ticket_id),
      number: String(answer.number),
      entryId: typeof answer.entry_id === 'number' ? answer.entry_id : null,
      ...(typeof answer.changed === 'boolean' ? { changed: answer.changed } : {}),
      ...(typeof answer.updated === 'string' ? { updated: answer.updated } : {}),
    };
  }
  const error = String(answer.error);
  const message = cleaned(api, String(answer.message ?? ''));
  const field = typeof answer.field === 'string' ? fields[answer.field] : undefined;
  if (error === 'invalid_field' || error === 'refused') {
    if (field) throw invalidParameter(field, message);
  }
  if (error === 'not_found') throw invalidParameter(fields.ticket_id ?? 'ticket_id', message);
  if (error === 'agent_inactive') throw invalidParameter('staff_id', 'is not an active agent.');
  if (error === 'forbidden' || error === 'denied' || error === 'banned') {
    throw new DeskgateError('osticket_refused', `${MESSAGES.osticketRefused} ${message}`);
  }
  if (error === 'conflict' && typeof answer.updated === 'string') {
    throw new DeskgateError('conflict', MESSAGES.conflict, { extra: { updated: answer.updated } });
  }
  // The change routes' 409 refused: osTicket's own refusal of the action (not a field of it).
  if (error === 'refused' && !field && status === 409) {
    throw new DeskgateError('osticket_refused', `${MESSAGES.osticketRefused} ${message}`);
  }
  if (error === 'not_closeable') {
    throw new DeskgateError('not_closeable', `${MESSAGES.notCloseable} osTicket: ${message}`);
  }
  if (error === 'unauthorized' || error === 'key_not_allowed') throw keyRefused(api, path, message);
  throw new DeskgateError('osticket_unavailable', MESSAGES.osticketUnavailable, {
    cause: new Error(`osTicket answered ${status} ${error} at ${path}: ${message}`),
  });
}

/**
 * Has the plugin send osTicket's own confirmation mail for the pending client-portal account of
 * `userId` (`api/deskgate/account-confirmation.json`, UserAccount::sendConfirmEmail). Resolves
 * once osTicket sent it; otherwise rejects with an error naming why, for the log.
 */
export async function sendAccountConfirmation(
  api: OsticketApiConfig,
  userId: number,
): Promise<void> {
  const path = 'api/deskgate/account-confirmation.json';
  const { status, text } = await post(api, path, { user_id: userId });
  if (status === 200) return;
  if (status === 401 || status === 403) throw keyRefused(api, path, text);
  throw new Error(`osTicket answered ${status} at ${path}: ${cleaned(api, text)}`);
}

/** What the plugin's `erase-user` route answers: ids only (decision 344). */
export interface BridgeErasure {
  ticketIds: number[];
  entryIds: number[];
  placeholderUserId: number;
}

/** Why the plugin did not erase: one line for the command, with osTicket's own words. */
export class BridgeErasureRefused extends Error {
  override name = 'BridgeErasureRefused';
}

function idsOf(value: unknown): number[] {
  return Array.isArray(value) ? value.map(Number).filter(Number.isSafeInteger) : [];
}

/**
 * The plugin's `erase-user` route: osTicket anonymises the user's tickets (with
 * `anonymiseTickets`) and deletes the user through its own objects, in one transaction of its
 * database. A refusal is a BridgeErasureRefused naming why; a route osTicket does not serve
 * (the plugin missing, disabled, or older), its key refused, or no answer a DeskgateError.
 */
export async function eraseUserThroughBridge(
  api: OsticketApiConfig,
  body: { staff_id: number; user_id: number; anonymise_tickets: boolean },
): Promise<BridgeErasure> {
  const path = 'api/deskgate/erase-user.json';
  const { status, text } = await post(api, path, body);
  let answer: Record<string, unknown> | undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    answer =
      parsed !== null && typeof parsed === 'object'
        ? (parsed as Record<string, unknown>)
        : undefined;
  } catch {
    answer = undefined;
  }
  if (answer === undefined) {
    if (status === 404 || status === 400) {
      throw new DeskgateError('requires_osticket_bridge', MESSAGES.osticketPluginNotServing, {
        cause: new Error(
          `osTicket answered ${status} at ${path}: the plugin is not enabled, or older than this route`,
        ),
      });
    }
    if (status === 401) throw keyRefused(api, path, text);
    throw new DeskgateError('osticket_unavailable', MESSAGES.osticketUnavailable, {
      cause: new Error(`osTicket answered ${status} at ${path}: ${cleaned(api, text)}`),
    });
  }
  if (status === 200) {
    return {
      ticketIds: idsOf(answer.ticket_ids),
      entryIds: idsOf(answer.entry_ids),
      placeholderUserId: Number(answer.placeholder_user_id),
    };
  }
  const error = String(answer.error);
  const message = cleaned(api, String(answer.message ?? ''));
  if (error === 'unauthorized' || error === 'key_not_allowed') throw keyRefused(api, path, message);
  throw new BridgeErasureRefused(`osTicket refused (${error}): ${message}`);
}
