import { type Logger, pino } from 'pino';
import { PinoPretty } from 'pino-pretty';
import type { Config } from './config.ts';

export type { Logger };

/**
 * JSON lines on stdout; human-readable when stdout is a terminal (or DESKGATE_LOG_FORMAT=pretty).
 * Secrets are never passed to the logger, and the redact list is a second line of defence.
 */
export function makeLogger(config: Pick<Config, 'logLevel' | 'logFormat'>): Logger {
  const pretty =
    config.logFormat === 'pretty' || (config.logFormat === 'auto' && process.stdout.isTTY === true);
  const options = {
    level: config.logLevel,
    base: { pid: process.pid },
    redact: {
      paths: ['apikey', '*.apikey', 'password', '*.password', 'key', '*.key'],
      censor: '[redacted]',
    },
  };
  return pretty ? pino(options, PinoPretty({ colorize: true, sync: true })) : pino(options);
}
