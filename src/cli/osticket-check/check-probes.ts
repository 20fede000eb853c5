/** One request of the side-by-side check, sent to the original and to deskgate. */
export interface Probe {
  name: string;
  kind:
    | 'topic'
    | 'topic-name'
    | 'topics-all'
    | 'user-add'
    | 'user-lookup'
    | 'user-list'
    | 'refusal'
    | 'ticket'
    | 'ticket-write'
    | 'catalogue';
  method: string;
  /** The body for both sides, unless `bodies` gives each its own (a write needs two addresses). */
  body: unknown;
  bodies?: { original: unknown; deskgate: unknown };
  /** 'none' sends no apikey header; a string is sent to both sides instead of their keys. */
  key?: string;
  writes?: boolean;
  /** The text a name search looks for. */
  search?: string;
  /** The phone a user/add sends, when the probe is about phones. */
  phone?: string | number;
  /** The day a bare `end_date` names. */
  endDay?: string;
  /** A ticket/specific whose `id` is a ticket's number, as the original matched it. */
  numberInId?: boolean;
  /** Which step of the throwaway ticket's life a `ticket-write` probe is. */
  ticketWrite?: 'add' | 'reply' | 'close-original' | 'close-guide';
}

/** Where the throwaway users' addresses are: `.invalid` never delivers mail (RFC 2606). */
export const CHECK_MAIL_DOMAIN = 'deskgate-check.invalid';

const topicById = (id: number) => ({
  query: 'topics',
  condition: 'specific',
  sort: 'id',
  parameters: { id },
});

export function topicProbes(ids: readonly number[], names: readonly string[]): Probe[] {
  const probes: Probe[] = ids.map((id) => ({
    name: `topics/specific id ${id}`,
    kind: 'topic',
    method: 'GET',
    body: topicById(id),
  }));
  for (const search of [...names, '%']) {
    probes.push({
      name: `topics/specific name ${JSON.stringify(search)}`,
      kind: 'topic-name',
      method: 'GET',
      body: { query: 'topics', condition: 'specific', sort: 'name', parameters: { name: search } },
      search,
    });
  }
  probes.push(
    {
      name: 'topics/specific without sort',
      kind: 'topic',
      method: 'GET',
      body: { query: 'topics', condition: 'specific', parameters: { id: ids[0] ?? 1 } },
    },
    {
      name: 'topics/all',
      kind: 'topics-all',
      method: 'GET',
      body: { query: 'topics', condition: 'all' },
    },
  );
  return probes;
}

/** The request refusals both answer: keys, methods, operations. */
export function refusalProbes(): Probe[] {
  const body = topicById(1);
  return [
    { name: 'no apikey header', kind: 'refusal', method: 'GET', body, key: 'none' },
    {
      name: 'unknown key (32 hex digits)',
      kind: 'refusal',
      method: 'GET',
      body,
      key: '0123456789ABCDEF0123456789ABCDEF',
    },
    { name: 'malformed key', kind: 'refusal', method: 'GET', body, key: 'not-a-key' },
    { name: 'topics/specific sent with POST', kind: 'refusal', method: 'POST', body },
    {
      name: 'user/add sent with GET',
      kind: 'refusal',
      method: 'GET',
      body: { query: 'user', condition: 'add', parameters: { name: 'x' } },
    },
    {
      name: 'unknown query',
      kind: 'refusal',
      method: 'GET',
      body: { query: 'nosuchthing', condition: 'all' },
    },
    {
      name: 'unknown condition',
      kind: 'refusal',
      method: 'GET',
      body: { query: 'topics', condition: 'nosuchthing' },
    },
  ];
}

/**
 * A user/add body. The original refuses 0 in `org_id` and `status` ("Empty or Incorrect
 * fields"): organisation 1 and status 1 are what its README's example sends. deskgate gets 0 in
 * both, as the guide tells a client to send (change-user-organizations): 1 would need the key's
 * `--organizations` grant and hide every other difference behind 403 account_grant_required.
 */
function newUser(
  email: string,
  phone: string | number,
  side: 'original' | 'deskgate' = 'original',
) {
  const placed = side === 'original' ? 1 : 0;
  return {
    query: 'user',
    condition: 'add',
    parameters: {
      name: 'Switch Check',
      email,
      // MD5 of "password", as the original's clients send: both sides store it as given.
      password: '5f4dcc3b5aa765d61d8327deb882cf99',
      timezone: 'UTC',
      phone,
      org_id: placed,
      default_email_id: 1,
      status: placed,
    },
  };
}

