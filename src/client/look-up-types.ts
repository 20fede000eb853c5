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
