import { closeAtTheEnd } from './leak-check.ts';
import type { OsticketBrowser } from './osticket-browser.ts';
import { addBridgeKey, BRIDGE_PLUGIN } from './osticket-ticket-rows.ts';
import { type RealOsticket, startRealOsticket } from './real-osticket.ts';

export interface BridgeOsticket {
  osticket: RealOsticket;
  /** The installer's administrator, signed in to the staff panel. */
  admin: OsticketBrowser;
  /** deskgate's own osTicket key, bound to 127.0.0.1 and on the bridge plugin's allow-list. */
  deskgateKey: string;
}

let started: Promise<BridgeOsticket> | undefined;

/**
 * A real osTicket 1.18.1 with deskgate's bridge plugin installed and enabled for deskgate's key,
 * set up once a process (an install costs seconds) on first use and stopped when the process's
 * tests are done, so the files of a test group share one. Its options are fixed: a test needing
 * others starts its own with startRealOsticket. Tests sharing it make their own users, tickets
 * and keys and assume nothing about the others' rows.
 */
export function sharedBridgeOsticket(): Promise<BridgeOsticket> {
  started ??= (async () => {
    const osticket = await startRealOsticket({ plugins: [BRIDGE_PLUGIN] });
    const admin = await osticket.staffBrowser();
    const deskgateKey = 'D'.repeat(32);
    await addBridgeKey(osticket, admin, deskgateKey);
    return { osticket, admin, deskgateKey };
  })();
  return started;
}

// Once every file of the process has finished, before the leak check looks.
closeAtTheEnd(async () => {
  await (await started)?.osticket.stop();
});
