/**
 * Writes src/client/operation-types.ts: the typed client's wire types, generated from the
 * registry's own zod schemas (each operation's parameters per `sort`, as a caller sends them, and
 * its response's `data`, as the server answers it) and the closed set of error codes. The client
 * package ships them without zod or any server code; test/client/client-types.test.ts fails when
 * the file is not what this script writes now (docs/decisions/342-client-package.md).
 *
 * Usage: node scripts/generate-client-types.ts          (writes the file)
 *        node scripts/generate-client-types.ts --check  (exit 1 when it differs)
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compile, type JSONSchema } from 'json-schema-to-typescript';
import type { z } from 'zod';
import { ERROR_STATUS } from '../src/errors.ts';
import { componentsOf, pascal, sortSuffix } from '../src/http/openapi/service-operations.ts';
import { feedEventSchema } from '../src/operations/events-since/events-since.ts';
import type { Operation } from '../src/operations/operation.ts';
import { priorityViewSchema } from '../src/operations/priority-all/priority-all.ts';
import { OPERATIONS } from '../src/operations/registry.ts';
import { staffViewSchema } from '../src/operations/staff-all/staff-all.ts';
import { statusViewSchema } from '../src/operations/status-all/status-all.ts';
import { teamViewSchema } from '../src/operations/team-all/team-all.ts';
import {
  departmentViewSchema,
  faqCategoryViewSchema,
  faqViewSchema,
  slaViewSchema,
} from '../src/operations/views/catalogue-view.ts';
import {
  entryViewSchema,
  taskViewSchema,
  ticketViewSchema,
} from '../src/operations/views/ticket-view.ts';
import { topicViewSchema } from '../src/operations/views/topic-view.ts';
import { userViewSchema } from '../src/operations/views/user-view.ts';
import { deliveryViewSchema, webhookViewSchema } from '../src/operations/views/webhook-view.ts';

const ROOT = join(fileURLToPath(import.meta.url), '..', '..');
export const CLIENT_TYPES_FILE = join(ROOT, 'src', 'client', 'operation-types.ts');

/** The records the answers are made of, by the name the client exports them under. */
const RECORDS: readonly [z.ZodType, string][] = [
  [topicViewSchema, 'TopicRecord'],
  [userViewSchema, 'UserRecord'],
  [entryViewSchema, 'TicketEntryRecord'],
  [ticketViewSchema, 'TicketRecord'],
  [taskViewSchema, 'TaskRecord'],
  [departmentViewSchema, 'DepartmentRecord'],
  [slaViewSchema, 'SlaRecord'],
  [faqViewSchema, 'FaqRecord'],
  [faqCategoryViewSchema, 'FaqCategoryRecord'],
  [statusViewSchema, 'StatusRecord'],
  [priorityViewSchema, 'PriorityRecord'],
  [staffViewSchema, 'StaffRecord'],
  [teamViewSchema, 'TeamRecord'],
  [feedEventSchema, 'FeedEvent'],
  [webhookViewSchema, 'WebhookRecord'],
  [deliveryViewSchema, 'WebhookDeliveryRecord'],
];

function parametersName(operation: Operation, sort: string | undefined): string {
  return `${pascal(operation.name)}${sort ? sortSuffix(sort) : ''}Parameters`;
}

/** JSON Schemas of zod schemas as $defs referring to each other, each titled with its name. */
function definitionsOf(entries: readonly [z.ZodType, string][], io: 'input' | 'output') {
  return Object.fromEntries(
    Object.entries(componentsOf(entries, io, '#/$defs/')).map(([id, schema]) => [
      id,
      { ...schema, title: id },
    ]),
  );
}

/** One operation's line of the `Operations` map. */
function operationEntry(operation: Operation): string {
  const sorts = operation.variants
    .map(
      (variant) =>
        `${JSON.stringify(variant.sort ?? '*')}: ${parametersName(operation, variant.sort)}`,
    )
    .join('; ');
  return `  ${JSON.stringify(operation.name)}: { sorts: { ${sorts} }; data: ${pascal(operation.name)}Data };`;
}

/** json-schema-to-typescript's output without its root type and provenance comments. */
function tidy(definitions: string): string {
  return definitions
    .replace(/export interface OperationTypesRoot \{[^}]*\}\n/, '')
    .replace(
      / \*\s*\n \* This interface was referenced by [^\n]*\n \* via the `definition` "\w+"\.\n/g,
      '',
    )
    .replace(
      /\/\*\*\n \* This interface was referenced by [^\n]*\n \* via the `definition` "\w+"\.\n \*\/\n/g,
      '',
    )
    .replace(/export interface (\w+) \{\s*\}/g, 'export type $1 = Record<string, never>');
}

/** Biome's formatting of `source`, as `npm run format` would leave the file. */
function formatted(source: string): string {
  const biome = spawnSync(
    join(ROOT, 'node_modules', '.bin', 'biome'),
    ['format', `--stdin-file-path=${CLIENT_TYPES_FILE}`],
    {
      input: source,
      encoding: 'utf8',
      cwd: ROOT,
    },
  );
  if (biome.status !== 0) throw new Error(`biome format failed: ${biome.stderr}`);
  return biome.stdout;
}

/** The TypeScript text of the file. */
export async function clientTypesSource(): Promise<string> {
  const operations = Object.values(OPERATIONS);
  const parameters: [z.ZodType, string][] = operations.flatMap((operation) =>
    operation.variants.map((variant): [z.ZodType, string] => [
      variant.parameters,
      parametersName(operation, variant.sort),
    ]),
  );
  const responses: [z.ZodType, string][] = [
    ...RECORDS,
    ...operations.map((operation): [z.ZodType, string] => [
      operation.response,
      `${pascal(operation.name)}Data`,
    ]),
  ];
  const $defs = { ...definitionsOf(parameters, 'input'), ...definitionsOf(responses, 'output') };
  const schema = {
    title: 'OperationTypesRoot',
    type: 'object',
    additionalProperties: false,
    properties: Object.fromEntries(Object.keys($defs).map((id) => [id, { $ref: `#/$defs/${id}` }])),
    $defs,
  } as JSONSchema;
  const definitions = await compile(schema, 'OperationTypesRoot', {
    bannerComment: '',
    additionalProperties: false,
    format: false,
    ignoreMinAndMaxItems: true,
    unreachableDefinitions: true,
  });
  const lookUps = operations.filter((operation) => operation.methods[0] === 'GET');
  const errorCodes = Object.keys(ERROR_STATUS);
  return formatted(
    [
      "// Generated by scripts/generate-client-types.ts from the registry's zod schemas: do not edit.",
      '// `npm run generate:client` writes it again; test/client/client-types.test.ts fails while it differs.',
      '',
      tidy(definitions),
      '/** Every operation: its `sort` values (`*`: it takes none) with the parameters each selects, and the `data` it answers. */',
      'export interface Operations {',
      ...operations.map(operationEntry),
      '}',
      '',
      '/** The look-ups: the operations sent as a GET with a JSON body. */',
      `export type LookUpName = ${lookUps.map((operation) => JSON.stringify(operation.name)).join(' | ')};`,
      '',
      '/** Every error code the server answers with (the `code` of the error envelope). */',
      `export type ErrorCode = ${errorCodes.map((code) => JSON.stringify(code)).join(' | ')};`,
      '',
    ].join('\n'),
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const source = await clientTypesSource();
  if (process.argv[2] === '--check') {
    if (readFileSync(CLIENT_TYPES_FILE, 'utf8') !== source) process.exitCode = 1;
  } else {
    writeFileSync(CLIENT_TYPES_FILE, source);
  }
}
