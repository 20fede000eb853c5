import type { Command } from '../command.ts';

export const serve: Command = {
  name: 'serve',
  usage: 'deskgate serve [--port N] [--host ADDRESS] [--database URL]',
  summary:
    'Run the HTTP service (what npm start runs) until SIGTERM or SIGINT; --port and --host ' +
    'override PORT and HOST.',
  options: { port: { type: 'string' }, host: { type: 'string' } },
  settings: { port: 'PORT', host: 'HOST' },
  positionals: 0,
  run: async ({ config }) => {
    // Loaded when used: the other commands, help and completion start without the server's
    // modules (Redis, metrics, the logger).
    const { serve: serveForever } = await import('../../server/serve.ts');
    const { makeLogger } = await import('../../logger.ts');
    await serveForever(config, makeLogger(config));
  },
};
