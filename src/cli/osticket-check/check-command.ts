import { CommandError, type CommandInput, printJson, UsageError } from '../command.ts';
import { CHECK_MAIL_DOMAIN } from './check-probes.ts';
import { GUIDE_PATH, readGuideItems } from './guide-items.ts';
import { type CallsFrom, type KeyAddresses, readKeyAddresses } from './key-addresses.ts';
import { grantFor, type KeyUsage, readKeyUsage } from './key-usage.ts';
import { type Created, type ProbeResult, readTopicFacts, runCheck } from './run-check.ts';
import { readTicketWriteFacts } from './ticket-write-facts.ts';

function parseCallsFrom(values: readonly string[]): CallsFrom[] {
  return values.map((value) => {
    const match = /^(?:([1-9][0-9]*)=)?([0-9A-Fa-f:.]+)$/.exec(value);
    if (!match?.[2])
      throw new UsageError(
        `--calls-from must be ADDRESS or KEY_ID=ADDRESS, got ${JSON.stringify(value)}`,
      );
    return { keyId: match[1] ? Number(match[1]) : undefined, address: match[2] };
  });
}

function requireUrl(value: unknown, option: string): string {
  if (typeof value !== 'string' || !/^https?:\/\/./.test(value))
    throw new UsageError(`${option} needs the service's URL (http:// or https://)`);
  return value;
}

const strings = (value: unknown): string[] =>
  (Array.isArray(value) ? value : value === undefined ? [] : [value]).map(String);

function verdict(
  result: ProbeResult,
  known: ReadonlySet<string>,
): 'same' | 'documented' | 'undocumented' {
  if (result.undocumented.length > 0 || result.anchors.some((a) => !known.has(a)))
    return 'undocumented';
  return result.anchors.length > 0 ? 'documented' : 'same';
}

function printKeys(out: (text: string) => void, keys: KeyAddresses[], sources: string[]): void {
  out(
    `\nAPI keys and where their calls come from (read from ${sources.join(', ') || 'no record'}):\n`,
  );
  for (const key of keys) {
    const state = key.active ? '' : ' (inactive)';
    const seen = key.seen.length
      ? key.seen.map((s) => `${s.address} ×${s.calls} (${s.source})`).join(', ')
      : 'no calls recorded';
    out(`  key ${key.id}${state} bound to ${key.boundTo || '(no address)'}: ${seen}\n`);
    if (key.active)
      out(
        `    through deskgate without a grant: ${key.canCreateTickets ? "read and ticket/add (osTicket's own choices)" : 'read'} only [change-users-read]\n`,
      );
    if (key.mismatched.length && key.active)
      out(
        `    MISMATCH: calls from ${key.mismatched.join(', ')} would be refused by deskgate (403 ip_not_allowed) [change-key-address]\n`,
      );
  }
}

const uses = (operations: KeyUsage['original']) =>
  operations.map((use) => `${use.operation} ×${use.calls} (last ${use.last})`).join(', ');

/** Which keys called what, and the grant each needs (SPEC §4a). */
function printUsage(out: (text: string) => void, usage: KeyUsage): void {
  out(
    '\nWhat the keys used, and what to grant (deskgate osticket keys grant, one command per key):\n',
  );
  if (usage.original.length === 0) {
    out("  the original's System Logs (ost_syslog) hold no API call (WRITE_SYSTEMLOG was off?)\n");
  } else {
    const who =
      usage.originalKeyId === undefined
        ? "it does not name the key; grant each client's key what its client used"
        : `the only active key besides deskgate's own, ${usage.originalKeyId}`;
    out(`  the original (ost_syslog; ${who}): ${uses(usage.original)}\n`);
    if (usage.originalKeyId === undefined) {
      const all = grantFor(
        'ID',
        usage.original.map((use) => use.operation),
        false,
      );
      if (all) out(`    a key that used all of them: ${all}\n`);
    }
  }
  for (const { keyId, operations } of usage.byKey)
    out(`  key ${keyId} through deskgate: ${uses(operations)}\n`);
  for (const { keyId, command } of usage.grants) out(`  key ${keyId}: ${command}\n`);
}

