#!/usr/bin/env node
// The CLI runs the TypeScript sources directly: Node 24 strips the types.
import { main } from '../src/cli/main.ts';

await main(process.argv.slice(2));
