import assert from 'node:assert/strict';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { Reply } from './http.ts';

export type Json = { [key: string]: unknown };
// ajv-formats is CommonJS with a default export; under NodeNext its callable is `.default`.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/** The node at `path` in `value`, failing the test when a key is missing. */
export function at(value: unknown, ...path: string[]): Json {
  let node = value;
  for (const key of path) {
    assert.ok(
      node && typeof node === 'object' && key in node,
      `document has no ${path.join(' → ')}`,
    );
    node = (node as Json)[key];
  }
  return node as Json;
}

/** Checks real replies against the documented responses of one document. */
export function makeConformance(document: Json) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  const compiled = new Map<string, ValidateFunction>();
  const validatorOf = (cacheKey: string, schema: Json): ValidateFunction => {
    let validate = compiled.get(cacheKey);
    if (!validate) {
      // The response schemas' $refs point at #/components/…: give them the document's components.
      validate = ajv.compile({ ...schema, components: document.components });
      compiled.set(cacheKey, validate);
    }
    return validate;
  };
  /** The reply is one the document lists for `method` on `path`: status, required headers, body schema. */
  const conforms = (path: string, method: string, reply: Reply): void => {
    const documented = at(document, 'paths', path, method, 'responses');
    const response = documented[String(reply.status)] as Json | undefined;
    assert.ok(response, `${method.toUpperCase()} ${path} → ${reply.status} is not documented`);
    for (const [header, spec] of Object.entries((response.headers as Json | undefined) ?? {})) {
      const { $ref } = spec as { $ref?: string };
      const definition = $ref ? at(document, ...$ref.slice(2).split('/')) : (spec as Json);
      if (definition.required !== true) continue;
      assert.ok(
        reply.headers[header.toLowerCase()] !== undefined,
        `${reply.status} lacks documented header ${header}`,
      );
    }
    const content = response.content as Json | undefined;
    if (!content) {
      assert.equal(reply.text, '', `${reply.status} is documented without a body`);
      return;
    }
    assert.equal(reply.headers['content-type'], 'application/json; charset=utf-8');
    const cacheKey = `${path} ${method} ${reply.status}`;
    const validate = validatorOf(cacheKey, at(content, 'application/json', 'schema'));
    assert.ok(
      validate(reply.body),
      `${cacheKey}: ${reply.text}\n${JSON.stringify(validate.errors, null, 2)}`,
    );
  };
  /**
   * The reply is the success envelope the document names for `operation` (its
   * `x-deskgate-operations` entry on `method` of `path`), not merely one of the method's answers.
   */
  const conformsToOperation = (
    path: string,
    method: string,
    operation: string,
    reply: Reply,
  ): void => {
    const entries = at(document, 'paths', path, method)['x-deskgate-operations'] as
      | Json[]
      | undefined;
    const entry = entries?.find((candidate) => candidate.operation === operation);
    assert.ok(entry, `${method.toUpperCase()} ${path} does not document ${operation}`);
    const validate = validatorOf(`${operation} envelope`, { $ref: String(entry.response) });
    assert.ok(
      validate(reply.body),
      `${operation}: ${reply.text}\n${JSON.stringify(validate.errors, null, 2)}`,
    );
  };
  return { conforms, conformsToOperation };
}
