import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { setTimeout as sleep } from 'node:timers/promises';
import { DeskgateClientError } from './deskgate-client-error.ts';
import type {
  LookUpRequest,
  LookUps,
  OperationRequest,
  UserPage,
  UsersCreatedBetweenOptions,
} from './look-up-types.ts';
import {
  type DepartmentRecord,
  type FaqCategoryRecord,
  type FaqRecord,
  type LookUpName,
  OPERATION_CALLS,
  type Operations,
  type PriorityRecord,
  type SlaRecord,
  type StaffRecord,
  type StatusRecord,
  type TaskRecord,
  type TeamRecord,
  type TicketRecord,
  type TopicRecord,
  type UserRecord,
  type WebhookAddData,
  type WebhookAddParameters,
  type WebhookDeliveryRecord,
  type WebhookRecord,
  type WebhookTestData,
  type WebhookUpdateData,
  type WebhookUpdateParameters,
} from './operation-types.ts';
import type * as Wire from './wire-types.ts';

/** A look-up's `data`. */
type DataOf<Name extends LookUpName> = NonNullable<LookUps[Name]['data']>;
/** The fields of a look-up's `data` that hold a list. */
type ListKey<Name extends LookUpName> = {
  [Key in keyof DataOf<Name>]: DataOf<Name>[Key] extends readonly unknown[] ? Key : never;
}[keyof DataOf<Name>];
type ElementOf<
  Name extends LookUpName,
  Key extends ListKey<Name>,
> = DataOf<Name>[Key] extends readonly (infer Element)[] ? Element : never;

/** What ticket/add answers: the new ticket's id, and its number (the X-Ticket-Number header). */
export interface AddedTicket {
  id: string;
  /**
   * The number customers quote. Undefined only when the answer came without X-Ticket-Number: a
   * proxy that drops the header, or a retry (same Idempotency-Key) whose ticket is gone by now
   * (osTicket mode: deleted in osTicket). `ticketById(id)` finds it when it exists (tickets:read).
   */
  number: string | undefined;
}

/** One page of ticket/all or tasks/all. */
export interface Page<Element> {
  elements: Element[];
  /** Pass as `after` for the next page; undefined on the last one (or for a whole list). */
  next: string | undefined;
}

export interface DeskgateClientOptions {
  /** Where deskgate answers, with its base path if it has one: `http://127.0.0.1:8080`, `https://desk.example.com/helpdesk`. */
  baseUrl: string | URL;
  /** The 32-character key (`deskgate keys create`). */
  apiKey: string;
  /** Milliseconds one attempt may take, response included. Default 10000. */
  timeoutMs?: number;
  /** Further attempts of an idempotent call after the first. Default 3. */
  retries?: number;
  /** First backoff delay in ms; doubled per attempt, with jitter. Default 200. */
  retryDelayMs?: number;
  /** Longest wait before a retry; a Retry-After beyond it ends the retrying. Default 10000. */
  maxRetryDelayMs?: number;
}

export interface CallOptions {
  /** Aborts the call, retries included. */
  signal?: AbortSignal;
  /** Sent as X-Request-Id (the server logs it and echoes it). */
  requestId?: string;
}

export interface AddUserOptions extends CallOptions {
  /**
   * Makes the creation safe to retry: the server answers a repeat with the same key and body
   * with the first id. Without it, addUser is never retried (a retry could create the user twice
   * or turn the first success into a 409).
   */
  idempotencyKey?: string;
}

interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

interface Envelope {
  status: 'Success' | 'Error';
  data: unknown;
  code?: Wire.ErrorCode;
  errors?: Wire.FieldError[];
  existing_id?: string;
  updated?: string;
}

