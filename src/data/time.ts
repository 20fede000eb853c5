/** `YYYY-MM-DD HH:MM:SS` in UTC, the interface's timestamp shape. */
export function formatTimestamp(value: Date | string): string {
  if (typeof value === 'string')
    return value.length > 19 ? value.slice(0, 19).replace('T', ' ') : value;
  return value.toISOString().slice(0, 19).replace('T', ' ');
}

export function now(): string {
  return formatTimestamp(new Date());
}

/** Milliseconds since the epoch of a `YYYY-MM-DD HH:MM:SS` UTC timestamp. */
export function timestampToMs(value: string): number {
  return Date.parse(`${formatTimestamp(value).replace(' ', 'T')}Z`);
}
