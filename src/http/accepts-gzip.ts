/**
 * Whether an Accept-Encoding header allows gzip: a `gzip` (or `x-gzip`, or `*`) coding whose
 * weight is not zero. An explicit `gzip;q=0` wins over `*`.
 */
export function acceptsGzip(header: string | undefined): boolean {
  if (!header) return false;
  let star = false;
  for (const item of header.split(',')) {
    const [coding = '', ...params] = item.split(';');
    const name = coding.trim().toLowerCase();
    if (name !== 'gzip' && name !== 'x-gzip' && name !== '*') continue;
    const q = params.map((p) => p.trim().toLowerCase()).find((p) => p.startsWith('q='));
    const allowed = q === undefined || Number(q.slice(2)) > 0;
    if (name === '*') star = allowed;
    else return allowed;
  }
  return star;
}
