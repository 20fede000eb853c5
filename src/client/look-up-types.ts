/**
 * The look-ups' types, over the ones generated from the registry's schemas
 * (operation-types.ts): the client must not load server code, and its published types must not
 * drag the server's or zod's in.
 */

import type { LookUpName, Operations, UserRecord } from './operation-types.ts';

/** An integer the server also takes as a digit string. */
export type IntegerInput = number | string;

/** `YYYY-MM-DD` or `YYYY-MM-DD HH:MM:SS`. */
export type DateInput = string;

/**
 * Every look-up of the interface: its `sort` values, each one's `parameters`, and the `data` of
 * its answer. `DeskgateClient.lookUp` is typed by this map, `DeskgateClient.call` by `Operations`.
 */
export type LookUps = Pick<Operations, LookUpName>;

/** One request of an operation: the `sort` (none for an operation without one) and its parameters. */
export type OperationRequest<Name extends keyof Operations> = {
  [Sort in keyof Operations[Name]['sorts']]: Sort extends '*'
    ? { sort?: undefined; parameters?: Operations[Name]['sorts'][Sort] }
    : { sort: Sort; parameters: Operations[Name]['sorts'][Sort] };
}[keyof Operations[Name]['sorts']];

/** One request of a look-up: the `sort` (none for an operation without one) and its parameters. */
export type LookUpRequest<Name extends LookUpName> = OperationRequest<Name>;

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
