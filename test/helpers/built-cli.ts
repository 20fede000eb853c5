import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundleCli } from '../../scripts/bundle-cli.ts';
import { ROOT } from './paths.ts';

/**
 * The `deskgate` command as the package ships it (bundled by scripts/bundle-cli.ts), built from
 * the sources as they are now. The CLI and process suites run it: hundreds of child processes,
 * each starting in about half the CPU time of the sources (docs/decisions/300-bundled-command.md).
 * A few suites (help-and-version, env-file, the terminal and database-error ones) still run
 * bin/deskgate.js on the sources, as a checkout does.
 */
const BUILDS = join(ROOT, '.build');

/** A fingerprint of everything the bundle is made of: each source file's path, size and mtime. */
function sourcesFingerprint(): string {
  const hash = createHash('sha256');
  const add = (path: string) => {
    const stat = statSync(path);
    hash.update(`${path}:${stat.size}:${stat.mtimeMs}\n`);
  };
  const src = join(ROOT, 'src');
  for (const file of readdirSync(src, { recursive: true }).map(String).sort()) {
    if (file.endsWith('.ts') && !file.endsWith('.test.ts')) add(join(src, file));
  }
  add(join(ROOT, 'package.json'));
  add(join(ROOT, 'scripts', 'bundle-cli.ts'));
  return hash.digest('hex').slice(0, 16);
}

const LAUNCHER = `// Written by test/helpers/built-cli.ts: bin/deskgate.js's last lines, on the bundle.
const { enableCompileCache } = await import('node:module');
enableCompileCache();
const { main } = await import('./main.js');
await main(process.argv.slice(2));
`;

/** Builds of earlier sources: gone once nothing started in the last hour can still run them. */
function removeOldBuilds(keep: string): void {
  for (const name of readdirSync(BUILDS)) {
    const path = join(BUILDS, name);
    if (path !== keep && Date.now() - statSync(path).mtimeMs > 3_600_000) {
      rmSync(path, { recursive: true, force: true });
    }
  }
}

let built: Promise<string> | undefined;

/**
 * The path of a script that runs the bundled command with its arguments: built on first use
 * in this process unless a build of the same sources exists. Test processes that build at the
 * same time each write a folder of their own; the first rename wins.
 */
export function builtCli(): Promise<string> {
  built ??= (async () => {
    const dir = join(BUILDS, `cli-${sourcesFingerprint()}`);
    const launcher = join(dir, 'deskgate.js');
    if (existsSync(launcher)) return launcher;
    const staging = join(BUILDS, `.staging-${randomBytes(6).toString('hex')}`);
    try {
      await bundleCli(staging);
      writeFileSync(join(staging, 'deskgate.js'), LAUNCHER);
      renameSync(staging, dir);
      removeOldBuilds(dir);
    } catch (error) {
      if (!existsSync(launcher)) throw error;
    } finally {
      rmSync(staging, { recursive: true, force: true });
    }
    return launcher;
  })();
  return built;
}
