import type { Command } from '../command.ts';

export const osticketCheck: Command = {
  name: 'osticket check',
  usage:
    'deskgate osticket check --original URL --deskgate URL [--key KEY | --original-key KEY --deskgate-key KEY] [--read-only] [--agent STAFF_ID] [--calls-from [KEY_ID=]ADDRESS]… [--log FILE]… [--database URL] [--json]\n       deskgate osticket check --database URL [--calls-from …] [--log FILE]… [--json]   (the keys and grants report alone)',
  summary:
    "Sends the PHP service and deskgate the same requests and prints each difference with the switch-over guide's explanation; exit 1 on one the guide does not list. Unless --read-only it writes: throwaway users (user/add) and, with --database, a throwaway ticket on each side, answered and closed again as agent --agent (default: the first active agent); it lists what it created. With --database: which keys called the original (its ost_syslog rows) and deskgate, what they used, and the one grant command per key; without --original and --deskgate, only that report. Keys: --key or DESKGATE_CHECK_KEY.",
  options: {
    original: { type: 'string' },
    deskgate: { type: 'string' },
    key: { type: 'string' },
    'original-key': { type: 'string' },
    'deskgate-key': { type: 'string' },
    'read-only': { type: 'boolean', default: false },
    agent: { type: 'string' },
    'calls-from': { type: 'string', multiple: true },
    log: { type: 'string', multiple: true },
    json: { type: 'boolean', default: false },
  },
  positionals: 0,
  // Loaded when it runs: its modules bring mysql2 and the operation registry, which help and
  // completion (they read every command's usage and options) would otherwise load too.
  async run(input) {
    const { runOsticketCheck } = await import('../osticket-check/check-command.ts');
    await runOsticketCheck(input);
  },
};
