import { readFileSync } from 'node:fs';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import { OPERATIONS } from '../../operations/registry.ts';
import { buildOpenApiDocument } from './build-openapi-document.ts';

interface Asset {
  contentType: string;
  /** Loaded on first use and kept: the Swagger UI bundle is 1.7 MB, most processes never serve it. */
  load: () => Buffer;
  cacheControl: string;
}

/** Assets of the swagger-ui-dist package, served from node_modules; the page asks no other host. */
function packageFile(file: string, contentType: string): Asset {
  return {
    contentType,
    load: () => readFileSync(fileURLToPath(import.meta.resolve(`swagger-ui-dist/${file}`))),
    cacheControl: 'public, max-age=86400',
  };
}

function generated(contentType: string, text: string): Asset {
  const body = Buffer.from(text);
  return { contentType, load: () => body, cacheControl: 'no-cache' };
}

// 'self' only: the page cannot load or send anything anywhere else, whatever the bundle tries.
// Swagger UI sets inline style attributes and uses data: SVG icons.
const PAGE_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const getOperations = Object.values(OPERATIONS).filter((operation) =>
  operation.methods.includes('GET'),
);
const GET_OPERATION_COUNT = getOperations.length;
/** The operations a browser cannot try, as the page names them (from the registry). */
const GET_OPERATIONS = getOperations
  .map((operation) => `<code>${operation.name}</code>`)
  .join(', ');

function page(basePath: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>deskgate API reference</title>
<link rel="icon" type="image/png" href="${basePath}/docs/favicon.png">
<link rel="stylesheet" href="${basePath}/docs/swagger-ui.css">
</head>
<body>
<div id="deskgate-note" style="box-sizing:border-box;max-width:1460px;margin:16px auto 0;padding:0 20px;font:14px/1.5 sans-serif;color:#3b4151">
<p><strong>Try it out</strong> sends real requests to this server: press <strong>Authorize</strong>
and enter an API key first (it goes in the <code>apikey</code> header and is kept only in this tab).
Executing <code>user/add</code> twice with the same body and <code>Idempotency-Key</code> replays the
first answer; for another body use another key, or none.</p>
<p>${GET_OPERATIONS} ${GET_OPERATION_COUNT > 1 ? 'are each a' : 'is a'} GET with a JSON body, which browsers cannot send (fetch refuses a
body on GET), so ${GET_OPERATION_COUNT > 1 ? 'they have' : 'it has'} no Try it out: each description gives the <code>curl</code> line to run
instead.</p>
</div>
<div id="swagger-ui"></div>
<script src="${basePath}/docs/swagger-ui-bundle.js"></script>
<script src="${basePath}/docs/deskgate-docs.js"></script>
</body>
</html>
`;
}

function initScript(basePath: string): string {
  // Try it out for the methods a browser can send with a body: POST and PUT. A GET with a body
  // (the look-ups) cannot be sent by fetch, so it gets no button; the page and the operation's
  // description say so and give the curl line. The document's apikey security scheme makes
  // Authorize set the header. validatorUrl null keeps the badge (an image from
  // validator.swagger.io) away.
  const options = {
    url: `${basePath}/openapi.json`,
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    supportedSubmitMethods: ['post', 'put'],
    docExpansion: 'list',
    defaultModelsExpandDepth: 1,
    // The key stays in the tab's memory, never in localStorage.
    persistAuthorization: false,
  };
  return `window.ui = SwaggerUIBundle(Object.assign(${JSON.stringify(options)}, {
  presets: [SwaggerUIBundle.presets.apis],
}));
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
 * GET {basePath}/openapi.json (the document, built once here) and GET {basePath}/docs (an HTML
 * reference rendered from it by Swagger UI, whose assets come from the swagger-ui-dist package).
 */
export function makeReferenceRoutes(
  basePath: string,
  metrics: boolean,
  servicePath: string,
): ReferenceRoutes {
  const document = buildOpenApiDocument({ basePath, metrics, servicePath });
  const documentText = `${JSON.stringify(document, null, 2)}\n`;
  const documentPath = `${basePath}/openapi.json`;
  const assets = new Map<string, Asset>([
    [`${basePath}/openapi.json`, generated('application/json; charset=utf-8', documentText)],
    [`${basePath}/docs`, generated('text/html; charset=utf-8', page(basePath))],
    [`${basePath}/docs/`, generated('text/html; charset=utf-8', page(basePath))],
    [`${basePath}/docs/deskgate-docs.js`, generated('text/javascript', initScript(basePath))],
    [
      `${basePath}/docs/swagger-ui-bundle.js`,
      packageFile('swagger-ui-bundle.js', 'text/javascript'),
    ],
    [`${basePath}/docs/swagger-ui.css`, packageFile('swagger-ui.css', 'text/css')],
    [`${basePath}/docs/favicon.png`, packageFile('favicon-32x32.png', 'image/png')],
  ]);
  const loaded = new Map<string, Buffer>();
  return {
    paths: [...assets.keys()],
    send(req, res) {
      const url = req.url ?? '/';
      const queryAt = url.indexOf('?');
      const path = queryAt === -1 ? url : url.slice(0, queryAt);
      const asset = assets.get(path);
      if (!asset) throw new Error(`no reference asset at ${path}`);
      let body = loaded.get(path);
      if (!body) {
        body = asset.load();
        loaded.set(path, body);
      }
      const perOrigin = path === documentPath;
      if (perOrigin)
        body = Buffer.from(documentText.replaceAll(EXAMPLE_ORIGIN, originOf(req.headers)));
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
