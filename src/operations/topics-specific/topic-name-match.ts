/**
 * The form a topic name is compared in: decomposed (NFKD), combining marks dropped, lower-cased.
 * "Café" and "CAFE" both become "cafe"; "ﬁ" becomes "fi".
 */
export function foldTopicName(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
}

/**
 * Whether `name` contains `text`, case- and accent-insensitively. Done here rather than in SQL
 * so that SQLite, PostgreSQL, MySQL and osTicket's utf8mb3 columns give the same answer
 * (docs/decisions/061-topic-name-matching-in-code.md).
 */
export function topicNameContains(name: string, text: string): boolean {
  return foldTopicName(name).includes(foldTopicName(text));
}
