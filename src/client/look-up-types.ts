/**
 * The client's own types of the look-up operations. The client must not load server code, and its
 * published types must not drag the server's in: these are written out here, and a type test
 * (test/client/client-types.test.ts) fails the build when they drift from the server's schemas.
 */

/** A help topic as the interface returns it: every value a string. */
export interface TopicRecord {
  id: string;
  /** "0" for a top-level topic. */
  parent: string;
  ispublic: '0' | '1';
  sort: string;
  topic: string;
  /** "" when none. */
  notes: string;
  /** `YYYY-MM-DD HH:MM:SS`. */
  created: string;
  updated: string;
}

/** A user as the look-ups return it: every value a string, never a password hash. */
export interface UserRecord {
  user_id: string;
  name: string;
  email: string;
  org_id: string;
  status: string;
  timezone: string;
  phone: string;
  /** `YYYY-MM-DD HH:MM:SS`. */
  created: string;
  updated: string;
}

/** One entry of a ticket's thread, under its own `entry_*` keys. */
export interface TicketEntryRecord {
  entry_id: string;
  entry_pid: string;
  /** M the user's message, R an agent's response, N an internal note (keys made with --notes). */
  entry_type: 'M' | 'R' | 'N';
  entry_user_id: string;
  entry_staff_id: string;
  entry_poster: string;
  entry_title: string | null;
  /** Plain text stored HTML-escaped (osTicket mode: as osTicket stored it). */
  entry_body: string;
  entry_format: string;
  entry_source: string;
  entry_ip_address: string;
  entry_created: string;
}

/** A ticket: the original's keys with the ticket's own values, its subject, priority and entries. */
export interface TicketRecord {
  ticket_id: string;
  ticket_pid: string | null;
  number: string;
  user_id: string;
  user_email_id: string;
  status_id: string;
  dept_id: string;
  sla_id: string;
  topic_id: string;
  staff_id: string;
  team_id: string;
  email_id: string;
  lock_id: string;
  flags: string;
  sort: string;
  ip_address: string;
  source: string;
  source_extra: string | null;
  isoverdue: '0' | '1';
  isanswered: '0' | '1';
  duedate: string | null;
  /** The SLA due time. */
  est_duedate: string | null;
  reopened: string | null;
  closed: string | null;
  lastupdate: string | null;
  created: string;
  updated: string;
  subject: string;
  priority_id: string;
  priority: string;
  /** Oldest first. */
  entries: TicketEntryRecord[];
}

/** A task, its own id in task_id. */
export interface TaskRecord {
  task_id: string;
  number: string;
  /** "0" for a task of no ticket. */
  ticket_id: string;
  dept_id: string;
  staff_id: string;
  title: string;
  description: string;
  duedate: string | null;
  closed: string | null;
  created: string;
  updated: string;
}

/** A department (department/all, department/specific): every value a string. */
export interface DepartmentRecord {
  department_id: string;
  name: string;
  created: string;
  parent_id: string;
}

/** An SLA plan (sla/all, sla/specific). */
export interface SlaRecord {
  sla_id: string;
  flags: string;
  grace_period: string;
  name: string;
  /** "" when none, as the original answered. */
  notes: string;
  created: string;
  schedule_id: string;
  updated: string;
}

/** A FAQ (faq/specific, and in each category of faq/all). */
export interface FaqRecord {
  id: string;
  category: string;
  ispublished: string;
  question: string;
  answer: string;
  keywords: string | null;
  notes: string | null;
  created: string;
  updated: string;
}

/** A FAQ category of faq/all, its sub-categories under `children` "0", "1", …. */
export interface FaqCategoryRecord {
  id: string;
  parent: string | null;
  ispublic: string;
  name: string;
  description: string;
  notes: string;
  created: string;
  updated: string;
  faqs: { total: number; faq: FaqRecord[] };
  children: { count: number; [index: string]: FaqCategoryRecord | number };
}

/** An integer the server also takes as a digit string. */
export type IntegerInput = number | string;

