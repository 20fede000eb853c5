import type { ApiKey } from '../../domain.ts';
import { DeskgateError } from '../../errors.ts';
import { accountGrantRequiredMessage } from '../../messages.ts';
import { sendAccountConfirmation } from '../../osticket-api/call-osticket.ts';
import { osticketGrantCommand } from '../acting-agent.ts';
import type { OperationContext } from '../operation.ts';
import type { UserAddParameters } from './parameters.ts';

/** osTicket's `user.status` bit User::PRIMARY_ORG_CONTACT. */
const PRIMARY_ORG_CONTACT = 0x1;

/** The header telling the caller what became of the new client-portal account (decision 361). */
export const ACCOUNT_STATUS_HEADER = 'X-Account-Status';
/** With a pending account: whether osTicket sent its confirmation mail. */
export const CONFIRMATION_MAIL_HEADER = 'X-Confirmation-Mail';

/**
 * osTicket mode (SPEC §4a, decision 360): any organization, and the primary-contact bit, need
 * the key's organizations grant. An organization may share its tickets with its members or its
 * primary contacts and add its members to each other's tickets as collaborators (mailed every
 * reply); its sharing can be switched on after the user joined.
 */
export function assertAccountGrant(parameters: UserAddParameters, apiKey: ApiKey): void {
  const joins = parameters.org_id !== 0 || (parameters.status & PRIMARY_ORG_CONTACT) !== 0;
  if (joins && !apiKey.accounts.organizations) {
    throw new DeskgateError(
      'account_grant_required',
      accountGrantRequiredMessage(osticketGrantCommand(apiKey, { organizations: true })),
    );
  }
}

/**
 * Has osTicket send its own confirmation mail for the new pending account, through the bridge
 * plugin; 'not-sent' (with the reason in the log) when the plugin is not set up or the call
 * failed. The person can then still confirm through the portal's "Forgot my password".
 */
export async function mailAccountConfirmation(
  context: Pick<OperationContext, 'config' | 'logger' | 'requestId'>,
  userId: number,
): Promise<'sent' | 'not-sent'> {
  const api = context.config.osticketApi;
  const { logger, requestId } = context;
  if (!api?.bridge) {
    logger.warn(
      { requestId, userId },
      "user/add: the new client-portal account is pending and osTicket's confirmation mail was not sent: set up deskgate's osTicket plugin (DESKGATE_OSTICKET_URL, DESKGATE_OSTICKET_API_KEY, DESKGATE_OSTICKET_BRIDGE=true)",
    );
    return 'not-sent';
  }
  try {
    await sendAccountConfirmation(api, userId);
    return 'sent';
  } catch (error) {
    logger.warn(
      { requestId, userId, err: error },
      "user/add: osTicket's confirmation mail for the new pending account was not sent",
    );
    return 'not-sent';
  }
}
