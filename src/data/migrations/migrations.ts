import type { Kysely } from 'kysely';
import type { Dialect } from '../dialects/dialect.ts';
import * as initialSchema from './001-initial-schema.ts';
import * as defaultTopics from './002-default-topics.ts';
import * as exactTextOnMysql from './003-exact-text-on-mysql.ts';
import * as usersCreatedIndex from './004-users-created-index.ts';
import * as genericIdempotencyRecords from './005-generic-idempotency-records.ts';
import * as tickets from './006-tickets.ts';
import * as phoneAsText from './007-phone-as-text.ts';
import * as catalogue from './008-catalogue.ts';
import * as apiKeyExpiry from './009-api-key-expiry.ts';
import * as apiKeyAgents from './010-api-key-agents.ts';
import * as keysetFilterIndexes from './011-keyset-filter-indexes.ts';
import * as teams from './012-teams.ts';
import * as ticketChanges from './013-ticket-changes.ts';
import * as events from './014-events.ts';
import * as webhooks from './015-webhooks.ts';
import * as tasksOfATicketIndex from './016-tasks-of-a-ticket-index.ts';
import * as webhookOwners from './017-webhook-owners.ts';
import * as webhookStart from './018-webhook-start.ts';
import * as osticketOwnTables from './osticket-001-deskgate-tables.ts';
import * as osticketExactIdempotencyKeys from './osticket-002-exact-idempotency-keys.ts';
import * as osticketGenericIdempotencyRecords from './osticket-003-generic-idempotency-records.ts';
import * as osticketKeyGrants from './osticket-004-key-grants.ts';
import * as osticketEvents from './osticket-005-events.ts';
import * as osticketWebhooks from './osticket-006-webhooks.ts';
import * as osticketWebhookOwners from './osticket-007-webhook-owners.ts';
import * as osticketWebhookStart from './osticket-008-webhook-start.ts';

export type MigrationModule = { up(db: Kysely<unknown>, dialect: Dialect): Promise<void> };

/**
 * Versioned migrations of each layout, in order: a new migration is a file in this folder and
 * its line here. In an osTicket database only deskgate's own tables are migrated; osTicket's
 * are never touched.
 */
export const MIGRATIONS = {
  deskgate: [
    ['001-initial-schema', initialSchema],
    ['002-default-topics', defaultTopics],
    ['003-exact-text-on-mysql', exactTextOnMysql],
    ['004-users-created-index', usersCreatedIndex],
    ['005-generic-idempotency-records', genericIdempotencyRecords],
    ['006-tickets', tickets],
    ['007-phone-as-text', phoneAsText],
    ['008-catalogue', catalogue],
    ['009-api-key-expiry', apiKeyExpiry],
    ['010-api-key-agents', apiKeyAgents],
    ['011-keyset-filter-indexes', keysetFilterIndexes],
    ['012-teams', teams],
    ['013-ticket-changes', ticketChanges],
    ['014-events', events],
    ['015-webhooks', webhooks],
    ['016-tasks-of-a-ticket-index', tasksOfATicketIndex],
    ['017-webhook-owners', webhookOwners],
    ['018-webhook-start', webhookStart],
  ],
  osticket: [
    ['osticket-001-deskgate-tables', osticketOwnTables],
    ['osticket-002-exact-idempotency-keys', osticketExactIdempotencyKeys],
    ['osticket-003-generic-idempotency-records', osticketGenericIdempotencyRecords],
    ['osticket-004-key-grants', osticketKeyGrants],
    ['osticket-005-events', osticketEvents],
    ['osticket-006-webhooks', osticketWebhooks],
    ['osticket-007-webhook-owners', osticketWebhookOwners],
    ['osticket-008-webhook-start', osticketWebhookStart],
  ],
} as const satisfies Record<string, readonly (readonly [string, MigrationModule])[]>;

export type Layout = keyof typeof MIGRATIONS;