const RETRYABLE_STATUSES = new Set([429, 503]);
const NETWORK_ERRORS = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/** Seconds from a Retry-After header (delay-seconds or an HTTP date), or undefined. */
function parseRetryAfter(value: string | string[] | undefined): number | undefined {
  if (typeof value !== 'string') return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

/** The `limit` and `after` of a page request, each only when given. */
function pageParameters(limit: number | undefined, after: string | undefined) {
  return { ...(limit === undefined ? {} : { limit }), ...(after === undefined ? {} : { after }) };
}

/** A write's answer: the id it made or acted on. */
function requireId(data: unknown, operation: string): string {
  if (typeof data !== 'string') {
    throw new DeskgateClientError(`${operation} answered without an id.`, {
      status: 200,
      code: 'invalid_response',
    });
  }
  return data;
}

/** The JSON body of a call: `query` and `condition` from the name, `sort` and `parameters` when given. */
function operationBody(name: string, request: object): object {
  const [query, condition] = name.split('/');
  const { sort, parameters } = request as { sort?: string; parameters?: unknown };
  return {
    query,
    condition,
    ...(sort === undefined ? {} : { sort }),
    ...(parameters === undefined ? {} : { parameters }),
  };
}

function headerOf(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * A typed client of deskgate's operations, over Node's HTTP stack: the look-ups are GETs with a
 * JSON body, which `fetch` cannot send. Keeps connections alive; call close() when done.
 *
 * Idempotent calls (every look-up, addUser with an idempotencyKey) are retried on network
 * errors, timeouts, 503 and 429, with exponential backoff that honours Retry-After.
 */
export class DeskgateClient {
  readonly #serviceUrl: URL;
  readonly #apiKey: string;
  readonly #timeoutMs: number;
  readonly #retries: number;
  readonly #retryDelayMs: number;
  readonly #maxRetryDelayMs: number;
  readonly #agent: HttpAgent;
  readonly #request: typeof httpRequest;

  constructor(options: DeskgateClientOptions) {
    const base = new URL(options.baseUrl);
    if (base.protocol !== 'http:' && base.protocol !== 'https:') {
      throw new TypeError(`baseUrl must be http: or https:, not ${base.protocol}`);
    }
    this.#serviceUrl = new URL(`${base.pathname.replace(/\/+$/, '')}/upload/svc_wbs/`, base);
    this.#apiKey = options.apiKey;
    this.#timeoutMs = options.timeoutMs ?? 10_000;
    this.#retries = options.retries ?? 3;
    this.#retryDelayMs = options.retryDelayMs ?? 200;
    this.#maxRetryDelayMs = options.maxRetryDelayMs ?? 10_000;
    const https = base.protocol === 'https:';
    this.#agent = https ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true });
    this.#request = https ? (httpsRequest as typeof httpRequest) : httpRequest;
  }

  /** The topic with this id, or null when there is none (the 204, or a 404 not_found). */
  async getTopic(id: number | string, options: CallOptions = {}): Promise<Wire.Topic | null> {
    // Without a sort, as the PHP service's own clients send it (the server's default is by id).
    const body = { query: 'topics', condition: 'specific', parameters: { id } };
    const data = (await this.#lookUpBody(body, options)) as { topic: Wire.Topic } | null;
    return data?.topic ?? null;
  }

  /** Creates a user; resolves to the new user's id. */
  async addUser(fields: Wire.NewUserFields, options: AddUserOptions = {}): Promise<string> {
    return this.#write('user', 'add', fields, options);
  }

  /**
   * Any look-up, typed by its name (see LookUps): the envelope's data, or null when the server
   * found nothing (the 204, or a 404 not_found). A GET with a JSON body, retried like getTopic.
   */
  async lookUp<Name extends LookUpName>(
    name: Name,
    request: LookUpRequest<Name>,
    options: CallOptions = {},
  ): Promise<LookUps[Name]['data'] | null> {
    return this.#lookUpBody(operationBody(name, request), options) as Promise<
      LookUps[Name]['data'] | null
    >;
  }

  /**
   * Any operation of the interface, typed by its name (see Operations): the envelope's data, or
   * null when the server found nothing (a 204, or a 404 not_found). Look-ups go as a GET with a
   * JSON body and are retried like lookUp; the others as a POST, retried only when given an
   * `idempotencyKey` (sent as Idempotency-Key) and the operation honours one.
   */
  async call<Name extends keyof Operations>(
    name: Name,
    request: OperationRequest<Name>,
    { idempotencyKey, ...options }: AddUserOptions = {},
  ): Promise<Operations[Name]['data'] | null> {
    const { method, idempotencyKey: honoured } = OPERATION_CALLS[name];
    const body = operationBody(name, request);
    if (method === 'GET') {
      return this.#lookUpBody(body, options) as Promise<Operations[Name]['data'] | null>;
    }
    const headers: Record<string, string> =
      idempotencyKey === undefined ? {} : { 'Idempotency-Key': idempotencyKey };
    const idempotent = honoured && idempotencyKey !== undefined;
    return this.#call('POST', body, headers, idempotent, options) as Promise<
      Operations[Name]['data'] | null
    >;
  }

  /** A look-up's data; null when the server found nothing (the 204, or a 404 not_found). */
  async #lookUpBody(body: object, options: CallOptions): Promise<unknown> {
    try {
      return await this.#call('GET', body, {}, true, options);
    } catch (error) {
      if (error instanceof DeskgateClientError && error.code === 'not_found') return null;
      throw error;
    }
  }

  /** topics/all: every topic the server shows, in sort then id order; `parent` keeps one topic's children (0: top level). */
  async topicsAll(options: CallOptions & { parent?: number } = {}): Promise<TopicRecord[]> {
    const { parent, ...call } = options;
    const parameters = parent === undefined ? {} : { parent };
    return this.#list('topics/all', { parameters }, 'topics', call);
  }

  /** topics/specific by name: the first topic whose name contains `name`, ignoring case and accents; null if none. */
  async topicByName(name: string, options: CallOptions = {}): Promise<TopicRecord | null> {
    const data = await this.lookUp(
      'topics/specific',
      { sort: 'name', parameters: { name } },
      options,
    );
    return data?.topic ?? null;
  }

  /** user/specific by id (needs the users:read scope); null if there is no such user. */
  async userById(id: number | string, options: CallOptions = {}): Promise<UserRecord | null> {
    return this.#first('user/specific', { sort: 'id', parameters: { id } }, 'users', options);
  }

  /** user/specific by email, compared case-insensitively (needs users:read); null if none. */
  async userByEmail(email: string, options: CallOptions = {}): Promise<UserRecord | null> {
    return this.#first('user/specific', { sort: 'email', parameters: { email } }, 'users', options);
  }

  /**
   * user/all: the users created between `start` and `end` (inclusive; `YYYY-MM-DD` or
   * `YYYY-MM-DD HH:MM:SS`), in creation order; all of them without `limit` (more than the
   * server's DESKGATE_MAX_LIST: a `too_many_results` error), else one page: pass its `next` as
   * `after` for the next.
   */
  async usersCreatedBetween(
    start: string,
    end: string,
    options: CallOptions & UsersCreatedBetweenOptions = {},
  ): Promise<UserPage> {
    const { limit, after, ...call } = options;
    const parameters = { start_date: start, end_date: end, ...pageParameters(limit, after) };
    const page = await this.#page('user/all', { sort: 'creationDate', parameters }, 'users', call);
    return { users: page.elements, next: page.next };
  }

  /**
   * Every user created between `start` and `end`, page after page (`limit` users per request,
   * default 1000), so that no range is too large for one answer.
   */
  async *eachUserCreatedBetween(
    start: string,
    end: string,
    options: CallOptions & { limit?: number } = {},
  ): AsyncGenerator<UserRecord> {
    let after: string | undefined;
    do {
      const page = await this.usersCreatedBetween(start, end, {
        ...options,
        limit: options.limit ?? 1000,
        ...(after === undefined ? {} : { after }),
      });
      yield* page.users;
      after = page.next;
    } while (after !== undefined);
  }

  /**
   * ticket/add (needs tickets:write): opens a ticket. With an `idempotencyKey` it is retried
   * like a look-up and never opens a second ticket.
   */
  async addTicket(
    fields: Wire.NewTicketFields,
    options: AddUserOptions = {},
  ): Promise<AddedTicket> {
    let number: string | undefined;
    const id = await this.#write('ticket', 'add', fields, options, (headers) => {
      number = headerOf(headers, 'x-ticket-number');
    });
    return { id, number };
  }

  /**
   * ticket/reply (needs tickets:write): an agent's response; resolves to the new entry's id.
   * Retried only with an `idempotencyKey`, which makes a retry answer the first reply (one mail).
   */
  async replyToTicket(
    fields: Wire.TicketReplyFields,
    options: AddUserOptions = {},
  ): Promise<string> {
    return this.#write('ticket', 'reply', fields, options);
  }

  /** ticket/close (needs tickets:write): sets a closed-state status; resolves to the ticket id. */
  async closeTicket(fields: Wire.TicketCloseFields, options: AddUserOptions = {}): Promise<string> {
    return this.#write('ticket', 'close', fields, options);
  }

  /** ticket/note (needs tickets:write): an internal note; resolves to the new entry's id. */
  async noteOnTicket(fields: Wire.TicketNoteFields, options: AddUserOptions = {}): Promise<string> {
    return this.#write('ticket', 'note', fields, options);
  }

  /**
   * ticket/status (needs tickets:write): closes or reopens (or changes the open status); resolves
   * to the ticket id. A stale `if_unmodified_since` rejects with code `conflict` and `updated`.
   */
  async setTicketStatus(
    fields: Wire.TicketStatusFields,
    options: AddUserOptions = {},
  ): Promise<string> {
    return this.#write('ticket', 'status', fields, options);
  }

  /** ticket/assign (needs tickets:write): to an agent or a team, 0 releases; the ticket id. */
  async assignTicket(
    fields: Wire.TicketAssignFields,
    options: AddUserOptions = {},
  ): Promise<string> {
    return this.#write('ticket', 'assign', fields, options);
  }

  /** ticket/transfer (needs tickets:write): to another department; resolves to the ticket id. */
  async transferTicket(
    fields: Wire.TicketTransferFields,
    options: AddUserOptions = {},
  ): Promise<string> {
    return this.#write('ticket', 'transfer', fields, options);
  }

  /** ticket/update (needs tickets:write): priority, help topic, SLA plan, due date; the ticket id. */
  async updateTicket(
    fields: Wire.TicketUpdateFields,
    options: AddUserOptions = {},
  ): Promise<string> {
    return this.#write('ticket', 'update', fields, options);
  }

  /** ticket/specific by id (needs tickets:read), with its entries; null if none. */
  async ticketById(id: number | string, options: CallOptions = {}): Promise<TicketRecord | null> {
    return this.#first('ticket/specific', { parameters: { id } }, 'tickets', options);
  }

  /** ticket/specific by number; null if none. */
  async ticketByNumber(number: string, options: CallOptions = {}): Promise<TicketRecord | null> {
    return this.#first('ticket/specific', { parameters: { number } }, 'tickets', options);
  }

  /** ticket/all: one page (with `limit`) or the whole list of a request; see LookUps['ticket/all']. */
  async tickets(
    request: LookUpRequest<'ticket/all'>,
    options: CallOptions = {},
  ): Promise<Page<TicketRecord>> {
    return this.#page('ticket/all', request, 'tickets', options);
  }

  /** tasks/all: one page (with `limit`) or the whole list; see LookUps['tasks/all']. */
  async tasks(
    request: LookUpRequest<'tasks/all'>,
    options: CallOptions = {},
  ): Promise<Page<TaskRecord>> {
    return this.#page('tasks/all', request, 'tasks', options);
  }

  /**
   * events/since: one page of the change feed, from `start_time` (first call) or `after` (the
   * `next` of the previous page; always present, poll with it). `end_of_stream`: caught up.
   */
  async eventsSince(
    parameters: LookUps['events/since']['sorts']['*'],
    options: CallOptions = {},
  ): Promise<LookUps['events/since']['data']> {
    const data = await this.lookUp('events/since', { parameters }, options);
    if (!data) {
      throw new DeskgateClientError('events/since answered without data.', {
        status: 200,
        code: 'invalid_response',
      });
    }
    return data;
  }

  /** tasks/specific; null if there is no such task. */
  async taskById(id: number | string, options: CallOptions = {}): Promise<TaskRecord | null> {
    return this.#first('tasks/specific', { parameters: { id } }, 'tasks', options);
  }

  /** department/all (needs read): one page (with `limit`) or the whole list; see LookUps['department/all']. */
  async departments(
    request: LookUpRequest<'department/all'>,
    options: CallOptions = {},
  ): Promise<Page<DepartmentRecord>> {
    return this.#page('department/all', request, 'departments', options);
  }

  /** department/specific; null if there is no such department (or clients do not see it). */
  async departmentById(
    id: number | string,
    options: CallOptions = {},
  ): Promise<DepartmentRecord | null> {
    return this.#first('department/specific', { parameters: { id } }, 'departments', options);
  }

  /** faq/all: the whole category tree with its FAQs. */
  async faqTree(options: CallOptions = {}): Promise<FaqCategoryRecord[]> {
    return this.#list('faq/all', { parameters: {} }, 'categories', options);
  }

  /** faq/specific: the FAQs of one category; null if there is no such category. */
  async faqsOfCategory(
    id: number | string,
    options: CallOptions & { limit?: number; after?: string } = {},
  ): Promise<Page<FaqRecord> | null> {
    const { limit, after, ...rest } = options;
    const parameters = { id, ...pageParameters(limit, after) };
    const data = await this.lookUp('faq/specific', { parameters }, rest);
    return data ? { elements: data.faq, next: data.next } : null;
  }

  /** sla/all: one page (with `limit`) or the whole list; see LookUps['sla/all']. */
  async slaPlans(
    request: LookUpRequest<'sla/all'>,
    options: CallOptions = {},
  ): Promise<Page<SlaRecord>> {
    return this.#page('sla/all', request, 'sla', options);
  }

  /** status/all (tickets:read): the statuses a ticket can be set to, in the help desk's order. */
  async ticketStatuses(options: CallOptions = {}): Promise<StatusRecord[]> {
    return this.#list('status/all', { parameters: {} }, 'statuses', options);
  }

  /** priority/all (tickets:read): every ticket priority, in id order. */
  async ticketPriorities(options: CallOptions = {}): Promise<PriorityRecord[]> {
    return this.#list('priority/all', { parameters: {} }, 'priorities', options);
  }

  /**
   * staff/all (tickets:read): every agent, active or not, in id order (never an e-mail address
   * or login name); with `deptId`, the members of that department.
   */
  async agents(deptId?: number | string, options: CallOptions = {}): Promise<StaffRecord[]> {
    const parameters = deptId === undefined ? {} : { dept_id: deptId };
    return this.#list('staff/all', { parameters }, 'staff', options);
  }

  /** team/all (tickets:read): every team, enabled or not, in id order. */
  async teams(options: CallOptions = {}): Promise<TeamRecord[]> {
    return this.#list('team/all', { parameters: {} }, 'teams', options);
  }

  /** sla/specific; null if there is no such plan. */
  async slaById(id: number | string, options: CallOptions = {}): Promise<SlaRecord | null> {
    return this.#first('sla/specific', { parameters: { id } }, 'sla', options);
  }

  /** department/add (needs admin); resolves to the new id. Retried only with an `idempotencyKey`. */
  async addDepartment(
    fields: Wire.DepartmentAddFields,
    options: AddUserOptions = {},
  ): Promise<string> {
    return this.#write('department', 'add', fields, options);
  }

  /** sla/add (needs admin); resolves to the new id. Retried only with an `idempotencyKey`. */
  async addSlaPlan(fields: Wire.SlaAddFields, options: AddUserOptions = {}): Promise<string> {
    return this.#write('sla', 'add', fields, options);
  }

  /** sla/delete (needs admin), as DELETE; resolves to the deleted id, null when there was no such plan. */
  async deleteSlaPlan(id: number | string, options: CallOptions = {}): Promise<string | null> {
    return this.#idOrNull('DELETE', 'sla/delete', { id }, options);
  }

  /** webhook/add (webhooks:manage): the new id and the signing secret, which is shown only this once. */
  async addWebhook(
    fields: WebhookAddParameters,
    options: CallOptions = {},
  ): Promise<WebhookAddData> {
    const body = { query: 'webhook', condition: 'add', parameters: fields };
    return (await this.#call('POST', body, {}, false, options)) as WebhookAddData;
  }

  /** webhook/all (webhooks:manage): every webhook, never a secret. */
  async webhooks(options: CallOptions = {}): Promise<WebhookRecord[]> {
    return this.#list('webhook/all', { parameters: {} }, 'webhooks', options);
  }

  /** webhook/specific (webhooks:manage); null when there is none. */
  async webhookById(id: number | string, options: CallOptions = {}): Promise<WebhookRecord | null> {
    const data = await this.lookUp('webhook/specific', { parameters: { id } }, options);
    return data?.webhook ?? null;
  }

  /** webhook/update (webhooks:manage): the webhook as it is now (and `secret` when rotated); null when none. */
  async updateWebhook(
    fields: WebhookUpdateParameters,
    options: CallOptions = {},
  ): Promise<WebhookUpdateData | null> {
    const body = { query: 'webhook', condition: 'update', parameters: fields };
    return (await this.#call('POST', body, {}, false, options)) as WebhookUpdateData | null;
  }

  /** webhook/delete (webhooks:manage), as DELETE: the deleted id, null when there was none. */
  async deleteWebhook(id: number | string, options: CallOptions = {}): Promise<string | null> {
    return this.#idOrNull('DELETE', 'webhook/delete', { id }, options);
  }

  /** webhook/test (webhooks:manage): posts a ping now and says how it went; null when no such webhook. */
  async testWebhook(
    id: number | string,
    options: CallOptions = {},
  ): Promise<WebhookTestData | null> {
    const body = { query: 'webhook', condition: 'test', parameters: { id } };
    return (await this.#call('POST', body, {}, false, options)) as WebhookTestData | null;
  }

  /** webhook/deliveries (webhooks:manage): one page of a webhook's delivery log, newest first. */
  async webhookDeliveries(
    webhookId: number | string,
    page: { status?: 'pending' | 'delivered' | 'failed'; limit?: number; after?: string } = {},
    options: CallOptions = {},
  ): Promise<Page<WebhookDeliveryRecord>> {
    const parameters = { webhook_id: webhookId, limit: page.limit ?? 100, ...page };
    return this.#page('webhook/deliveries', { parameters }, 'deliveries', options);
  }

  /** webhook/redeliver (webhooks:manage): queues a logged delivery again; the new delivery id, null when gone. */
  async redeliverWebhook(
    deliveryId: number | string,
    options: CallOptions = {},
  ): Promise<string | null> {
    return this.#idOrNull('POST', 'webhook/redeliver', { delivery_id: deliveryId }, options);
  }

  /** One list of a look-up's answer; empty when the server found nothing. */
  async #list<Name extends LookUpName, Key extends ListKey<Name>>(
    name: Name,
    request: LookUpRequest<Name>,
    key: Key,
    options: CallOptions,
  ): Promise<ElementOf<Name, Key>[]> {
    const data = await this.lookUp(name, request, options);
    return (data?.[key] as ElementOf<Name, Key>[] | undefined) ?? [];
  }

  /** The first element of a look-up's list: what a `…/specific` answers; null when none. */
  async #first<Name extends LookUpName, Key extends ListKey<Name>>(
    name: Name,
    request: LookUpRequest<Name>,
    key: Key,
    options: CallOptions,
  ): Promise<ElementOf<Name, Key> | null> {
    return (await this.#list(name, request, key, options))[0] ?? null;
  }

  /** One page of a paged look-up: its list and the `next` to pass as `after`. */
  async #page<Name extends LookUpName, Key extends ListKey<Name>>(
    name: Name,
    request: LookUpRequest<Name>,
    key: Key,
    options: CallOptions,
  ): Promise<Page<ElementOf<Name, Key>>> {
    const data = await this.lookUp(name, request, options);
    return {
      elements: (data?.[key] as ElementOf<Name, Key>[] | undefined) ?? [],
      next: (data as { next?: string } | null)?.next,
    };
  }

  /** A write answering an id: retried like a look-up only with an `idempotencyKey`. */
  async #write(
    query: string,
    condition: string,
    fields: object,
    { idempotencyKey, ...options }: AddUserOptions,
    onHeaders?: (headers: IncomingHttpHeaders) => void,
  ): Promise<string> {
    const data = await this.#call(
      'POST',
      { query, condition, parameters: fields },
      idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {},
      idempotencyKey !== undefined,
      options,
      onHeaders,
    );
    return requireId(data, `${query}/${condition}`);
  }

  /** A call answering the id it acted on, or null (a 204) when there was nothing to act on. */
  async #idOrNull(
    method: 'POST' | 'DELETE',
    operation: string,
    parameters: object,
    options: CallOptions,
  ): Promise<string | null> {
    const [query, condition] = operation.split('/');
    const data = await this.#call(method, { query, condition, parameters }, {}, false, options);
    return data === null ? null : requireId(data, operation);
  }

  /** Closes the kept-alive connections. */
  close(): void {
    this.#agent.destroy();
  }

  /** The envelope's data; null for a 204. Throws DeskgateClientError. */
  async #call(
    method: 'GET' | 'POST' | 'DELETE',
    body: unknown,
    headers: Record<string, string>,
    idempotent: boolean,
    { signal, requestId }: CallOptions,
    onHeaders?: (headers: IncomingHttpHeaders) => void,
  ): Promise<unknown> {
    const payload = Buffer.from(JSON.stringify(body));
    const allHeaders: Record<string, string> = {
      apikey: this.#apiKey,
      'Content-Type': 'application/json',
      'Content-Length': String(payload.length),
      Accept: 'application/json',
      ...(requestId ? { 'X-Request-Id': requestId } : {}),
      ...headers,
    };
    const attempts = idempotent ? this.#retries + 1 : 1;
    for (let attempt = 1; ; attempt++) {
      let reply: Reply;
      try {
        reply = await this.#send(method, payload, allHeaders, signal);
      } catch (error) {
        const retryable = error instanceof DeskgateClientError && error.status === 0;
        if (!retryable || attempt >= attempts) throw error;
        await sleep(this.#backoff(attempt), undefined, { signal });
        continue;
      }
      if (RETRYABLE_STATUSES.has(reply.status) && attempt < attempts) {
        const retryAfter = parseRetryAfter(reply.headers['retry-after']);
        const delay = Math.max(this.#backoff(attempt), (retryAfter ?? 0) * 1000);
        if (delay <= this.#maxRetryDelayMs) {
          await sleep(delay, undefined, { signal });
          continue;
        }
      }
      onHeaders?.(reply.headers);
      return this.#readEnvelope(reply);
    }
  }

  /** Exponential backoff with jitter: half the step fixed, half random. */
  #backoff(attempt: number): number {
    const step = Math.min(this.#maxRetryDelayMs, this.#retryDelayMs * 2 ** (attempt - 1));
    return step / 2 + Math.random() * (step / 2);
  }

  #readEnvelope(reply: Reply): unknown {
    const requestId = headerOf(reply.headers, 'x-request-id');
    if (reply.status === 204) {
      // HTTP forbids a body on 204: deskgate sends the code in X-Error-Code (a missing topic).
      const code = headerOf(reply.headers, 'x-error-code');
      if (code === undefined || code === 'not_found') return null;
    }
    let envelope: Envelope;
    try {
      envelope = JSON.parse(reply.text) as Envelope;
    } catch (error) {
      throw new DeskgateClientError(`deskgate answered ${reply.status} without a JSON envelope.`, {
        status: reply.status,
        code: 'invalid_response',
        requestId,
        cause: error,
      });
    }
    if (reply.status === 200 && envelope.status === 'Success') return envelope.data;
    throw new DeskgateClientError(
      typeof envelope.data === 'string' ? envelope.data : `deskgate answered ${reply.status}.`,
      {
        status: reply.status,
        code: envelope.code ?? 'invalid_response',
        errors: envelope.errors,
        existingId: envelope.existing_id,
        updated: envelope.updated,
        requestId,
        retryAfterSeconds: parseRetryAfter(reply.headers['retry-after']),
      },
    );
  }

  /** One HTTP exchange, with the body on GET as on POST. Rejects with status 0 on timeout or network failure. */
  #send(
    method: string,
    payload: Buffer,
    headers: Record<string, string>,
    signal: AbortSignal | undefined,
  ): Promise<Reply> {
    return new Promise((resolve, reject) => {
      const req = this.#request(this.#serviceUrl, {
        method,
        headers,
        agent: this.#agent,
        ...(signal ? { signal } : {}),
      });
      const timer = setTimeout(() => {
        req.destroy(
          new DeskgateClientError(`deskgate did not answer within ${this.#timeoutMs} ms.`, {
            status: 0,
            code: 'timeout',
          }),
        );
      }, this.#timeoutMs);
      const fail = (error: Error & { code?: string }) => {
        clearTimeout(timer);
        if (error instanceof DeskgateClientError || error.name === 'AbortError') {
          reject(error);
        } else if (error.code !== undefined && NETWORK_ERRORS.has(error.code)) {
          reject(
            new DeskgateClientError(`Could not reach deskgate: ${error.message}`, {
              status: 0,
              code: 'network_error',
              cause: error,
            }),
          );
        } else {
          reject(error);
        }
      };
      req.on('error', fail);
      req.on('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', fail);
        res.on('end', () => {
          clearTimeout(timer);
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            text: Buffer.concat(chunks).toString('utf8'),
          });
        });
      });
      req.end(payload);
    });
  }
}
