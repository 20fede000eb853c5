import type { Operation } from './operation.ts';
import { topicsSpecific } from './topics-specific/topics-specific.ts';
import { userAdd } from './user-add/user-add.ts';

/** Every operation, keyed `query/condition`. A new operation is one folder and one line here. */
export const OPERATIONS = {
  'topics/specific': topicsSpecific,
  'user/add': userAdd,
} as const satisfies Record<string, Operation>;

export type OperationName = keyof typeof OPERATIONS;

for (const [name, operation] of Object.entries(OPERATIONS)) {
  if (name !== `${operation.query}/${operation.condition}`) {
    throw new Error(`operation registered as ${name} is ${operation.query}/${operation.condition}`);
  }
}

const byName = new Map<string, Operation>(Object.entries(OPERATIONS));

export function findOperation(query: string, condition: string): Operation | undefined {
  return byName.get(`${query}/${condition}`);
}

export const OPERATION_NAMES = Object.keys(OPERATIONS) as OperationName[];
