import { createHash } from 'node:crypto';
import { z } from 'zod';
import {
  DuplicateEmailError,
  IdempotencyConflictError,
  RejectedValueError,
  type Store,
} from '../../data/store.ts';
import { formatTimestamp } from '../../data/time.ts';
import type { IdempotencyClaim } from '../../domain.ts';
import { DeskgateError } from '../../errors.ts';
import { MESSAGES } from '../../messages.ts';
import { defineOperation, type OperationContext } from '../operation.ts';
import { type UserAddParameters, userAddParameters } from './parameters.ts';
import { type HashingOptions, passwordKind, passwordMatches, toPasswordHash } from './password.ts';

/** osTicket's own bcrypt settings (phpass, work factor 8): its users' hashes look like its own. */
const OSTICKET_HASHING: HashingOptions = { cost: 8, version: '2a' };

function invalidParameter(field: string, message: string): DeskgateError {
  return new DeskgateError(
    'invalid_parameters',
    `Invalid parameters: parameters.${field} ${message}.`,
    {
      errors: [{ field: `parameters.${field}`, message }],
    },
  );
}

/** How long an Idempotency-Key is remembered. */
const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
/**
 * How often a process deletes the expired idempotency records: a sweep on every add cost a
 * DELETE per creation. It only keeps the table small; an expired record is never replayed, and
 * the replay check deletes an expired record of its own key at once, freeing the key.
 */
const SWEEP_INTERVAL_MS = 60_000;
const lastSweeps = new WeakMap<Store, number>();

/** Deletes the expired idempotency records, at most once per SWEEP_INTERVAL_MS for one store. */
async function sweepExpiredRecords(store: Store): Promise<void> {
  const now = Date.now();
  if (now - (lastSweeps.get(store) ?? Number.NEGATIVE_INFINITY) < SWEEP_INTERVAL_MS) return;
  lastSweeps.set(store, now);
  await store.deleteIdempotencyRecordsBefore(cutoff());
}

/**
 * Identifies the request body for Idempotency-Key. The password is left out so that no fast
 * hash of it is stored; a replay checks it against the user's password hash instead.
 */
function fingerprintOf(parameters: UserAddParameters): string {
  const { password: _password, ...rest } = parameters;
  const canonical = JSON.stringify(Object.entries(rest).sort(([a], [b]) => a.localeCompare(b)));
  return createHash('sha256').update(canonical).digest('hex');
}

/** The id of the user an earlier request with this claim created, or undefined if there was none. */
async function replay(
  claim: IdempotencyClaim,
  parameters: UserAddParameters,
  { store }: OperationContext,
): Promise<string | undefined> {
  const record = await store.findIdempotencyRecord(claim.apiKeyId, claim.key);
  if (!record) return undefined;
  const limit = cutoff();
  if (record.created < limit) {
    // Expired: forgotten, and the key is free again (the periodic sweep may not have run yet).
    await store.deleteIdempotencyRecordsBefore(limit, claim);
    return undefined;
  }
  const storedHash = await store.findPasswordHash(record.userId);
  const same =
    record.fingerprint === claim.fingerprint &&
    storedHash !== undefined &&
    (await passwordMatches(parameters.password, storedHash));
  if (!same) {
    throw new DeskgateError('idempotency_mismatch', MESSAGES.idempotencyMismatch);
  }
  return String(record.userId);
}

function duplicateEmail(existingId: number | undefined): DeskgateError {
  return new DeskgateError('duplicate_email', MESSAGES.duplicateEmail, {
    extra: existingId === undefined ? {} : { existing_id: String(existingId) },
  });
}

/**
 * The answer when the address is taken. With an Idempotency-Key, the taker may be a concurrent
 * request with the same key and body: this one is then its retry and gets the same id, not a 409.
 */
async function answerTakenEmail(
  claim: IdempotencyClaim | undefined,
  parameters: UserAddParameters,
  context: OperationContext,
  existingId?: number,
): Promise<string> {
  if (claim) {
    const earlier = await replay(claim, parameters, context);
    if (earlier !== undefined) return earlier;
  }
  throw duplicateEmail(existingId ?? (await context.store.findUserIdByEmail(parameters.email)));
}

function cutoff(): string {
  return formatTimestamp(new Date(Date.now() - IDEMPOTENCY_TTL_MS));
}

export const userAdd = defineOperation({
  query: 'user',
  condition: 'add',
  methods: ['POST', 'PUT'],
  scope: 'write',
  summary: 'Create a user',
  description:
    'Creates the user, its email and its account in one transaction. Needs the `write` scope. ' +
    'Every field is required; every problem is reported at once. A password that is already ' +
    'a password hash is stored as sent; anything else is hashed with bcrypt. Send an `Idempotency-Key` ' +
    '(a value of your own, new for each user you create) to make retries safe. PUT is accepted ' +
    'as well as POST.',
  parameters: { '*': userAddParameters },
  response: z
    .string()
    .regex(/^[0-9]+$/)
    .meta({ description: 'The new user id.', examples: ['42'] }),
  responseExample: '42',
  examples: [
    {
      name: 'user-add',
      summary: 'Create a user',
      parameters: {
        name: 'Ann Example',
        email: 'ann@example.com',
        password: 's3cret-Passw0rd',
        timezone: 'Europe/Lisbon',
        phone: 351210000000,
        org_id: 0,
        default_email_id: 0,
        status: 0,
      },
    },
  ],
  nothingFound: false,
  idempotencyKey: true,
  errors: ['duplicate_email', 'idempotency_mismatch'],
  async handle({ parameters }, context) {
    const { store, config, apiKey, clientIp, idempotencyKey } = context;
    const osticket = config.schema === 'osticket';
    if (osticket && passwordKind(parameters.password) === 'argon2') {
      // osTicket cannot verify argon2: the user could never log in.
      throw invalidParameter(
        'password',
        'must not be an argon2 hash in osTicket mode (osTicket verifies bcrypt and MD5 only)',
      );
    }
    const claim: IdempotencyClaim | undefined = idempotencyKey
      ? { apiKeyId: apiKey.id, key: idempotencyKey, fingerprint: fingerprintOf(parameters) }
      : undefined;
    if (claim) {
      const earlier = await replay(claim, parameters, context);
      if (earlier !== undefined) return earlier;
      await sweepExpiredRecords(store);
    }
    // Fast answer for the common duplicate, before paying for bcrypt; the unique index still decides races.
    const existing = await store.findUserIdByEmail(parameters.email);
    if (existing !== undefined) return answerTakenEmail(claim, parameters, context, existing);
    const passwordHash = await toPasswordHash(
      parameters.password,
      osticket ? OSTICKET_HASHING : { cost: config.bcryptCost, version: '2y' },
    );
    try {
      const id = await store.createUser(
        {
          name: parameters.name,
          email: parameters.email,
          passwordHash,
          timezone: parameters.timezone,
          phone: parameters.phone,
          orgId: parameters.org_id,
          defaultEmailId: parameters.default_email_id,
          status: parameters.status,
        },
        { apiKeyId: apiKey.id, clientIp, operation: 'user/add' },
        claim,
      );
      return String(id);
    } catch (error) {
      if (error instanceof IdempotencyConflictError && claim) {
        const earlier = await replay(claim, parameters, context);
        if (earlier !== undefined) return earlier;
      }
      if (error instanceof DuplicateEmailError) return answerTakenEmail(claim, parameters, context);
      if (error instanceof RejectedValueError) throw invalidParameter(error.field, error.message);
      throw error;
    }
  },
});
