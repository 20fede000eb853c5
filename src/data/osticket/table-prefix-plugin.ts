import {
  type KyselyPlugin,
  type OperationNode,
  OperationNodeTransformer,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type ReferenceNode,
  type RootOperationNode,
  type TableNode,
  type UnknownRow,
} from 'kysely';
import { OWN_TABLE_PREFIX } from './osticket-requirements.ts';

/** Names a query gives to what it reads, which are no tables of the database. */
interface LocalNames {
  /** `department as d`: `d`, prefixed nowhere it is referred to (`d.id`). */
  aliases: Set<string>;
  /** `with recent as (…)`: `recent`, prefixed neither where it is read nor referred to. */
  ctes: Set<string>;
}

/** The aliases and common table expressions anywhere in the query, subqueries included. */
function localNamesOf(root: OperationNode): LocalNames {
  const aliases = new Set<string>();
  const ctes = new Set<string>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      for (const item of value) visit(item);
      return;
    }
    if (typeof value !== 'object' || value === null) return;
    const node = value as Partial<{ kind: string; node: OperationNode; alias: OperationNode }>;
    if (node.kind === 'AliasNode' && node.node?.kind === 'TableNode') {
      const alias = node.alias as Partial<{ kind: string; name: string }> | undefined;
      if (alias?.kind === 'IdentifierNode' && alias.name !== undefined) aliases.add(alias.name);
    }
    if (node.kind === 'CommonTableExpressionNameNode') {
      const table = (value as { table?: TableNode }).table;
      if (table) ctes.add(table.table.identifier.name);
    }
    for (const child of Object.values(value)) visit(child);
  };
  visit(root);
  return { aliases, ctes };
}

class PrefixTransformer extends OperationNodeTransformer {
  readonly #prefix: string;
  readonly #own: ReadonlySet<string>;
  readonly #local: LocalNames;

  constructor(prefix: string, own: ReadonlySet<string>, local: LocalNames) {
    super();
    this.#prefix = prefix;
    this.#own = own;
    this.#local = local;
  }

  protected override transformReference(node: ReferenceNode): ReferenceNode {
    const table = node.table?.table.identifier.name;
    if (table !== undefined && (this.#local.aliases.has(table) || this.#local.ctes.has(table)))
      return node;
    return super.transformReference(node);
  }

  protected override transformTable(node: TableNode): TableNode {
    const transformed = super.transformTable(node);
    const name = transformed.table.identifier.name;
    if (name.startsWith(OWN_TABLE_PREFIX) || this.#local.ctes.has(name)) return transformed;
    const renamed = `${this.#own.has(name) ? OWN_TABLE_PREFIX : this.#prefix}${name}`;
    return {
      ...transformed,
      table: {
        ...transformed.table,
        identifier: { ...transformed.table.identifier, name: renamed },
      },
    };
  }
}

/**
 * Adds osTicket's table prefix (`ost_` by default) to every osTicket table a query names, and
 * `deskgate_` to deskgate's own tables (`own`: their names in deskgate's own schema). A table's
 * alias and a common table expression are no tables: `department as d` … `d.id` becomes
 * `ost_department as d` … `d.id`, not `ost_d.id`.
 */
export class TablePrefixPlugin implements KyselyPlugin {
  readonly #prefix: string;
  readonly #own: ReadonlySet<string>;

  constructor(prefix: string, own: ReadonlySet<string>) {
    this.#prefix = prefix;
    this.#own = own;
  }

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    const local = localNamesOf(args.node);
    return new PrefixTransformer(this.#prefix, this.#own, local).transformNode(args.node);
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}
