/**
 * STAND-IN, to be replaced at merge (issue 32): gives osTicket keys their account grants the
 * way `deskgate osticket keys grant <id> --organizations --confirmed-accounts` will (another
 * branch builds that command and its table). Until then it answers the environment variable
 * DESKGATE_OSTICKET_ACCOUNT_GRANTS_STAND_IN for the server to start with. The integrator
 * replaces the body with that command per key (before the server starts; `--scope write` too,
 * as user/add needs it), returns `{}` and removes the variable from src/config.ts and
 * src/auth/osticket-key-policy.ts.
 */
export interface AccountGrantFlags {
  /** `--organizations`: org_id and the primary-contact bit. */
  organizations?: boolean;
  /** `--confirmed-accounts`: portal accounts confirmed at once. */
  confirmed?: boolean;
}

/** The environment (to merge into the server's) that grants `flags` to each osTicket key id. */
export async function grantAccounts(
  _database: { url: string; prefix?: string },
  grants: Record<number, AccountGrantFlags>,
): Promise<Record<string, string>> {
  const entries = Object.entries(grants).map(([id, flags]) => {
    const given = [flags.organizations && 'organizations', flags.confirmed && 'confirmed'];
    return `${id}:${given.filter(Boolean).join(',')}`;
  });
  return { DESKGATE_OSTICKET_ACCOUNT_GRANTS_STAND_IN: entries.join(';') };
}