/** user/add of every kind; each write makes one throwaway user on each side. */
export function userAddProbes(tag: string): { probes: Probe[]; emails: string[] } {
  const address = (what: string, side: string) => `${what}-${tag}-${side}@${CHECK_MAIL_DOMAIN}`;
  const emails: string[] = [];
  const add = (what: string, phone: string | number, name: string): Probe => {
    const original = address(what, 'php');
    const deskgate = address(what, 'deskgate');
    emails.push(original, deskgate);
    return {
      name,
      kind: 'user-add',
      method: 'POST',
      body: newUser(original, phone),
      bodies: {
        original: newUser(original, phone),
        deskgate: newUser(deskgate, phone, 'deskgate'),
      },
      writes: true,
      phone,
    };
  };
  const valid = add('valid', 5551234, 'user/add valid');
  const probes: Probe[] = [
    valid,
    {
      name: 'user/add duplicate email',
      kind: 'user-add',
      method: 'POST',
      body: newUser(address('valid', 'php'), 5551234),
    },
    {
      name: 'user/add missing fields',
      kind: 'user-add',
      method: 'POST',
      body: { query: 'user', condition: 'add', parameters: { email: address('bad', 'x') } },
    },
    {
      name: 'user/add unknown field',
      kind: 'user-add',
      method: 'POST',
      body: {
        ...newUser(address('bad', 'y'), 5551234),
        parameters: { ...newUser(address('bad', 'y'), 5551234).parameters, nickname: 'x' },
      },
    },
    // Not a phone with spaces or parentheses: the original's unquoted SQL fails on it half-way,
    // leaving a user without an address in the admin's database.
    add('zero', '0612345678', 'user/add phone "0612345678"'),
    add('dashes', '555-123-4567', 'user/add phone "555-123-4567"'),
  ];
  return { probes, emails };
}

/** user/specific by id and by email, and an id nobody has. */
export function userLookupProbes(emails: readonly string[], ids: readonly string[]): Probe[] {
  const lookUp = (sort: 'id' | 'email', value: string | number, name: string): Probe => ({
    name,
    kind: 'user-lookup',
    method: 'GET',
    body: { query: 'user', condition: 'specific', sort, parameters: { [sort]: value } },
  });
  return [
    ...ids.map((id) => lookUp('id', id, `user/specific id ${id}`)),
    ...emails.map((email) => lookUp('email', email, `user/specific email ${email}`)),
    lookUp('id', 2147483647, 'user/specific id 2147483647 (none)'),
  ];
}

/** user/all over every user (the first), over `today` with a bare end date, over no user. */
export function userListProbes(today: string): Probe[] {
  const range = (start: string, end: string, name: string, endDay?: string): Probe => ({
    name,
    kind: 'user-list',
    method: 'GET',
    body: {
      query: 'user',
      condition: 'all',
      sort: 'creationDate',
      parameters: { start_date: start, end_date: end },
    },
    endDay,
  });
  return [
    range('1970-01-01', '2100-01-01', 'user/all every user (1970-01-01 to 2100-01-01)'),
    range(today, today, `user/all ${today} to ${today} (bare end date)`, today),
    range('1971-01-01', '1971-01-02', 'user/all an empty range (1971)'),
  ];
}

/** What the read-only probes of tickets and the catalogue look up: ids the help desk has. */
export interface ReadTargets {
  ticket?: { id: string; number: string };
  departmentId?: string;
  faqCategoryId?: string;
  slaId?: string;
  taskId?: string;
}

const EVERY_DAY = { start_date: '1970-01-01', end_date: '2100-01-01' };

const read = (name: string, kind: Probe['kind'], body: unknown): Probe => ({
  name,
  kind,
  method: 'GET',
  body,
});

/** The lists of tickets, departments, FAQs, SLA plans and tasks: read-only, nothing looked up. */
export function listProbes(): Probe[] {
  return [
    read('ticket/all status 0 (every ticket)', 'ticket', {
      query: 'ticket',
      condition: 'all',
      sort: 'status',
      parameters: { status: 0 },
    }),
    read('ticket/all every day (creationDate)', 'ticket', {
      query: 'ticket',
      condition: 'all',
      sort: 'creationDate',
      parameters: EVERY_DAY,
    }),
    read('department/all by name', 'catalogue', {
      query: 'department',
      condition: 'all',
      sort: 'name',
      parameters: {},
    }),
    read('department/all every day (creationDate)', 'catalogue', {
      query: 'department',
      condition: 'all',
      sort: 'creationDate',
      parameters: EVERY_DAY,
    }),
    read('faq/all', 'catalogue', { query: 'faq', condition: 'all', parameters: {} }),
    read('sla/all every day (creationDate)', 'catalogue', {
      query: 'sla',
      condition: 'all',
      sort: 'creationDate',
      parameters: EVERY_DAY,
    }),
    read('tasks/all every day (creationDate)', 'catalogue', {
      query: 'tasks',
      condition: 'all',
      sort: 'creationDate',
      parameters: EVERY_DAY,
    }),
  ];
}

