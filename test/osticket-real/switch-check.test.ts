import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parseGuideItems } from '../../src/cli/osticket-check/guide-items.ts';
import { runCli } from '../helpers/cli.ts';
import { startHttpProxy } from '../helpers/http-proxy.ts';
import { installOriginalService, ORIGINAL_SERVICE_SKIP } from '../helpers/original-php-service.ts';
import { FORMER_RIGHTS, grantOsticketKey } from '../helpers/osticket-key-grant.ts';
import { addBridgeKey, addOsticketUser, BRIDGE_PLUGIN } from '../helpers/osticket-ticket-rows.ts';
import { MACHINE_TMPDIR, ROOT } from '../helpers/paths.ts';
import {
  REAL_OSTICKET_SKIP,
  type RealOsticket,
  startRealOsticket,
} from '../helpers/real-osticket.ts';
import { useTestServer } from '../helpers/test-server.ts';
import { OSTICKET_DIR } from '../osticket/osticket-database.ts';

const skip = REAL_OSTICKET_SKIP || ORIGINAL_SERVICE_SKIP;

/** Where the check's printed output on a fresh install is kept, for the closing note. */
const CHECK_OUTPUT =
  process.env.DESKGATE_TEST_CHECK_OUTPUT ??
  join(MACHINE_TMPDIR, 'deskgate-switch-check-output.txt');

interface CheckJson {
  created: {
    users: { side: string; id: string; email: string }[];
    tickets: { side: string; id: number; number: string; closed: boolean; closedAgain: boolean }[];
  };
  ticketWrites: string;
  results: {
    probe: string;
    verdict: 'same' | 'documented' | 'undocumented';
    original?: string;
    deskgate?: string;
    notes: string[];
    writes: boolean;
    anchors: string[];
    undocumented: string[];
  }[];
  guide: Record<string, string | null>;
  keys: { id: number; boundTo: string; seen: { address: string }[]; mismatched: string[] }[];
  usage: {
    original: { operation: string; calls: number }[];
    originalKeyId?: number;
    byKey: { keyId: number; operations: { operation: string }[] }[];
    grants: { keyId: number; command: string }[];
  };
  undocumented: number;
}

/**
 * A proxy in front of deskgate that changes one field of topic 1 in every answer: a difference
 * the guide cannot list, to show the check fails on it.
 */
function startAlteringProxy(target: string): Promise<Server> {
  return startHttpProxy(target, (answer, res) => {
    const chunks: Buffer[] = [];
    answer.on('data', (c: Buffer) => chunks.push(c));
    answer.on('end', () => {
      const body = Buffer.concat(chunks)
        .toString('utf8')
        .replace(
          '"id":"1","parent":"0","ispublic":"1","sort":"',
          '"id":"1","parent":"0","ispublic":"1","sort":"9',
        );
      const headers = { ...answer.headers };
      delete headers['content-length'];
      res.writeHead(answer.statusCode ?? 502, headers);
      res.end(body);
    });
  });
}

