/** Another request stored an answer under the same Idempotency-Key first. */
export class IdempotencyConflictError extends Error {
  override name = 'IdempotencyConflictError';
}