/** One of each look-up, of what the lists found (id 1 where they found none). */
export function lookupProbes(targets: ReadTargets): Probe[] {
  const ticket = targets.ticket ?? { id: '1', number: '000001' };
  const specific = (query: string, id: string) =>
    read(`${query}/specific id ${id}`, query === 'ticket' ? 'ticket' : 'catalogue', {
      query,
      condition: 'specific',
      parameters: { id },
    });
  const byNumber = (parameters: Record<string, string>) => ({
    query: 'ticket',
    condition: 'specific',
    parameters,
  });
  return [
    specific('ticket', ticket.id),
    // What a client of the original sends for a number a customer quotes (change-ticket-number-in-id).
    {
      ...read(
        `ticket/specific id ${ticket.number} (a number)`,
        'ticket',
        byNumber({ id: ticket.number }),
      ),
      numberInId: true,
    },
    {
      // The original read `id` as an id or a number; deskgate takes the number as `number`.
      ...read(`ticket/specific number ${ticket.number}`, 'ticket', byNumber({ id: ticket.number })),
      bodies: {
        original: byNumber({ id: ticket.number }),
        deskgate: byNumber({ number: ticket.number }),
      },
    },
    read(`tasks/all byTicket ${ticket.id}`, 'catalogue', {
      query: 'tasks',
      condition: 'all',
      sort: 'byTicket',
      parameters: { ticket_id: ticket.id },
    }),
    specific('department', targets.departmentId ?? '1'),
    specific('faq', targets.faqCategoryId ?? '1'),
    specific('sla', targets.slaId ?? '1'),
    specific('tasks', targets.taskId ?? '1'),
  ];
}

/** The values of the ticket writes, read from the help desk (ticket-write-facts.ts). */
export interface TicketWriteValues {
  staffId: number;
  username: string;
  openStatusId: number;
  closedStatusId: number;
  deptId: number;
  topicId: number;
  slaId: number;
  priorityId: number;
  teamId: number;
}

type Sides<T> = { original: T; deskgate: T };

const ticketWrite = (
  name: string,
  step: NonNullable<Probe['ticketWrite']>,
  bodies: Sides<unknown>,
): Probe => ({
  name,
  kind: 'ticket-write',
  method: 'POST',
  body: bodies.original,
  bodies,
  writes: true,
  ticketWrite: step,
});

const both = <T>(make: (side: keyof Sides<T>) => T): Sides<T> => ({
  original: make('original'),
  deskgate: make('deskgate'),
});

/**
 * ticket/add for each side's throwaway user, as the original's clients send it: every field,
 * none 0 (the original refused 0). The tag is in the subject line and the message.
 */
export function ticketAddProbe(
  values: TicketWriteValues,
  tag: string,
  userIds: Sides<number>,
): Probe {
  return ticketWrite(
    'ticket/add (a throwaway ticket on each side)',
    'add',
    both((side) => ({
      query: 'ticket',
      condition: 'add',
      parameters: {
        title: `deskgate osticket check ${tag}`,
        subject: `A throwaway ticket of deskgate osticket check ${tag}: the check closes it again.`,
        user_id: userIds[side],
        priority_id: values.priorityId,
        status_id: values.openStatusId,
        dept_id: values.deptId,
        sla_id: values.slaId,
        topic_id: values.topicId,
      },
    })),
  );
}

/** reply, then close as the original's clients send it, then close as the guide says. */
export function ticketChangeProbes(values: TicketWriteValues, ticketIds: Sides<number>): Probe[] {
  const body = (condition: string, parameters: (side: 'original' | 'deskgate') => unknown) =>
    both((side) => ({ query: 'ticket', condition, parameters: parameters(side) }));
  return [
    ticketWrite(
      `ticket/reply as agent ${values.staffId}`,
      'reply',
      body('reply', (side) => ({
        ticket_id: ticketIds[side],
        body: 'deskgate osticket check: a reply to the throwaway ticket.',
        staff_id: values.staffId,
      })),
    ),
    ticketWrite(
      `ticket/close with the original's fields (team_id ${values.teamId}, dept_id, topic_id, username)`,
      'close-original',
      body('close', (side) => ({
        ticket_id: ticketIds[side],
        body: 'deskgate osticket check: closed again.',
        staff_id: values.staffId,
        status_id: values.closedStatusId,
        team_id: values.teamId,
        dept_id: values.deptId,
        topic_id: values.topicId,
        username: values.username,
      })),
    ),
    ticketWrite(
      'ticket/close as the guide says (team_id, dept_id, topic_id and username left out)',
      'close-guide',
      body('close', (side) => ({
        ticket_id: ticketIds[side],
        body: 'deskgate osticket check: closed again.',
        staff_id: values.staffId,
        status_id: values.closedStatusId,
      })),
    ),
  ];
}
