#!/usr/bin/env node
// Plain JavaScript that Node 14 and later can parse, so that an older Node gets one line saying
// what to do instead of a stack trace: nothing else is loaded before the version check.
const REQUIRED_MAJOR = 24;
const major = Number(process.versions.node.split('.')[0]);

if (major < REQUIRED_MAJOR) {
  process.stderr.write(
    'deskgate: needs Node.js ' +
      REQUIRED_MAJOR +
      ' or newer, this is ' +
      process.version +
      '; install Node.js 24 from https://nodejs.org/en/download (or run: nvm install 24)\n',
  );
  process.exitCode = 1;
} else {
  // A checkout runs its TypeScript sources (Node strips the types); the installed package has
  // no sources, only the command `npm pack` bundled into dist/bin/ (scripts/bundle-cli.ts).
  // V8 keeps the compiled code between runs (in the system's temporary folder, or where
  // NODE_COMPILE_CACHE says): a command starts in about a tenth less CPU. Only a cache: a folder
  // that cannot be written changes nothing.
  const { enableCompileCache } = await import('node:module');
  enableCompileCache();
  const { existsSync } = await import('node:fs');
  const fromSources = existsSync(new URL('../src/cli/main.ts', import.meta.url));
  const { main } = await import(fromSources ? '../src/cli/main.ts' : '../dist/bin/main.js');
  await main(process.argv.slice(2));
}
