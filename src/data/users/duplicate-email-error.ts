/** The address is taken (case-insensitively) by another user. */
export class DuplicateEmailError extends Error {
  override name = 'DuplicateEmailError';
}
