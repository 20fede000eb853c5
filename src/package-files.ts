import { readFileSync } from 'node:fs';
import { findPackageJSON } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * The path of `relative` in deskgate's package: beside the package.json nearest to this module,
 * the repository's when running from src/, the installed package's when running from dist/
 * (compiled or bundled, at whatever depth).
 */
export function packageFile(relative: string): string {
  const path = findPackageJSON(import.meta.url);
  if (path === undefined) throw new Error('deskgate has no package.json beside it');
  return join(dirname(path), relative);
}

/** deskgate's version, from its package.json. */
export function readPackageVersion(): string {
  return (JSON.parse(readFileSync(packageFile('package.json'), 'utf8')) as { version: string })
    .version;
}
