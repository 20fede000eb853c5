import type { Answer } from './send-exchange.ts';

/** What an answer means to a client, on either side. */
export interface Reading {
  outcome: 'success' | 'not-found' | 'error';
  status: number;
  data: unknown;
  /** deskgate's `code`; the original has none. */
  code?: string;
  /** The error text (the original's `data` or `message`, deskgate's `data`). */
  message?: string;
  /** The field names of deskgate's `errors`. */
  fields?: string[];
}

const NOT_FOUND_TEXT = 'No items found.';

export function readAnswer(answer: Answer): Reading {
  const { status, json } = answer;
  if (status === 204 || (json?.code === 'not_found' && status === 404))
    return { outcome: 'not-found', status, data: undefined, code: 'not_found' };
  if (!json)
    return { outcome: 'error', status, data: undefined, message: answer.text.slice(0, 200) };
  if (json.status === 'Success' && status >= 200 && status < 300)
    return { outcome: 'success', status, data: json.data };
  const text = json.data ?? json.message;
  const message = typeof text === 'string' ? text : JSON.stringify(text);
  const errors = Array.isArray(json.errors) ? (json.errors as { field?: unknown }[]) : [];
  return {
    outcome: message === NOT_FOUND_TEXT && typeof json.code !== 'string' ? 'not-found' : 'error',
    status,
    data: json.data,
    code: typeof json.code === 'string' ? json.code : undefined,
    message,
    fields: errors.map((e) => String(e.field)),
  };
}

/** One line for a person: `200 Error "No items found."`, `204 not_found`, `200 Success topic 12`. */
export function describeReading(reading: Reading): string {
  if (reading.outcome === 'not-found' && reading.status === 204)
    return '204 No Content (not_found)';
  if (reading.outcome !== 'success') {
    const code = reading.code ? ` ${reading.code}` : '';
    return `${reading.status} Error${code}${reading.message ? ` ${JSON.stringify(reading.message)}` : ''}`;
  }
  const data = reading.data as Record<string, unknown> | string | undefined;
  if (typeof data === 'string') return `${reading.status} Success ${JSON.stringify(data)}`;
  const topic = data?.topic as Record<string, unknown> | undefined;
  if (topic) return `${reading.status} Success topic ${topic.id} ${JSON.stringify(topic.topic)}`;
  const list = (data?.topics ?? data?.users) as unknown[] | undefined;
  if (list) {
    const ids = list.map((item) => {
      const row = item as Record<string, unknown>;
      return String(row.id ?? row.user_id);
    });
    const shown = ids.length > 12 ? `${ids.slice(0, 12).join(',')},…` : ids.join(',');
    return `${reading.status} Success total ${data?.total} [${shown}]${data?.next ? ' next' : ''}`;
  }
  return `${reading.status} Success ${JSON.stringify(data).slice(0, 120)}`;
}