/** What the check wrote, so the admin can find it (and the tickets it could not close). */
function printCreated(out: (text: string) => void, created: Created, skipped: string | undefined) {
  out('\nWhat this check created:\n');
  for (const user of created.users)
    out(
      `  user ${user.id} <${user.email}> (through ${user.side === 'original' ? 'the original' : 'deskgate'})\n`,
    );
  for (const ticket of created.tickets)
    out(
      `  ticket ${ticket.id} (number ${ticket.number}, through ${ticket.side === 'original' ? 'the original' : 'deskgate'}): ${ticket.closed ? (ticket.closedAgain ? 'closed again by the check' : 'closed') : 'LEFT OPEN: close it in the staff panel'}\n`,
    );
  if (skipped) out(`  no ticket: ticket writes not compared (${skipped})\n`);
  if (created.users.length + created.tickets.length === 0 && !skipped) out('  nothing\n');
}

/** Why the ticket writes are not compared, or the values they send. */
async function ticketWritePlan(
  write: boolean,
  databaseUrl: string | undefined,
  prefix: string,
  agent: number | undefined,
) {
  if (!write) return { skipped: undefined, ticketWrites: undefined };
  if (!databaseUrl)
    return {
      skipped:
        'give --database mysql://… (read only): it picks the values and finds the tickets to close again',
      ticketWrites: undefined,
    };
  const facts = await readTicketWriteFacts(databaseUrl, prefix, agent);
  if (typeof facts === 'string') return { skipped: facts, ticketWrites: undefined };
  return { skipped: undefined, ticketWrites: { values: facts, databaseUrl, prefix } };
}

