/**
 * What osTicket's `Format::phone` shows for a number (the contact form's phone field has the
 * default "us" display format): 7 digits as 555-1234, 10 as (555) 123-4567, others unchanged.
 */
export function formatPhone(digits: string): string {
  if (digits.length === 7) return `${digits.slice(0, 3)}-${digits.slice(3)}`;
  if (digits.length === 10)
    return `(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}`;
  return digits;
}

/** osTicket's `Format::searchable`: NFC, runs of whitespace cut to their first character, trimmed. */
export function toSearchable(text: string): string {
  return text
    .normalize('NFC')
    .replace(/(\s)\s+/gu, '$1')
    .trim();
}

/**
 * The `ost__search` content osTicket's MySQL search backend writes for a user: the searchable
 * answers of its contact form (here the phone), a space, then its addresses one per line. The
 * address appears twice, as in the row osTicket 1.18.1 writes for a new user (its email list
 * holds the default address twice at that moment; ../shared/osticket/README.md).
 */
export function userSearchContent(phoneDigits: string, email: string): string {
  const answers = phoneDigits === '' ? '' : toSearchable(formatPhone(phoneDigits));
  return `${answers} ${[email, email].join('\n')}`;
}
