import * as z from 'zod';

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#039;',
};

/**
 * A plain-text body as osTicket stores a text body: HTML-escaped, so that no markup a caller
 * sends reaches an agent's page as HTML (the original stored `<img onerror>` as it came).
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ESCAPES[character] ?? character);
}

/** Control characters other than tab, line feed and carriage return. */
const CONTROL = /(?![\t\n\r])\p{Cc}/u;

/** A text parameter: trimmed, 1…max characters, no control characters but line breaks and tabs. */
export function textField(max: number, description: string) {
  return z
    .string()
    .trim()
    .min(1, { error: 'must not be empty' })
    .max(max, { error: `must be at most ${max} characters` })
    .refine((text) => !CONTROL.test(text), { error: 'must not contain control characters' })
    .refine((text) => text.isWellFormed(), {
      error: 'must be valid Unicode (no unpaired \\ud800–\\udfff escapes)',
    })
    .meta({ description });
}

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
};

/** HTML character references decoded (the named ones above and every numeric one). */
function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] !== '#') return ENTITIES[name.toLowerCase()] ?? whole;
    const code =
      name[1] === 'x' || name[1] === 'X'
        ? Number.parseInt(name.slice(2), 16)
        : Number(name.slice(1));
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

/**
 * A subject line as osTicket keeps one (`Format::striptags`: entities decoded, then tags, comments
 * and an unclosed tag removed), so that no layout answers a subject as markup (decision 324).
 */
export function stripTags(text: string): string {
  return decodeEntities(text)
    .replace(/<!--[\s\S]*?(-->|$)/g, '')
    .replace(/<[/!?]?[a-z][^>]*(>|$)/gi, '');
}
