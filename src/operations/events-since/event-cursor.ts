/**
 * The feed's cursor (`next`, `parameters.after`): the last sequence number a reader has and when
 * deskgate gave it out, opaque to callers. The time is what expires it (decision 382): a cursor
 * older than the retention may have missed swept events.
 */
export interface EventCursor {
  seq: number;
  /** When deskgate answered it, ms since the epoch. */
  issuedMs: number;
}

export function encodeCursor(cursor: EventCursor): string {
  return Buffer.from(`e1.${cursor.seq}.${cursor.issuedMs}`).toString('base64url');
}

/** The cursor `text` encodes, or undefined when it is not one deskgate gave out. */
export function decodeCursor(text: string): EventCursor | undefined {
  const match = /^e1\.(\d{1,15})\.(\d{1,15})$/.exec(Buffer.from(text, 'base64url').toString());
  if (!match) return undefined;
  return { seq: Number(match[1]), issuedMs: Number(match[2]) };
}
