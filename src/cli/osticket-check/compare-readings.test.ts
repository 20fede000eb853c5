import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  listProbes,
  lookupProbes,
  type Probe,
  ticketAddProbe,
  ticketChangeProbes,
  userAddProbes,
} from './check-probes.ts';
import { compareReadings } from './compare-readings.ts';
import type { Reading } from './read-answer.ts';

const success = (data: unknown): Reading => ({ outcome: 'success', status: 200, data });
const probe = (name: string) => {
  const found = lookupProbes({ ticket: { id: '1', number: '376005' } }).find((p) =>
    p.name.startsWith(name),
  );
  assert.ok(found, name);
  return found;
};
const ticketRow = { ticket_id: '1', number: '376005', status_id: '1', subject: 'First' };
const deskgateTicket = (entries: string[], changes: Record<string, string> = {}) =>
  success({
    total: 1,
    tickets: [
      {
        ...ticketRow,
        ...changes,
        entries: entries.map((body, i) => ({ entry_id: String(i + 1), entry_body: body })),
      },
    ],
  });

test("a task's entry mixed into the original's ticket (total 2) is change-ticket-rows", () => {
  const original = success({
    total: 2,
    tickets: [
      { ...ticketRow, body: 'Hello' },
      { ...ticketRow, body: 'Replace toner' },
    ],
  });
  const found = compareReadings(probe('ticket/specific id'), original, deskgateTicket(['Hello']));
  assert.deepEqual([found.anchors, found.undocumented], [['change-ticket-rows'], []]);
});

test('a ticket column or an entry the original does not have is undocumented', () => {
  const original = success({ total: 1, tickets: [{ ...ticketRow, body: 'Hello' }] });
  const status = compareReadings(
    probe('ticket/specific id'),
    original,
    deskgateTicket(['Hello'], { status_id: '3' }),
  );
  assert.deepEqual(status.undocumented, ['ticket 1 status_id: "1" vs "3"']);
  const entry = compareReadings(probe('ticket/specific id'), original, deskgateTicket(['Other']));
  assert.deepEqual(entry.undocumented, ['ticket 1 entry 1: not a row']);
});

test('only the listed extra catalogue fields are change-catalogue-fields', () => {
  const department = { department_id: '1', name: 'Support', created: '2026-11-25 11:40:08' };
  const original = success({ total: 1, departments: [department] });
  const listed = compareReadings(
    probe('department/specific'),
    original,
    success({ total: 1, departments: [{ ...department, parent_id: '0' }] }),
  );
  assert.deepEqual([listed.anchors, listed.undocumented], [['change-catalogue-fields'], []]);
  const other = compareReadings(
    probe('department/specific'),
    original,
    success({ total: 1, departments: [{ ...department, ispublic: '1' }] }),
  );
  assert.deepEqual(other.undocumented, ['departments 1 ispublic: undefined vs "1"']);
});

test("the original's SQL error is change-tasks-by-date only for tasks/all by creationDate", () => {
  const sqlError: Reading = {
    outcome: 'error',
    status: 200,
    data: undefined,
    message: "You have an error in your SQL syntax; check the manual … near 'AND ost_task'",
  };
  const empty = success({ total: 0, tasks: [] });
  const byDate = {
    name: 'tasks/all every day (creationDate)',
    kind: 'catalogue' as const,
    method: 'GET',
    body: { query: 'tasks', condition: 'all', sort: 'creationDate', parameters: {} },
  };
  assert.deepEqual(compareReadings(byDate, sqlError, empty).anchors, ['change-tasks-by-date']);
  const byTicket = compareReadings(probe('tasks/all byTicket'), sqlError, empty);
  assert.deepEqual(byTicket.anchors, []);
  assert.equal(byTicket.undocumented.length, 1);
});

test("a number sent as id: the original's ticket, deskgate's none or another is change-ticket-number-in-id", () => {
  const numberInId = probe('ticket/specific id 376005 (a number)');
  const original = success({ total: 1, tickets: [{ ...ticketRow, body: 'Hello' }] });
  const none: Reading = { outcome: 'not-found', status: 204, data: undefined };
  const other = deskgateTicket(['Hello'], { ticket_id: '376005', number: '999999' });
  for (const deskgate of [none, other]) {
    const found = compareReadings(numberInId, original, deskgate);
    assert.deepEqual([found.anchors, found.undocumented], [['change-ticket-number-in-id'], []]);
  }
});

test('user/add: the bodies differ only where the original refuses 0; a refusal for lack of the organizations grant is change-user-organizations', () => {
  const add = userAddProbes('t').probes[0];
  assert.ok(add?.bodies);
  type Body = { parameters: Record<string, unknown> };
  const { original, deskgate } = add.bodies as { original: Body; deskgate: Body };
  assert.deepEqual(
    [original?.parameters.org_id, original?.parameters.status],
    [1, 1],
    "the original's README values",
  );
  assert.deepEqual([deskgate?.parameters.org_id, deskgate?.parameters.status], [0, 0]);
  const refused: Reading = {
    outcome: 'error',
    status: 403,
    data: 'needs the grant',
    code: 'account_grant_required',
    message: 'needs the grant',
  };
  const found = compareReadings(add, success('41'), refused);
  assert.deepEqual([found.anchors, found.undocumented], [['change-user-organizations'], []]);
});