/** `deskgate osticket check`: compares the two services, then reports keys, grants and what it wrote. */
export async function runOsticketCheck(input: CommandInput): Promise<void> {
  const { values } = input;
  const callsFrom = parseCallsFrom(strings(values['calls-from']));
  const logFiles = strings(values.log);
  const prefix = input.config.tablePrefix;
  // osTicket's database is MySQL/MariaDB; the SQLite default is not it.
  const databaseUrl = /^mysql:/.test(input.config.databaseUrl)
    ? input.config.databaseUrl
    : undefined;
  if (values.original === undefined && values.deskgate === undefined) {
    if (!databaseUrl)
      throw new UsageError(
        "--original and --deskgate give the two services to compare; without them the check reports only the keys and their grants, from osTicket's database: give --database mysql://… (read only)",
      );
    const keyReport = await readKeyAddresses({ databaseUrl, prefix, logFiles, callsFrom });
    const usage = await readKeyUsage(databaseUrl, prefix);
    if (values.json) printJson(input, { keys: keyReport.keys, usage });
    else {
      printKeys(input.out, keyReport.keys, keyReport.sources);
      printUsage(input.out, usage);
    }
    return;
  }
  const originalUrl = requireUrl(values.original, '--original');
  const deskgateUrl = requireUrl(values.deskgate, '--deskgate');
  const shared = (values.key as string | undefined) ?? process.env.DESKGATE_CHECK_KEY;
  const originalKey = (values['original-key'] as string | undefined) ?? shared;
  const deskgateKey = (values['deskgate-key'] as string | undefined) ?? shared;
  if (!originalKey || !deskgateKey)
    throw new UsageError(
      'give an API key: --key (or DESKGATE_CHECK_KEY), or --original-key and --deskgate-key',
    );
  const agentText = values.agent as string | undefined;
  if (agentText !== undefined && !/^[1-9][0-9]{0,9}$/.test(agentText))
    throw new UsageError(
      `--agent must be an agent's id (staff_id), got ${JSON.stringify(agentText)}`,
    );
  const agent = agentText === undefined ? undefined : Number(agentText);
  const write = values['read-only'] !== true;
  if (!databaseUrl && (callsFrom.length || logFiles.length))
    throw new UsageError(
      "--calls-from and --log compare with the keys in osTicket's database: give --database mysql://… (read only)",
    );

  const guide = readGuideItems();
  const known = new Set(guide.keys());
  const topicFacts = databaseUrl ? await readTopicFacts(databaseUrl, prefix) : undefined;
  const plan = await ticketWritePlan(write, databaseUrl, prefix, agent);
  const { results, created } = await runCheck({
    original: { url: originalUrl, key: originalKey },
    deskgate: { url: deskgateUrl, key: deskgateKey },
    write,
    topicFacts,
    ticketWrites: plan.ticketWrites,
  });
  const keyReport = databaseUrl
    ? await readKeyAddresses({ databaseUrl, prefix, logFiles, callsFrom })
    : undefined;

  const usage = databaseUrl ? await readKeyUsage(databaseUrl, prefix) : undefined;

  const classified = results.map((r) => ({ ...r, verdict: verdict(r, known) }));
  const undocumented = classified.filter((r) => r.verdict === 'undocumented').length;
  const anchors = [...new Set(classified.flatMap((r) => r.anchors))];
  const leftOpen = created.tickets.filter((ticket) => !ticket.closed);
  if (values.json) {
    printJson(input, {
      original: originalUrl,
      deskgate: deskgateUrl,
      wrote: write,
      created,
      ticketWrites: write ? (plan.skipped ?? 'compared') : 'read-only',
      results: classified,
      guide: Object.fromEntries(anchors.map((a) => [a, guide.get(a)?.text ?? null])),
      keys: keyReport?.keys ?? null,
      usage: usage ?? null,
      undocumented,
    });
  } else {
    const out = input.out;
    out(`Comparing the original ${originalUrl} with deskgate ${deskgateUrl}\n`);
    out(
      write
        ? `This check WRITES: each user/add creates a throwaway user on each side (addresses …@${CHECK_MAIL_DOMAIN}) and, with --database, each side opens, answers and closes a throwaway ticket for its user; the list of what it created ends this report. Delete them in osTicket (Users; Tickets, Closed) afterwards. --read-only skips them.\n\n`
        : 'Read-only: user/add and the ticket writes were not compared.\n\n',
    );
    for (const r of classified) {
      const label = {
        same: 'same        ',
        documented: 'documented  ',
        undocumented: 'UNDOCUMENTED',
      }[r.verdict];
      out(`${label} ${r.probe}${r.anchors.length ? `  [${r.anchors.join(', ')}]` : ''}\n`);
      if (r.verdict === 'same') continue;
      out(`    original: ${r.original}\n    deskgate: ${r.deskgate}\n`);
      for (const note of r.notes) out(`    note: ${note}\n`);
      for (const difference of r.undocumented) out(`    not in the guide: ${difference}\n`);
      for (const anchor of r.anchors.filter((a) => !known.has(a)))
        out(`    not in the guide: ${GUIDE_PATH} has no item #${anchor}\n`);
    }
    if (anchors.some((a) => known.has(a))) {
      out(`\nThe documented differences, as ${GUIDE_PATH} explains them:\n`);
      for (const anchor of anchors) {
        const item = guide.get(anchor);
        if (item) out(`\n#${anchor}\n  ${item.text}\n`);
      }
    }
    if (keyReport) printKeys(out, keyReport.keys, keyReport.sources);
    if (usage) printUsage(out, usage);
    else
      out(
        "\nAPI key addresses: not checked (give --database mysql://… to read osTicket's keys, read only).\n",
      );
    if (write) printCreated(out, created, plan.skipped);
    const counts = (v: string) => classified.filter((r) => r.verdict === v).length;
    out(
      `\n${classified.length} requests: ${counts('same')} same, ${counts('documented')} with documented differences, ${undocumented} with undocumented differences.\n`,
    );
  }
  if (leftOpen.length > 0)
    throw new CommandError(
      `the check could not close its throwaway ticket(s) ${leftOpen.map((t) => t.id).join(', ')}: close them in the staff panel`,
    );
  if (undocumented > 0)
    throw new CommandError(
      `${undocumented} request(s) answered differently in a way ${GUIDE_PATH} does not list`,
    );
}
