import { makeLogger } from '../../logger.ts';
import { serve as serveForever } from '../../server/serve.ts';
import type { Command } from '../command.ts';

export const serve: Command = {
  name: 'serve',
  usage: 'deskgate serve [--database URL]',
  summary: 'Run the HTTP service (what npm start runs) until SIGTERM or SIGINT.',
  options: {},
  positionals: 0,
  run: ({ config }) => serveForever(config, makeLogger(config)),
};
