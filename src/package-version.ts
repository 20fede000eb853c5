import { readFileSync } from 'node:fs';
import { findPackageJSON } from 'node:module';

/**
 * deskgate's version, read from the package.json nearest to this module: the repository's when
 * running from src/, the installed package's when running from dist/.
 */
export function readPackageVersion(): string {
  const path = findPackageJSON(import.meta.url);
  if (path === undefined) throw new Error('deskgate has no package.json beside it');
  return (JSON.parse(readFileSync(path, 'utf8')) as { version: string }).version;
}
