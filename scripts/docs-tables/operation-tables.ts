/**
 * The two tables of the docs that list every operation, from the registry
 * (src/operations/registry.ts): the README's operation table and docs/SECURITY.md's scopes
 * (decision 436). A new operation's rows come from its own definition.
 */
import { DEFAULT_SCOPES, SCOPES, type Scope } from '../../src/domain.ts';
import type { HttpMethod, Operation } from '../../src/operations/operation.ts';
import { OPERATIONS } from '../../src/operations/registry.ts';

const ALL: readonly Operation[] = Object.values(OPERATIONS);

const code = (text: string): string => `\`${text}\``;

/** `a`, `a or b`, `a, b or c`. */
function either(items: readonly string[]): string {
  return items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
}

/** GET carries a JSON body, as the original service's did; the others are written as they are. */
export function methodsText(methods: readonly HttpMethod[]): string {
  return methods.map((method) => (method === 'GET' ? 'GET + body' : method)).join(' or ');
}

/** `tickets:read`, or each scope that admits a key: `tickets:read` or `users:read`. */
function scopesText(operation: Operation): string {
  return either([operation.scope, ...operation.otherScopes].map(code));
}

/** The summary, with what the definition says besides: the `sort` values, the notes grant. */
function whatItDoes(operation: Operation): string {
  const parts = [operation.summary];
  const sorts = operation.sort?.values ?? [];
  if (operation.sort && sorts.length > 1) {
    const values = sorts.map((sort) =>
      sort === operation.sort?.default ? `\`"${sort}"\` (default)` : `\`"${sort}"\``,
    );
    parts.push(`\`sort\` ${either(values)}`);
  }
  if (operation.needsNotes) parts.push('needs the notes grant (`--notes`)');
  return parts.join('; ');
}

/** The README's table: one row per operation, in the registry's order. */
export function operationTable(): string {
  const rows = ALL.map(
    (operation) =>
      `| ${code(operation.name)} | ${methodsText(operation.methods)} | ${scopesText(operation)} | ${whatItDoes(operation)} |`,
  );
  return [
    '| operation | method | scope | what it does |',
    '| --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}

/** An operation as the scope table names it: with the other scope or the grant it needs too. */
function underScope(operation: Operation, scope: Scope): string {
  const others = [operation.scope, ...operation.otherScopes].filter((one) => one !== scope);
  const notes = [
    ...(others.length > 0 ? [`or ${either(others.map(code))} instead`] : []),
    ...(operation.needsNotes ? ['with the notes grant too'] : []),
  ];
  return notes.length === 0
    ? code(operation.name)
    : `${code(operation.name)} (${notes.join('; ')})`;
}

/** docs/SECURITY.md's table: each scope, which keys have it, and the operations it opens. */
export function scopeTable(): string {
  const rows = SCOPES.map((scope) => {
    const given = DEFAULT_SCOPES.includes(scope)
      ? 'by default'
      : `only when named (\`--scope ${scope}\`)`;
    const operations = ALL.filter(
      (operation) => operation.scope === scope || operation.otherScopes.includes(scope),
    );
    return `| ${code(scope)} | ${given} | ${operations.map((operation) => underScope(operation, scope)).join(', ')} |`;
  });
  return [
    '| scope | a key has it | the operations it opens |',
    '| --- | --- | --- |',
    ...rows,
  ].join('\n');
}
