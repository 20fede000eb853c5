import { type DestinationStream, type Logger, pino } from 'pino';
import { PinoPretty } from 'pino-pretty';
import type { Config } from './config.ts';

export type { Logger };

/**
 * JSON lines on stdout; human-readable when stdout is a terminal (or DESKGATE_LOG_FORMAT=pretty).
 * Secrets are kept out by construction: log calls pass named, non-secret fields (never headers or
 * bodies), which tests check against captured output. pino's redact option is not used: it cost
 * a third of the per-request logging time for fields that are never there.
 * `destination` replaces stdout (the tests keep the lines of an in-process server); it is always JSON.
 */
export function makeLogger(
  config: Pick<Config, 'logLevel' | 'logFormat'>,
  destination?: DestinationStream,
): Logger {
  const pretty =
    config.logFormat === 'pretty' || (config.logFormat === 'auto' && process.stdout.isTTY === true);
  const options = {
    level: config.logLevel,
    base: { pid: process.pid },
  };
  if (destination) return pino(options, destination);
  return pretty ? pino(options, PinoPretty({ colorize: true, sync: true })) : pino(options);
}