describe('deskgate osticket check against the real PHP service and osTicket 1.18.1', {
  skip,
}, () => {
  let osticket: RealOsticket;
  let original: string;
  let ticket: { id: number; number: string } | undefined;

  /** deskgate's own osTicket key, for its ticket writes through osTicket's API and its plugin. */
  const deskgateKey = 'D'.repeat(32);

  before(async () => {
    osticket = await startRealOsticket({ plugins: [BRIDGE_PLUGIN] });
    original = await installOriginalService(osticket);
    await addBridgeKey(osticket, await osticket.staffBrowser(), deskgateKey);
    // The seed's private (12), disabled (13), archived (14) and non-ASCII (15) topics.
    const seed = readFileSync(join(OSTICKET_DIR, 'seed-1.18.1.sql'), 'utf8')
      .split('\n')
      .filter((line) => /^INSERT INTO `ost_help_topic` .* VALUES \(1[2-5],/.test(line));
    assert.equal(seed.length, 4);
    for (const line of seed) await osticket.query(line);
    // A fresh install has no ticket: one through osTicket's own API, for the ticket probes.
    await addOsticketUser(osticket, 'switch-check@example.net', 'Switch Check');
    [ticket] = await osticket.query<{ id: number; number: string }>(
      'SELECT ticket_id AS id, number FROM ost_ticket',
    );
  });
  const osticketMode = {
    DESKGATE_SCHEMA: 'osticket',
    DESKGATE_TABLE_PREFIX: 'ost_',
    DESKGATE_OSTICKET_SYSLOG: 'true',
  };
  const deskgate = useTestServer(() => ({
    database: osticket.databaseUrl,
    env: {
      ...osticketMode,
      DESKGATE_OSTICKET_URL: osticket.baseUrl,
      DESKGATE_OSTICKET_API_KEY: deskgateKey,
      DESKGATE_OSTICKET_BRIDGE: 'true',
      DESKGATE_OSTICKET_BRIDGE_STAFF_ID: '1',
    },
    ownKey: false,
  }));
  /** deskgate before its osTicket bridge is set up: its ticket writes answer 501. */
  const withoutBridge = useTestServer(() => ({
    database: osticket.databaseUrl,
    env: osticketMode,
    ownKey: false,
  }));
  after(() => osticket?.stop());

  const check = (args: string[], deskgateUrl = deskgate.url) =>
    runCli(
      [
        'osticket',
        'check',
        '--original',
        original,
        '--deskgate',
        deskgateUrl,
        '--database',
        osticket.databaseUrl,
        ...args,
      ],
      { DESKGATE_CHECK_KEY: osticket.apiKey.key },
    );

  test('every difference is classified: by the guide item it names (with its text), or as undocumented with exit 1', async (t) => {
    const text = await check([]);
    t.diagnostic(text.stdout);
    const run = await check(['--json']);
    const report = JSON.parse(run.stdout) as CheckJson;
    const guide = parseGuideItems(
      readFileSync(join(ROOT, 'docs', 'replacing-the-osticket-web-service.md'), 'utf8'),
    );
    const by = (probe: string) => {
      const result = report.results.find((r) => r.probe === probe);
      assert.ok(result, `no result for ${probe}`);
      return result;
    };
    for (const result of report.results) {
      if (result.verdict === 'same')
        assert.deepEqual([result.anchors, result.undocumented], [[], []]);
      for (const anchor of result.anchors)
        assert.equal(report.guide[anchor], guide.get(anchor)?.text ?? null, anchor);
      const documented =
        result.undocumented.length === 0 && result.anchors.every((a) => guide.has(a));
      if (result.verdict !== 'same')
        assert.equal(result.verdict, documented ? 'documented' : 'undocumented', result.probe);
    }
    assert.equal(
      report.undocumented,
      report.results.filter((r) => r.verdict === 'undocumented').length,
    );
    assert.equal(run.code, report.undocumented > 0 ? 1 : 0, run.stderr);
    // What each side really answers, named by the guide's anchors.
    assert.deepEqual(by('topics/specific id 1').verdict, 'same');
    assert.deepEqual(by('topics/specific id 12').anchors, ['change-private-topics']);
    assert.deepEqual(by('topics/specific id 13').anchors, ['change-204', 'change-inactive-topics']);
    assert.deepEqual(by('topics/specific id 14').anchors, ['change-204', 'change-inactive-topics']);
    assert.deepEqual(by('topics/specific name "%"').anchors, [
      'change-204',
      'change-name-wildcards',
    ]);
    assert.ok(by('topics/all').anchors.includes('change-child-topics'));
    assert.deepEqual(by('no apikey header').anchors, ['change-errors']);
    assert.deepEqual(by('topics/specific sent with POST').anchors, ['change-errors']);
    assert.deepEqual(by('unknown query').anchors, ['change-errors']);
    assert.deepEqual(by('user/add valid').verdict, 'same');
    assert.deepEqual(by('user/add duplicate email').anchors, ['change-errors']);
    assert.deepEqual(by('user/all an empty range (1971)').anchors, ['change-empty-lists']);
    // The original double-encodes non-ASCII names (utf8_encode on UTF-8 text).
    assert.deepEqual(by('topics/specific id 15').anchors, ['change-non-ascii-names']);
    assert.ok(by('topics/all').anchors.includes('change-non-ascii-names'));
    // Phones: the original stored them unquoted; deskgate keeps the typed digits.
    assert.deepEqual(by('user/add phone "0612345678"').anchors, ['change-phones']);
    assert.deepEqual(by('user/add phone "555-123-4567"').anchors, ['change-phones']);
    // Tickets, the catalogue and tasks: read only, each difference under its guide item.
    assert.ok(ticket);
    for (const probe of [
      'ticket/all status 0 (every ticket)',
      'ticket/all every day (creationDate)',
      `ticket/specific id ${ticket.id}`,
      `ticket/specific number ${ticket.number}`,
    ])
      assert.deepEqual(by(probe).anchors, ['change-ticket-rows'], probe);
    // What a client of the original sends for a number a customer quotes.
    assert.deepEqual(by(`ticket/specific id ${ticket.number} (a number)`).anchors, [
      'change-ticket-number-in-id',
    ]);
    for (const probe of ['department/all by name', 'department/all every day (creationDate)'])
      assert.deepEqual(by(probe).anchors, ['change-catalogue-fields'], probe);
    assert.deepEqual(by('sla/all every day (creationDate)').anchors, ['change-catalogue-fields']);
    assert.deepEqual(by('faq/all').anchors, ['change-empty-lists']);
    // Issue 32: what the key used of the original (its ost_syslog rows) and the one grant for it.
    const { usage } = report;
    assert.equal(usage.originalKeyId, osticket.apiKey.id, 'the only active key');
    for (const operation of ['topics/specific', 'user/add', 'user/all', 'ticket/all'])
      assert.ok(
        usage.original.some((use) => use.operation === operation && use.calls > 0),
        operation,
      );
    assert.match(
      usage.grants.find((grant) => grant.keyId === osticket.apiKey.id)?.command ?? '',
      new RegExp(
        `^deskgate osticket keys grant ${osticket.apiKey.id} --scope write,users:read,tickets:read`,
      ),
    );
    assert.match(text.stdout, /What the keys used, and what to grant/);
    // Tasks need the notes grant, which an osTicket key has only from `osticket keys grant`.
    assert.deepEqual(by(`tasks/all byTicket ${ticket.id}`).anchors, ['change-tasks-notes']);
    assert.deepEqual(by('tasks/all every day (creationDate)').anchors, ['change-tasks-notes']);
    assert.ok(
      report.results.filter((r) => /^(ticket|department|faq|sla|tasks)\//.test(r.probe)).length >=
        14,
    );
    // Ticket writes: a throwaway ticket on each side, opened, answered and closed again.
    assert.equal(report.ticketWrites, 'compared');
    assert.deepEqual(by('ticket/add (a throwaway ticket on each side)').anchors, [
      'change-ticket-writes',
    ]);
    assert.deepEqual(by('ticket/reply as agent 1').anchors, ['change-ticket-writes']);
    // What the original's clients send (it refused 0): a team the ticket does not have.
    const closeAsOriginal = report.results.find((r) =>
      r.probe.startsWith("ticket/close with the original's fields"),
    );
    assert.deepEqual(closeAsOriginal?.anchors, ['change-close-fields']);
    assert.deepEqual(
      by('ticket/close as the guide says (team_id, dept_id, topic_id and username left out)')
        .anchors,
      ['change-close-fields'],
    );
    assert.deepEqual(
      report.created.tickets.map((t) => [t.side, t.closed, t.closedAgain]),
      [
        ['original', true, false],
        ['deskgate', true, false],
      ],
    );
    const open = await osticket.query<{ ticket_id: number }>(
      `SELECT t.ticket_id FROM ost_ticket t JOIN ost_ticket_status s ON s.id = t.status_id
       WHERE s.state <> 'closed'`,
    );
    assert.deepEqual(
      open.map((row) => row.ticket_id),
      ticket ? [ticket.id] : [],
      'every throwaway ticket closed again',
    );
    // The printed report names each (that run's own tickets).
    for (const side of ['the original', 'deskgate'])
      assert.match(
        text.stdout,
        new RegExp(`\\n {2}ticket \\d+ \\(number \\w+, through ${side}\\): closed\\n`),
      );
    assert.match(text.stdout, /What this check created:\n {2}user \d+ <valid-/);
    // On a fresh install every difference is one the guide lists.
    assert.deepEqual(
      report.results
        .filter((r) => r.verdict === 'undocumented')
        .map((r) => [r.probe, r.undocumented]),
      [],
    );
    assert.equal(report.undocumented, 0);
    assert.equal(run.code, 0, run.stderr);
    writeFileSync(CHECK_OUTPUT, text.stdout);
  });

  test("before the bridge is set up: ticket/add is a listed difference, and the original side's ticket is closed again", async () => {
    const run = await check(['--json'], withoutBridge.url);
    const report = JSON.parse(run.stdout) as CheckJson;
    const added = report.results.find(
      (r) => r.probe === 'ticket/add (a throwaway ticket on each side)',
    );
    assert.deepEqual(added?.anchors, ['change-ticket-writes']);
    assert.match(added.notes.join(), /not compared: no throwaway ticket on the deskgate side/);
    assert.ok(!report.results.some((r) => /^ticket\/(reply|close)/.test(r.probe)));
    assert.deepEqual(
      report.created.tickets.map((t) => [t.side, t.closed, t.closedAgain]),
      [['original', true, true]],
    );
    const [state] = await osticket.query<{ state: string }>(
      `SELECT s.state FROM ost_ticket t JOIN ost_ticket_status s ON s.id = t.status_id
       WHERE t.ticket_id = ?`,
      [report.created.tickets[0]?.id],
    );
    assert.equal(state?.state, 'closed');
    assert.equal(run.code, 0, run.stderr);
  });

  test('two checks started in the same second each create their own throwaway users', async () => {
    const runs = await Promise.all([check(['--json']), check(['--json'])]);
    const reports = runs.map((run) => JSON.parse(run.stdout) as CheckJson);
    const emails = reports.flatMap((report) => report.created.users.map((user) => user.email));
    assert.equal(new Set(emails).size, emails.length, `an address used twice: ${emails}`);
    for (const report of reports) {
      const valid = report.results.find((r) => r.probe === 'user/add valid');
      assert.match(String(valid?.deskgate), /^200 Success "\d+"$/, JSON.stringify(valid));
      // The original reads its new user's id back with MAX(id), so two of its user/adds at
      // the same moment can collide on that id; any other difference is the check's own.
      if (valid?.verdict !== 'same')
        assert.match(String(valid?.original), /Duplicate entry '\d+' for key 'PRIMARY'/);
    }
  });

  test('a difference the guide cannot list (a changed field) is printed as undocumented and exits 1', async () => {
    const proxy = await startAlteringProxy(deskgate.origin);
    try {
      const { port } = proxy.address() as AddressInfo;
      const run = await check(
        ['--read-only', '--json'],
        `http://127.0.0.1:${port}${new URL(deskgate.url).pathname}`,
      );
      assert.equal(run.code, 1);
      assert.match(run.stderr, /answered differently in a way .* does not list/);
      const report = JSON.parse(run.stdout) as CheckJson;
      const topic1 = report.results.find((r) => r.probe === 'topics/specific id 1');
      assert.equal(topic1?.verdict, 'undocumented');
      assert.match(topic1.undocumented.join(), /topic 1 sort: "1" vs "91"/);
      assert.ok(
        report.results.every((r) => !r.writes),
        '--read-only wrote',
      );
    } finally {
      await new Promise((resolve) => proxy.close(resolve));
    }
  });

  test('without --original and --deskgate: the keys and grants report alone', async () => {
    const run = await runCli(['osticket', 'check', '--database', osticket.databaseUrl], {
      DESKGATE_TABLE_PREFIX: 'ost_',
    });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /API keys and where their calls come from/);
    assert.match(run.stdout, /What the keys used, and what to grant/);
    assert.match(run.stdout, new RegExp(`key ${osticket.apiKey.id}: deskgate osticket keys grant`));
    assert.doesNotMatch(run.stdout, /Comparing the original/);
  });

  test('keys whose bound address differs from where their calls come from are reported', async () => {
    const cronKey = await osticket.insert(
      `INSERT INTO ost_api_key (isactive, ipaddr, apikey, can_create_tickets, can_exec_cron, notes, updated, created)
       VALUES (1, '10.0.0.9', 'C0FFEEC0FFEEC0FFEEC0FFEEC0FFEE00', 0, 1, 'cron', NOW(), NOW())`,
    );
    const text = await check(['--read-only', `--calls-from=${cronKey}=192.0.2.7`]);
    assert.match(
      text.stdout,
      new RegExp(`key ${cronKey} bound to 10\\.0\\.0\\.9: no calls recorded`),
    );
    assert.match(
      text.stdout,
      /MISMATCH: calls from 192\.0\.2\.7 would be refused by deskgate \(403 ip_not_allowed\) \[change-key-address\]/,
    );
    assert.match(text.stdout, /through deskgate without a grant: read only \[change-users-read\]/);
    const report = JSON.parse((await check(['--read-only', '--json'])).stdout) as CheckJson;
    const main = report.keys.find((k) => k.id === osticket.apiKey.id);
    // Seen in osTicket's System Logs, where deskgate recorded its calls: from the bound address.
    assert.deepEqual(
      main?.seen.map((s) => s.address),
      ['127.0.0.1'],
    );
    assert.deepEqual(main?.mismatched, []);
    const cron = report.keys.find((k) => k.id === cronKey);
    assert.deepEqual(cron?.mismatched, []);
  });

  test('a sub-department and a task (key granted notes): each under its guide item', async () => {
    await osticket.query(
      `INSERT INTO ost_department (pid, flags, ispublic, name, signature, path, created, updated)
       VALUES (1, 4, 1, 'Support Level 2', '', '/1/', NOW(), NOW())`,
    );
    assert.ok(ticket);
    const taskId = Number(
      await osticket.runPhp(`
        $thisstaff = Staff::lookup(1);
        $task = Task::create([
          'object_id' => ${ticket.id},
          'object_type' => 'T',
          'default_formdata' => ['title' => 'Replace the toner'],
          'internal_formdata' => ['dept_id' => 1],
          'description' => 'The printer on floor 2',
          'staffId' => 1,
          'poster' => $thisstaff,
        ]);
        echo $task->getId();`),
    );
    assert.ok(taskId > 0);
    const checked = async () => {
      const run = await check(['--read-only', '--json']);
      const report = JSON.parse(run.stdout) as CheckJson;
      assert.deepEqual(
        report.results
          .filter((r) => r.verdict === 'undocumented')
          .map((r) => [r.probe, r.undocumented]),
        [],
      );
      assert.equal(run.code, 0, run.stderr);
      return (probe: string) => report.results.find((r) => r.probe === probe)?.anchors;
    };
    // Tasks are answered to a key with the notes grant: deskgate's task id and fields.
    await grantOsticketKey({ url: osticket.databaseUrl }, osticket.apiKey.id, [
      ...FORMER_RIGHTS,
      '--notes',
    ]);
    const by = await checked();
    assert.deepEqual(by('department/all by name'), [
      'change-department-children',
      'change-catalogue-fields',
    ]);
    assert.deepEqual(by(`tasks/all byTicket ${ticket.id}`), ['change-task-fields']);
    assert.deepEqual(by(`tasks/specific id ${taskId}`), ['change-task-fields']);
  });
});

describe('deskgate osticket check: usage', () => {
  test('without the two URLs or a key it says what is missing (exit 2)', async () => {
    const noUrl = await runCli(['osticket', 'check', '--deskgate', 'http://127.0.0.1:1/']);
    assert.equal(noUrl.code, 2);
    assert.match(noUrl.stderr, /--original needs the service's URL/);
    const noKey = await runCli([
      'osticket',
      'check',
      '--original',
      'http://127.0.0.1:1/',
      '--deskgate',
      'http://127.0.0.1:1/',
    ]);
    assert.equal(noKey.code, 2);
    assert.match(noKey.stderr, /give an API key/);
    const neither = await runCli(['osticket', 'check']);
    assert.equal(neither.code, 2);
    assert.match(neither.stderr, /reports only the keys and their grants.*give --database mysql:/);
    const agent = await runCli([
      'osticket',
      'check',
      '--original',
      'http://127.0.0.1:1/',
      '--deskgate',
      'http://127.0.0.1:1/',
      '--key',
      'K',
      '--agent',
      'one',
    ]);
    assert.equal(agent.code, 2);
    assert.match(agent.stderr, /--agent must be an agent's id/);
  });
});
