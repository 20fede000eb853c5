import assert from 'node:assert/strict';
import { Agent, type IncomingHttpHeaders, request } from 'node:http';

export interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  /** The parsed body; undefined when there is none. */
  body: Envelope | undefined;
  /** True when the request went over a connection an earlier request had used (keep-alive). */
  reusedSocket: boolean;
}

/** The response envelope, loosely typed for assertions. */
export interface Envelope {
  status: 'Success' | 'Error';
  time: number;
  data: unknown;
  code?: string;
  errors?: { field: string; message: string }[];
  existing_id?: string;
  [other: string]: unknown;
}

export interface CallOptions {
  method?: string;
  headers?: Record<string, string>;
  /** An object is sent as JSON; a string or Buffer as it is; undefined sends no body. */
  body?: unknown;
  /** Send the body with Transfer-Encoding: chunked (in two chunks) instead of Content-Length. */
  chunked?: boolean;
  agent?: Agent;
}

/** One HTTP/1.1 exchange over a real socket. GET requests carry their body like any other. */
export function call(url: string, options: CallOptions = {}): Promise<Reply> {
  const { method = 'GET', headers = {}, body, chunked = false, agent } = options;
  const payload =
    body === undefined
      ? undefined
      : Buffer.isBuffer(body)
        ? body
        : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method,
      agent: agent ?? false,
      headers: {
        ...(payload && !chunked ? { 'Content-Length': String(payload.length) } : {}),
        // Node's client chunks a GET body only when asked to.
        ...(payload && chunked ? { 'Transfer-Encoding': 'chunked' } : {}),
        ...headers,
      },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          text,
          body: text === '' ? undefined : (JSON.parse(text) as Envelope),
          reusedSocket: req.reusedSocket,
        });
      });
    });
    if (payload && chunked) {
      const half = Math.floor(payload.length / 2);
      req.write(payload.subarray(0, half));
      setTimeout(() => req.end(payload.subarray(half)), 5);
    } else {
      req.end(payload);
    }
  });
}

/** A client that keeps one connection open, for keep-alive tests. Destroy it when done. */
export function keepAliveAgent(): Agent {
  return new Agent({ keepAlive: true, maxSockets: 1 });
}

/** Shorthand bodies for the two operations. */
export function topicBody(id: unknown): Record<string, unknown> {
  return { query: 'topics', condition: 'specific', parameters: { id } };
}

/** user/add's fields with valid values, typed as the client takes them. */
export interface ValidUserFields {
  name: string;
  email: string;
  password: string;
  timezone: string;
  phone: number | string;
  org_id: number | string;
  default_email_id: number | string;
  status: number | string;
}

/** user/add's fields, valid ones, with `overrides` of the same types. */
export function validUserFields(overrides: Partial<ValidUserFields> = {}): ValidUserFields {
  return { ...(userFields() as unknown as ValidUserFields), ...overrides };
}

export function userFields(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'Ann Example',
    email: `ann.${Math.random().toString(36).slice(2)}@example.com`,
    password: 'correct horse battery staple',
    timezone: 'Europe/Lisbon',
    phone: 351210000000,
    org_id: 0,
    default_email_id: 0,
    // Not 1: in osTicket mode bit 1 makes the user its organisation's primary contact, which needs
    // the key's organizations grant (SPEC §4a).
    status: 0,
    ...overrides,
  };
}

/** The keys of a user in user/all and user/specific answers, sorted. */
export const USER_VIEW_KEYS = [
  'created',
  'email',
  'name',
  'org_id',
  'phone',
  'status',
  'timezone',
  'updated',
  'user_id',
];

export function userBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { query: 'user', condition: 'add', parameters: userFields(overrides) };
}

/** A page of a list answer: `total`, the elements under `key`, and `next` when more follow. */
export type ListPage<Key extends string, Item = Record<string, string>> = {
  total: number;
  next?: string;
} & Record<Key, Item[]>;

/** A 200's page of a list answer, its `total` checked against the elements under `key`. */
export function listPageOf<Key extends string, Item = Record<string, string>>(
  reply: Reply,
  key: Key,
): ListPage<Key, Item> {
  assert.equal(reply.status, 200, reply.text);
  const data = reply.body?.data as ListPage<Key, Item>;
  assert.equal(data.total, data[key].length);
  return data;
}
