import { apiKeys } from '../data/api-keys/api-keys.ts';
import { callLog } from '../data/call-log/call-log.ts';
import type { AnyEntity } from '../data/entity.ts';
import { OPERATIONS } from '../operations/registry.ts';

/**
 * Every entity a running deskgate uses, derived from the operation registry: the API keys
 * authentication reads, each operation's `uses`, and the call log the edge writes reads to. In
 * osTicket mode exactly these tables, columns and grants are checked at start and by /readyz,
 * and documented (docs/replacing-the-osticket-web-service.md). CLI commands open stores for
 * these too.
 */
export const SERVICE_ENTITIES: readonly AnyEntity[] = [
  ...new Set<AnyEntity>([
    apiKeys,
    ...Object.values(OPERATIONS).flatMap((operation) => operation.uses),
    callLog,
  ]),
];
