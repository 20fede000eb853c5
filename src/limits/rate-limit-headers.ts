/**
 * The headers that describe one fixed-window policy: the IETF RateLimit fields
 * (draft-ietf-httpapi-ratelimit-headers-10: a String policy id with q/w, and r/t) and the
 * X-RateLimit-* fields older clients read. Reset and `t` are seconds until the window starts
 * over (never an epoch time). The policy's own fields are made once; each answer adds its count.
 */
export function rateLimitHeaders(
  policy: string,
  limit: number,
  windowSeconds: number,
): (remaining: number, msBeforeReset: number) => Record<string, string> {
  const policyField = `"${policy}";q=${limit};w=${windowSeconds}`;
  const limitField = String(limit);
  return (remaining, msBeforeReset) => {
    const left = Math.max(0, remaining);
    const reset = Math.max(1, Math.ceil(msBeforeReset / 1000));
    return {
      'RateLimit-Policy': policyField,
      RateLimit: `"${policy}";r=${left};t=${reset}`,
      'X-RateLimit-Limit': limitField,
      'X-RateLimit-Remaining': String(left),
      'X-RateLimit-Reset': String(reset),
    };
  };
}