test('a task read refused for want of the notes grant is change-tasks-notes, whatever the original said', () => {
  const refused: Reading = {
    outcome: 'error',
    status: 403,
    data: undefined,
    message: 'tasks/specific answers agent-internal text: …',
    code: 'insufficient_scope',
  };
  const found = success({ total: 1, tasks: [{ task_id: '1' }] });
  for (const original of [found, { ...refused, status: 200, code: undefined }]) {
    const comparison = compareReadings(probe('tasks/specific'), original, refused);
    assert.deepEqual([comparison.anchors, comparison.undocumented], [['change-tasks-notes'], []]);
  }
});

const VALUES = {
  staffId: 1,
  username: 'admin',
  openStatusId: 1,
  closedStatusId: 3,
  deptId: 1,
  topicId: 1,
  slaId: 1,
  priorityId: 2,
  teamId: 1,
};
const [reply, closeAsOriginal, closeAsGuide] = ticketChangeProbes(VALUES, {
  original: 7,
  deskgate: 8,
}) as [Probe, Probe, Probe];
const add = ticketAddProbe(VALUES, 'tag', { original: 5, deskgate: 6 });
const refused = (code: string, fields: string[] = [], message = ''): Reading => ({
  outcome: 'error',
  status: 400,
  data: message,
  code,
  message,
  fields,
});
const originalError = (message: string): Reading => ({
  outcome: 'error',
  status: 200,
  data: message,
  message,
});

test('ticket writes: each step of the throwaway ticket named by its guide item', () => {
  const named = (p: Probe, original: Reading, deskgate: Reading) => {
    const found = compareReadings(p, original, deskgate);
    return [found.anchors, found.undocumented];
  };
  // The original answered the highest ticket id; deskgate the new ticket's, the entry's.
  assert.deepEqual(named(add, success('9'), success('8')), [['change-ticket-writes'], []]);
  assert.deepEqual(named(reply, success('9'), success('41')), [['change-ticket-writes'], []]);
  assert.deepEqual(named(add, success('9'), refused('requires_osticket_bridge')), [
    ['change-ticket-writes'],
    [],
  ]);
  assert.deepEqual(named(reply, success('9'), refused('agent_not_allowed')), [
    ['change-users-read'],
    [],
  ]);
  // A team the ticket does not have: one 400 naming the parameters.
  assert.deepEqual(
    named(closeAsOriginal, success('9'), refused('invalid_parameters', ['parameters'])),
    [['change-close-fields'], []],
  );
  // The ticket has that team: both close it.
  assert.deepEqual(named(closeAsOriginal, success('9'), success('8')), [[], []]);
  const missing = originalError(
    'Empty or Incorrect fields were given, read documentation for more info.',
  );
  assert.deepEqual(named(closeAsGuide, missing, success('8')), [['change-close-fields'], []]);
  // Anything else is not in the guide.
  assert.equal(
    named(closeAsGuide, missing, refused('not_closeable'))[1]?.length,
    1,
    'a refused close',
  );
  assert.equal(
    named(add, success('9'), refused('invalid_parameters', ['parameters.dept_id']))[1]?.length,
    1,
  );
});

test('catalogue: sub-departments, internal notes and task ids named by their guide items', () => {
  const list = listProbes();
  const departments = list.find((p) => p.name === 'department/all by name') as Probe;
  const top = { department_id: '1', name: 'Support', created: '2026-01-01 00:00:00' };
  const found = compareReadings(
    departments,
    success({ total: 1, departments: [top] }),
    success({
      total: 2,
      departments: [
        { ...top, parent_id: '0' },
        { department_id: '4', name: 'Level 2', created: top.created, parent_id: '1' },
      ],
    }),
  );
  assert.deepEqual(
    [found.anchors, found.undocumented],
    [['change-department-children', 'change-catalogue-fields'], []],
  );
  // A top-level department only deskgate answers is not a sub-department.
  const other = compareReadings(
    departments,
    success({ total: 1, departments: [top] }),
    success({
      total: 2,
      departments: [top, { department_id: '4', name: 'X', created: top.created, parent_id: '0' }],
    }),
  );
  assert.equal(other.undocumented.length, 2);

  const sla = list.find((p) => p.name.startsWith('sla/all')) as Probe;
  const plan = { sla_id: '1', name: 'Default SLA', notes: 'Escalate' };
  const notes = compareReadings(
    sla,
    success({ total: 1, sla: [plan] }),
    success({ total: 1, sla: [{ ...plan, notes: '' }] }),
  );
  assert.deepEqual(notes.anchors, ['change-catalogue-visibility']);

  const tasks = list.find((p) => p.name.startsWith('tasks/all')) as Probe;
  const task = { title: 'Toner', description: 'Floor 2', created: '2026-01-01 00:00:00' };
  const paired = compareReadings(
    tasks,
    success({ total: 1, tasks: [{ ...task, task_id: '9' }] }),
    success({ total: 1, tasks: [{ ...task, task_id: '3', number: '000003', ticket_id: '1' }] }),
  );
  assert.deepEqual([paired.anchors, paired.undocumented], [['change-task-fields'], []]);
  const changed = compareReadings(
    tasks,
    success({ total: 1, tasks: [{ ...task, task_id: '9' }] }),
    success({ total: 1, tasks: [{ ...task, task_id: '3', description: 'Floor 3' }] }),
  );
  assert.match(changed.undocumented.join(), /task 3 description: "Floor 2" vs "Floor 3"/);
});
