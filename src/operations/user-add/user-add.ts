import * as z from 'zod';
import { RejectedValueError } from '../../data/store.ts';
import { DuplicateEmailError, users } from '../../data/users/users.ts';
import { writes } from '../../data/writes/writes.ts';
import { DeskgateError } from '../../errors.ts';
import { MESSAGES } from '../../messages.ts';
import { byLayout } from '../by-layout.ts';
import { type Claim, fingerprintOf, writeOnce } from '../idempotent-write.ts';
import { defineOperation, type OperationContext, WRITE_METHODS } from '../operation.ts';
import {
  ACCOUNT_STATUS_HEADER,
  assertAccountGrant,
  CONFIRMATION_MAIL_HEADER,
  mailAccountConfirmation,
} from './osticket-account.ts';
import type { UserAddParameters } from './parameters.ts';
import { userAddParameters } from './parameters.ts';
import { type HashingOptions, passwordKind, passwordMatches, toPasswordHash } from './password.ts';

/** osTicket's own bcrypt settings (phpass, work factor 8): its users' hashes look like its own. */
const OSTICKET_HASHING: HashingOptions = { cost: 8, version: '2a' };

const USES = [users, writes] as const;

/**
 * The phone as releases before phones became text (migration 007) fingerprinted it, a number,
 * wherever that number has the same digits: a retry across the upgrade still matches.
 */
function phoneAsFingerprinted(digits: string): string | number {
  if (digits === '') return 0;
  return /^[1-9][0-9]{0,14}$/.test(digits) ? Number(digits) : digits;
}

function invalidParameter(field: string, message: string): DeskgateError {
  return new DeskgateError(
    'invalid_parameters',
    `Invalid parameters: parameters.${field} ${message}.`,
    {
      errors: [{ field: `parameters.${field}`, message }],
    },
  );
}

function duplicateEmail(existingId: number | undefined): DeskgateError {
  return new DeskgateError('duplicate_email', MESSAGES.duplicateEmail, {
    extra: existingId === undefined ? {} : { existing_id: String(existingId) },
  });
}

/** What user/add does differently where osTicket keeps the users: its hashes, its portal accounts. */
interface UserRules {
  hashing: HashingOptions;
  /** Whether the new account is confirmed at once (the own schema has no portal: always). */
  accountConfirmed: boolean;
  /** Refusals before anything is looked up or written. */
  check(parameters: UserAddParameters): void;
  /** After the write: what became of the account (osTicket mode). */
  announce(userId: number): Promise<void>;
}

function rulesOf(context: OperationContext<typeof USES>): UserRules {
  const { config, apiKey } = context;
  return byLayout<UserRules>(context, {
    own: () => ({
      hashing: { cost: config.bcryptCost, version: '2y' },
      accountConfirmed: true,
      check() {},
      announce: async () => {},
    }),
    osticket: () => ({
      hashing: OSTICKET_HASHING,
      accountConfirmed: apiKey.accounts.confirmed,
      check(parameters) {
        if (passwordKind(parameters.password) === 'argon2') {
          // osTicket cannot verify argon2: the user could never log in.
          throw invalidParameter(
            'password',
            'must not be an argon2 hash in osTicket mode (osTicket verifies bcrypt and MD5 only)',
          );
        }
        assertAccountGrant(parameters, apiKey);
      },
      announce: (userId) => announceAccount(context, userId),
    }),
  });
}

/** Creates the user (its rows, audit entry and, with `claim`, its stored answer); resolves to its id. */
async function addUser(
  parameters: UserAddParameters,
  context: OperationContext<typeof USES>,
  claim: Claim | undefined,
  rules: UserRules,
): Promise<string> {
  const { data, apiKey, clientIp, operation } = context;
  // Fast answer for the common duplicate, before paying for bcrypt; the unique index still decides races.
  const existing = await data(users).findUserIdByEmail(parameters.email);
  if (existing !== undefined) throw duplicateEmail(existing);
  const passwordHash = await toPasswordHash(parameters.password, rules.hashing);
  const user = {
    name: parameters.name,
    email: parameters.email,
    passwordHash,
    timezone: parameters.timezone,
    phone: parameters.phone,
    orgId: parameters.org_id,
    defaultEmailId: parameters.default_email_id,
    status: parameters.status,
    accountConfirmed: rules.accountConfirmed,
  };
  try {
    return await data(writes).recordWrite({
      actor: { apiKeyId: apiKey.id, clientIp, operation },
      claim,
      run: (trx, at) => data(users).insertUser(trx, user, at),
      targetId: String,
      outcome: (id) => `created user ${id}`,
      answer: String,
    });
  } catch (error) {
    if (error instanceof DuplicateEmailError)
      throw duplicateEmail(await data(users).findUserIdByEmail(parameters.email));
    if (error instanceof RejectedValueError) throw invalidParameter(error.field, error.message);
    throw error;
  }
}

/**
 * osTicket mode: tells the caller what became of the new client-portal account (decision 361) and,
 * when it is pending, has osTicket mail the person its confirmation link.
 */
async function announceAccount(
  context: OperationContext<typeof USES>,
  userId: number,
): Promise<void> {
  if (context.apiKey.accounts.confirmed) {
    context.addResponseHeader(ACCOUNT_STATUS_HEADER, 'confirmed');
    return;
  }
  context.addResponseHeader(ACCOUNT_STATUS_HEADER, 'pending');
  context.addResponseHeader(
    CONFIRMATION_MAIL_HEADER,
    await mailAccountConfirmation(context, userId),
  );
}

export const userAdd = defineOperation({
  query: 'user',
  condition: 'add',
  methods: WRITE_METHODS,
  scope: 'write',
  summary: 'Create a user with its email and account in one transaction',
  description:
    'Creates the user, its email and its account in one transaction. Needs the `write` scope. ' +
    'Every field is required; every problem is reported at once. A password that is already ' +
    'a password hash is stored as sent; anything else is hashed with bcrypt. Send an `Idempotency-Key` ' +
    '(a value of your own, new for each user you create) to make retries safe. PUT is accepted ' +
    'as well as POST. In osTicket mode the client-portal account is pending until the person ' +
    "follows the link in osTicket's confirmation mail (`X-Account-Status: pending`, " +
    '`X-Confirmation-Mail: sent` or `not-sent`), unless the key was granted confirmed accounts ' +
    '(`X-Account-Status: confirmed`); a replayed answer carries neither header. An `org_id` ' +
    "other than 0, or a `status` with bit value 1 (its primary contact), needs the key's " +
    'organizations grant (403 `account_grant_required`).',
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
  uses: USES,
  nothingFound: false,
  idempotencyKey: true,
  errors: ['duplicate_email', 'idempotency_mismatch', 'account_grant_required'],
  async handle({ parameters }, context) {
    const rules = rulesOf(context);
    rules.check(parameters);
    return writeOnce(context.data(writes), context, {
      // The password is left out: no fast hash of it is stored; a retry's is checked instead.
      fingerprint: fingerprintOf({ ...parameters, phone: phoneAsFingerprinted(parameters.phone) }, [
        'password',
      ]),
      async confirm(answer) {
        const hash = await context.data(users).findPasswordHash(Number(answer));
        return hash !== undefined && passwordMatches(parameters.password, hash);
      },
      async write(claim) {
        const id = await addUser(parameters, context, claim, rules);
        await rules.announce(Number(id));
        return id;
      },
    });
  },
});
