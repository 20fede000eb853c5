import type { Operation } from './operation.ts';
import { topicsAll } from './topics-all/topics-all.ts';
import { topicsSpecific } from './topics-specific/topics-specific.ts';
import { userAdd } from './user-add/user-add.ts';
import { userAll } from './user-all/user-all.ts';
import { userSpecific } from './user-specific/user-specific.ts';

/**
 * Every operation, keyed `query/condition`. A new operation is one folder (its defineOperation
 * call) and one line here; the edge, the OpenAPI document and the dispatch read the rest.
 */
export const OPERATIONS = {
  'topics/specific': topicsSpecific,
  'topics/all': topicsAll,
  'user/add': userAdd,
  'user/specific': userSpecific,
  'user/all': userAll,
} as const satisfies Record<string, Operation>;

export type OperationName = keyof typeof OPERATIONS;

for (const [name, operation] of Object.entries(OPERATIONS)) {
  if (name !== operation.name) {
    throw new Error(`operation registered as ${name} is ${operation.name}`);
  }
}

const byName = new Map<string, Operation>(Object.entries(OPERATIONS));

export function findOperation(query: string, condition: string): Operation | undefined {
  return byName.get(`${query}/${condition}`);
}

export const OPERATION_NAMES = Object.keys(OPERATIONS) as OperationName[];
