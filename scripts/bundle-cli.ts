/**
 * Bundles the `deskgate` command (src/cli/main.ts) into a few ES modules with esbuild: one
 * module per command, loaded when the command runs, and chunks they share. Node then resolves
 * about 40 files at start instead of about 560, which halves a command's start-up CPU
 * (docs/decisions/300-bundled-command.md).
 *
 * Usage: node scripts/bundle-cli.ts OUTDIR   (`npm run build` writes dist/bin/)
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { MIGRATIONS } from '../src/data/migrations/migrations.ts';

const ROOT = join(fileURLToPath(import.meta.url), '..', '..');

/**
 * What stays a package import: anything with native code, workers or CommonJS internals that
 * ask for Node's built-ins by `require`. Kysely and zod, most of the modules, are bundled.
 */
function externalPackages(): string[] {
  const { dependencies } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  const bundled = new Set(['kysely', 'zod']);
  return Object.keys(dependencies).filter((name) => !bundled.has(name));
}

/**
 * `node:http` and `node:https` as CommonJS: an ES import of them reads every export, and three of
 * node:http's are getters that load undici, 60 ms of CPU for every command that reaches the HTTP
 * code (nodejs/node#59686). The bundle imports the same objects through `require`, which reads
 * only the names the code uses; the getters' names are left out.
 */
const requireHttpModules: Plugin = {
  name: 'require-http-modules',
  setup(plugin) {
    plugin.onResolve({ filter: /^node:https?$/ }, ({ path }) => ({ path, namespace: 'required' }));
    plugin.onLoad({ filter: /.*/, namespace: 'required' }, ({ path }) => {
      const builtin = createRequire(import.meta.url)(path) as object;
      const names = Object.entries(Object.getOwnPropertyDescriptors(builtin))
        .filter(([name, descriptor]) => 'value' in descriptor && /^[A-Za-z_$][\w$]*$/.test(name))
        .map(([name]) => name);
      const contents = [
        `import { createRequire } from 'node:module';`,
        `const builtin = createRequire(import.meta.url)(${JSON.stringify(path)});`,
        ...names.map((name) => `export const ${name} = builtin.${name};`),
      ].join('\n');
      return { contents, loader: 'js' };
    });
  },
};

/** Writes OUTDIR/main.js (exporting `main`) and the modules it loads. */
export async function bundleCli(outdir: string): Promise<void> {
  await build({
    entryPoints: [join(ROOT, 'src', 'cli', 'main.ts')],
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node24',
    external: externalPackages(),
    // The migrations found in src/data/migrations/ now: the bundle has no folder to read.
    define: { BUNDLED_MIGRATIONS: JSON.stringify(MIGRATIONS) },
    plugins: [requireHttpModules],
    logLevel: 'warning',
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const outdir = process.argv[2];
  if (!outdir) {
    process.stderr.write('usage: node scripts/bundle-cli.ts OUTDIR\n');
    process.exitCode = 2;
  } else {
    await bundleCli(outdir);
  }
}
