import proxyaddr from 'proxy-addr';
import * as z from 'zod';

/** The value parsers of the configuration's settings (src/config.ts): each reads one variable's text. */

export const boolean = z
  .enum(['true', 'false', '1', '0'])
  .transform((v) => v === 'true' || v === '1');
/**
 * Plain decimal digits only: `z.coerce.number()` would also read " " as 0 and "0x50" as 80. One
 * transform, as the durations (src/webhooks/webhook-config.ts): every command builds these
 * schemas at start, and a chain of checks is seven zod objects a variable.
 */
export const integer = (min: number, max = Number.MAX_SAFE_INTEGER) => {
  const message =
    max === Number.MAX_SAFE_INTEGER
      ? `must be a whole number of at least ${min}`
      : `must be a whole number from ${min} to ${max}`;
  return z.string().transform((text, ctx) => {
    const digits = text.trim();
    const value = Number(digits);
    if (/^[0-9]+$/.test(digits) && value >= min && value <= max) return value;
    ctx.issues.push({ code: 'custom', input: text, message });
    return z.NEVER;
  });
};
export const positiveInt = integer(1);

/** A comma list in proxy-addr's syntax, compiled once here so a typo stops the start. */
export const proxyList = z.string().transform((value, ctx) => {
  const entries = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  try {
    proxyaddr.compile(entries);
  } catch (error) {
    ctx.issues.push({
      code: 'custom',
      input: value,
      message: `${(error as Error).message}; use addresses, CIDR ranges, loopback, linklocal or uniquelocal, comma-separated`,
    });
    return z.NEVER;
  }
  return entries;
});

/** DESKGATE_CORS_ORIGINS: exact origins (scheme://host[:port]), comma-separated; never `*`. */
export const originList = z.string().transform((value, ctx) => {
  const entries = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const entry of entries) {
    let origin: string | undefined;
    try {
      const url = new URL(entry);
      if (url.protocol === 'http:' || url.protocol === 'https:') origin = url.origin;
    } catch {}
    if (origin !== entry) {
      ctx.issues.push({
        code: 'custom',
        input: value,
        message: `${JSON.stringify(entry)} is not an origin; list exact origins like https://portal.example or http://localhost:3000 (no path, no trailing slash, no *), comma-separated`,
      });
      return z.NEVER;
    }
  }
  return entries;
});

/** Addresses deskgate itself serves beside the interface: an interface path must not take one. */
const RESERVED_PATHS = ['/healthz', '/readyz', '/metrics', '/openapi.json', '/docs'];

/**
 * DESKGATE_PATHS: a comma list of paths such as `/upload/svc_wbs/,/ost_wbs/`, each written with
 * its trailing slash (either is accepted in the variable; both forms are served).
 */
export const servicePaths = z.string().transform((value, ctx) => {
  const fail = (message: string) => {
    ctx.issues.push({ code: 'custom', input: value, message });
    return z.NEVER;
  };
  const entries = value.split(',').map((s) => s.trim());
  const paths: string[] = [];
  for (const entry of entries) {
    if (!/^(\/[A-Za-z0-9._~-]+)+\/?$/.test(entry)) {
      return fail(
        `${JSON.stringify(entry)} is not a path; list paths like /upload/svc_wbs/,/ost_wbs/ (letters, digits, . _ ~ - between slashes), comma-separated`,
      );
    }
    const path = entry.endsWith('/') ? entry : `${entry}/`;
    const bare = path.slice(0, -1);
    if (RESERVED_PATHS.some((reserved) => bare === reserved || bare.startsWith(`${reserved}/`))) {
      return fail(`${entry} is one of deskgate's own addresses (${RESERVED_PATHS.join(', ')})`);
    }
    if (paths.includes(path)) return fail(`${entry} is listed twice`);
    paths.push(path);
  }
  return paths as [string, ...string[]];
});