/** `YYYY-MM-DD` or `YYYY-MM-DD HH:MM:SS`. */
export type DateInput = string;

/**
 * Every look-up of the interface: its `sort` values, each one's `parameters`, and the `data` of
 * its answer. `DeskgateClient.lookUp` is typed by this map.
 */
export interface LookUps {
  'topics/specific': {
    sorts: { id: { id: IntegerInput }; name: { name: string } };
    data: { total: 1; topic: TopicRecord };
  };
  'topics/all': {
    sorts: { '*': { parent?: IntegerInput } };
    data: { total: number; topics: TopicRecord[] };
  };
  'user/specific': {
    sorts: { id: { id: IntegerInput }; email: { email: string } };
    data: { total: 1; users: UserRecord[] };
  };
  'user/all': {
    sorts: {
      creationDate: {
        start_date: DateInput;
        end_date: DateInput;
        limit?: IntegerInput;
        after?: string;
      };
    };
    data: { total: number; users: UserRecord[]; next?: string };
  };
  'ticket/all': {
    sorts: {
      creationDate: TicketRange & Paging;
      lastUpdateDate: TicketRange & Paging;
      status: { status: IntegerInput } & Paging;
      statusByDate: { status: IntegerInput } & TicketRange & Paging;
    };
    data: { total: number; tickets: TicketRecord[]; next?: string };
  };
  'ticket/specific': {
    sorts: { '*': { id?: IntegerInput; number?: string } };
    data: { total: 1; tickets: TicketRecord[] };
  };
  'tasks/all': {
    sorts: {
      creationDate: TicketRange & { ticket_id?: IntegerInput } & Paging;
      byTicket: { ticket_id: IntegerInput } & Paging;
    };
    data: { total: number; tasks: TaskRecord[]; next?: string };
  };
  'tasks/specific': {
    sorts: { '*': { id: IntegerInput } };
    data: { total: 1; tasks: TaskRecord[] };
  };
  'department/all': {
    sorts: { creationDate: TicketRange & Paging; name: Paging };
    data: { total: number; departments: DepartmentRecord[]; next?: string };
  };
  'department/specific': {
    sorts: { '*': { id: IntegerInput } };
    data: { total: 1; departments: DepartmentRecord[] };
  };
  'faq/all': {
    sorts: { '*': Record<string, never> };
    data: { total: number; categories: FaqCategoryRecord[] };
  };
  'faq/specific': {
    sorts: { '*': { id: IntegerInput } & Paging };
    data: { total: number; faq: FaqRecord[]; next?: string };
  };
  'sla/all': {
    sorts: { creationDate: TicketRange & Paging };
    data: { total: number; sla: SlaRecord[]; next?: string };
  };
  'sla/specific': {
    sorts: { '*': { id: IntegerInput } };
    data: { total: 1; sla: SlaRecord[] };
  };
}

/** An inclusive range of dates. */
export interface TicketRange {
  start_date: DateInput;
  end_date: DateInput;
}

/** `limit` (1–1000) for one page, `after` the previous page's `next`; without `limit`, the whole list. */
export interface Paging {
  limit?: IntegerInput;
  after?: string;
}

export type LookUpName = keyof LookUps;

/** One request of a look-up: the `sort` (none for an operation without one) and its parameters. */
export type LookUpRequest<Name extends LookUpName> = {
  [Sort in keyof LookUps[Name]['sorts']]: Sort extends '*'
    ? { sort?: undefined; parameters?: LookUps[Name]['sorts'][Sort] }
    : { sort: Sort; parameters: LookUps[Name]['sorts'][Sort] };
}[keyof LookUps[Name]['sorts']];

/** One page of user/all. */
export interface UserPage {
  users: UserRecord[];
  /** Pass as `after` for the next page; undefined on the last one. */
  next: string | undefined;
}

export interface UsersCreatedBetweenOptions {
  /** Users per page, 1 to 1000; the server's default is 100. */
  limit?: number;
  /** The `next` of the previous page. */
  after?: string;
}
