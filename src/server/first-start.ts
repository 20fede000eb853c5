import { issueApiKey } from '../auth/issue-api-key.ts';
import type { Config } from '../config.ts';
import type { Store } from '../data/store.ts';

/**
 * On a database with no API key yet, creates one with both scopes and returns the text that
 * shows it once, with a curl example ready to paste. Returns undefined when keys exist.
 */
export async function createFirstKey(
  store: Store,
  config: Readonly<Config>,
): Promise<string | undefined> {
  if ((await store.countApiKeys()) > 0) return undefined;
  const { apiKey, key } = await issueApiKey(store, {
    name: 'default',
    scopes: ['read', 'write'],
    allowIps: [],
  });
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  const url = `http://${host}:${config.port}${config.basePath}/upload/svc_wbs/`;
  return [
    '',
    `deskgate created API key ${apiKey.id} "default" (scopes: read, write). It is shown only this once:`,
    '',
    `    ${key}`,
    '',
    'Try it:',
    '',
    `    curl -X GET ${url} -H 'apikey: ${key}' \\`,
    `      -d '{"query":"topics","condition":"specific","parameters":{"id":1}}'`,
    '',
  ].join('\n');
}
