import { createRequire } from 'node:module';
import { hostname } from 'node:os';
import { ecsFormat } from '@elastic/ecs-pino-format';
import { type DestinationStream, type Logger, type LoggerOptions, pino } from 'pino';
import type { Config } from './config.ts';
import { readPackageVersion } from './package-files.ts';
import { serializeError } from './serialize-error.ts';

export type { Logger };

interface RequestFields {
  req?: { id?: string; method?: string; url?: string; remoteAddress?: string };
  res?: { statusCode?: number };
  responseTime?: number;
}

/** One terminal line per request: `POST /upload/svc_wbs/ 200 1.2ms user/add`. */
function formatPrettyMessage(log: Record<string, unknown>, messageKey: string): string {
  const { req, res, responseTime } = log as RequestFields;
  if (!req || !res) return String(log[messageKey] ?? '');
  const operation = typeof log.operation === 'string' ? ` ${log.operation}` : '';
  return `${req.method} ${req.url} ${res.statusCode} ${responseTime}ms${operation} [${req.id}]`;
}

/**
 * The request line's `req`/`res`/`responseTime` as ECS fields, and the listening address. ecs-pino-format can convert only
 * node's own request and response objects, and would copy their headers (the key travels in one).
 */
function toEcsFields(object: Record<string, unknown>): Record<string, unknown> {
  const { req, res, responseTime, ...rest } = object as RequestFields & Record<string, unknown>;
  // ECS's `host` is an object (host.hostname is set from pino's binding): the listening line's
  // address goes where ECS puts a server's.
  if (typeof rest.host === 'string') {
    const { host, port, ...others } = rest;
    return { ...others, 'server.address': host, 'server.port': port };
  }
  if (!req || !res) return object;
  return {
    ...rest,
    'http.request.id': req.id,
    'http.request.method': req.method,
    'url.path': req.url,
    'client.address': req.remoteAddress,
    'http.response.status_code': res.statusCode,
    // ECS durations are nanoseconds.
    'event.duration': responseTime === undefined ? undefined : Math.round(responseTime * 1e6),
  };
}

function ecsOptions(): LoggerOptions {
  const options = ecsFormat({
    apmIntegration: false,
    serviceName: 'deskgate',
    serviceVersion: readPackageVersion(),
  });
  const formatLog = options.formatters?.log;
  return {
    ...options,
    formatters: {
      ...options.formatters,
      log: (object) => {
        const fields = toEcsFields(object);
        return formatLog ? formatLog(fields) : fields;
      },
    },
  };
}

/** How long a log line may wait in the buffer before it is written. */
const LOG_FLUSH_INTERVAL_MS = 100;
/** Bytes gathered before a write: about a hundred request lines. */
const LOG_BUFFER_BYTES = 32 * 1024;

/**
 * stdout, written asynchronously in batches of LOG_BUFFER_BYTES or every LOG_FLUSH_INTERVAL_MS,
 * whichever comes first, and flushed when the process exits (pino registers that). One write per
 * line cost a system call and a thread-pool hand-off per request, a large share of a look-up's
 * time; a process killed with SIGKILL loses at most the last interval's lines
 * (docs/decisions/093-buffered-log-writes.md).
 *
 * Lines go in as Buffers: in its string mode sonic-boom measures the whole pending batch's byte
 * length on every write, copying up to LOG_BUFFER_BYTES per line (about 4 µs a line at 32 KiB);
 * in buffer mode it adds up the lines' lengths instead.
 */
function bufferedStdout(): DestinationStream {
  const stdout = pino.destination({
    dest: 1,
    sync: false,
    contentMode: 'buffer',
    minLength: LOG_BUFFER_BYTES,
    // sonic-boom refuses a minLength at or above maxWrite (16 KiB by default).
    maxWrite: 2 * LOG_BUFFER_BYTES,
    periodicFlush: LOG_FLUSH_INTERVAL_MS,
  });
  // sonic-boom's types know only its string mode's write. Looked up on each call: pino replaces
  // it with a no-op once stdout is a broken pipe.
  const buffers = stdout as unknown as { write(line: Buffer): boolean };
  return {
    write: (line: string) => buffers.write(Buffer.from(line)),
    flush: (callback?: (error?: Error) => unknown) => stdout.flush(callback),
    // pino's fatal() writes its line synchronously through this when the stream has it.
    flushSync: () => stdout.flushSync(),
  } as DestinationStream;
}

/**
 * JSON lines on stdout (pino's shape, pid and hostname included); one line per entry, readable,
 * when stdout is a terminal (or DESKGATE_LOG_FORMAT=pretty); the Elastic Common Schema with
 * DESKGATE_LOG_FORMAT=ecs. Secrets are kept out by construction: log calls pass named, non-secret
 * fields (never headers or bodies), which tests check against captured output. pino's redact
 * option is not used: it cost a third of the per-request logging time for fields that are never
 * there. `destination` replaces stdout (the tests keep the lines of an in-process server); it is
 * always JSON.
 */
export function makeLogger(
  config: Pick<Config, 'logLevel' | 'logFormat'>,
  destination?: DestinationStream,
): Logger {
  const base = { pid: process.pid, hostname: hostname() };
  if (config.logFormat === 'ecs')
    return pino(
      { ...ecsOptions(), level: config.logLevel, base, serializers: { err: serializeError } },
      destination ?? bufferedStdout(),
    );
  const pretty =
    config.logFormat === 'pretty' || (config.logFormat === 'auto' && process.stdout.isTTY === true);
  // Database errors carry the failed statement's values; the serializer leaves them out.
  const options = { level: config.logLevel, base, serializers: { err: serializeError } };
  if (destination) return pino(options, destination);
  if (!pretty) return pino(options, bufferedStdout());
  // Loaded only for a terminal's log: it is a twentieth of a server's start-up CPU otherwise.
  const { PinoPretty } = createRequire(import.meta.url)(
    'pino-pretty',
  ) as typeof import('pino-pretty');
  return pino(
    options,
    // Colours only on a terminal (pino-pretty's default: not in a pipe or a file, not with
    // NO_COLOR, TERM=dumb; FORCE_COLOR forces them): `serve > deskgate.log` stays plain text.
    PinoPretty({
      sync: true,
      singleLine: true,
      translateTime: 'SYS:HH:MM:ss.l',
      ignore: 'hostname,req,res,responseTime',
      messageFormat: formatPrettyMessage,
    }),
  );
}
