import type { AddressInfo } from 'node:net';
import { generateApiKey, hashApiKey } from '../auth/api-key-secret.ts';
import type { IssuedApiKey } from '../auth/issue-api-key.ts';
import type { Config } from '../config.ts';
import { apiKeys } from '../data/api-keys/api-keys.ts';
import type { Store } from '../data/store.ts';
import { DEFAULT_SCOPES } from '../domain.ts';

/**
 * On a database with no API key yet, creates one with every scope but `admin`, acting as no agent
 * (it opens tickets; replying and closing need a key given agents, decision 312); undefined
 * when keys exist.
 * Instances starting together on a fresh database create one between them, not one each.
 */
export async function createFirstKey(store: Store): Promise<IssuedApiKey | undefined> {
  if ((await store.data(apiKeys).countApiKeys()) > 0) return undefined;
  const key = generateApiKey();
  const apiKey = await store.data(apiKeys).createFirstApiKey({
    name: 'default',
    keyHash: hashApiKey(key),
    scopes: [...DEFAULT_SCOPES],
    allowIps: [],
  });
  return apiKey && { apiKey, key };
}

/**
 * The text that shows the first key once, with a curl example ready to paste. It names the
 * address the server really listens on (PORT=0 picks one) and, for a wildcard HOST, loopback.
 */
export function formatFirstKeyBanner(
  { apiKey, key }: IssuedApiKey,
  config: Readonly<Config>,
  address: Pick<AddressInfo, 'port'>,
): string {
  const wildcard = config.host === '0.0.0.0' || config.host === '::';
  const host = wildcard ? (config.host === '::' ? '::1' : '127.0.0.1') : config.host;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}${config.basePath}${config.servicePaths[0]}`;
  return [
    '',
    `deskgate created API key ${apiKey.id} "${apiKey.name}" (scopes: ${apiKey.scopes.join(', ')}). It is shown only this once:`,
    '',
    `    ${key}`,
    '',
    'Try it:',
    '',
    `    curl -X GET ${url} -H 'apikey: ${key}' \\`,
    `      -d '{"query":"topics","condition":"specific","parameters":{"id":1}}'`,
    '',
    'It writes tickets as no agent: it opens tickets, but replies and closes as no one. For that,',
    'make a key that may act as the agents it answers for:',
    '',
    '    deskgate keys create --name NAME --agent ID,...     (deskgate agents list shows the ids)',
    '',
  ].join('\n');
}
