import { readFileSync } from 'node:fs';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { packageFile } from '../../package-files.ts';
import { requestPath } from '../request-path.ts';
import { buildOpenApiDocument } from './build-openapi-document.ts';

interface Asset {
  contentType: string;
  load: () => Buffer;
  cacheControl: string;
}

/**
 * The page's script and style, plain files of the package's web/ folder: deskgate's own, with no
 * dependency (decision 230).
 */
function webFile(file: string, contentType: string): Asset {
  return {
    contentType,
    load: () => readFileSync(packageFile(`web/${file}`)),
    cacheControl: 'no-cache',
  };
}

function generated(contentType: string, text: () => string): Asset {
  return { contentType, load: () => Buffer.from(text()), cacheControl: 'no-cache' };
}

/**
 * The document's text by its options, built on first request and shared by every server of the
 * process: building it converts every operation's schemas, a tenth of a server's start-up CPU.
 */
const documents = new Map<string, string>();

function documentText(basePath: string, metrics: boolean, servicePath: string): string {
  const key = JSON.stringify([basePath, metrics, servicePath]);
  let text = documents.get(key);
  if (text === undefined) {
    text = `${JSON.stringify(buildOpenApiDocument({ basePath, metrics, servicePath }), null, 2)}\n`;
    documents.set(key, text);
  }
  return text;
}

// 'self' only, and no inline script or style: the page cannot load or send anything anywhere
// else, and document text that slipped into markup could not run.
const PAGE_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** The page: a shell that web/docs.js fills from the document. */
function page(basePath: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>deskgate API reference</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${basePath}/docs/docs.css">
</head>
<body>
<div id="reference"><p>Loading the API reference from <a href="${basePath}/openapi.json">${basePath}/openapi.json</a>…</p></div>
<script src="${basePath}/docs/docs.js" data-document="${basePath}/openapi.json"></script>
</body>
</html>
`;
}

export interface ReferenceRoutes {
  /** Every path this module answers, base path included. */
  paths: readonly string[];
  /** Answers a request for one of `paths` (query string allowed). */
  send(req: Pick<IncomingMessage, 'url' | 'headers'>, res: ServerResponse): void;
}

/** The origin the document's curl lines name until a request says where the server is. */
const EXAMPLE_ORIGIN = 'http://localhost:8080';

/** A host name, IPv4 or bracketed IPv6 address, with an optional port: nothing else is echoed. */
const SAFE_HOST =
  /^(?:[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63})*|\[[0-9A-Fa-f:.]{2,45}\])(?::[0-9]{1,5})?$/;

/**
 * The address the caller reached: its Host header (and https when a proxy says so in
 * X-Forwarded-Proto), so the curl lines of /docs can be pasted as they are. A Host that is not
 * a plain host[:port] keeps the example origin.
 */
function originOf(headers: IncomingHttpHeaders): string {
  const host = headers.host;
  if (!host || host.length > 260 || !SAFE_HOST.test(host)) return EXAMPLE_ORIGIN;
  const scheme = headers['x-forwarded-proto'] === 'https' ? 'https' : 'http';
  return `${scheme}://${host}`;
}

/**
 * GET {basePath}/openapi.json (the document, built on first request) and GET {basePath}/docs (an HTML
 * reference that web/docs.js renders from it in the browser, with web/docs.css).
 */
export function makeReferenceRoutes(
  basePath: string,
  metrics: boolean,
  servicePath: string,
): ReferenceRoutes {
  const document = () => documentText(basePath, metrics, servicePath);
  const documentPath = `${basePath}/openapi.json`;
  const assets = new Map<string, Asset>([
    [`${basePath}/openapi.json`, generated('application/json; charset=utf-8', document)],
    [`${basePath}/docs`, generated('text/html; charset=utf-8', () => page(basePath))],
    [`${basePath}/docs/`, generated('text/html; charset=utf-8', () => page(basePath))],
    [`${basePath}/docs/docs.js`, webFile('docs.js', 'text/javascript; charset=utf-8')],
    [`${basePath}/docs/docs.css`, webFile('docs.css', 'text/css; charset=utf-8')],
  ]);
  const loaded = new Map<string, Buffer>();
  return {
    paths: [...assets.keys()],
    send(req, res) {
      const path = requestPath(req);
      const asset = assets.get(path);
      if (!asset) throw new Error(`no reference asset at ${path}`);
      let body = loaded.get(path);
      if (!body) {
        body = asset.load();
        loaded.set(path, body);
      }
      const perOrigin = path === documentPath;
      if (perOrigin)
        body = Buffer.from(document().replaceAll(EXAMPLE_ORIGIN, originOf(req.headers)));
      res.writeHead(200, {
        ...(perOrigin ? { Vary: 'Host, X-Forwarded-Proto' } : {}),
        'Content-Type': asset.contentType,
        'Content-Length': body.length,
        'Cache-Control': asset.cacheControl,
        'X-Content-Type-Options': 'nosniff',
        ...(asset.contentType.startsWith('text/html')
          ? { 'Content-Security-Policy': PAGE_POLICY }
          : {}),
      });
      res.end(body);
    },
  };
}
