import {
  type KyselyPlugin,
  OperationNodeTransformer,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type TableNode,
  type UnknownRow,
} from 'kysely';
import { OWN_TABLE_PREFIX } from './osticket-requirements.ts';

class PrefixTransformer extends OperationNodeTransformer {
  readonly #prefix: string;
  readonly #own: ReadonlySet<string>;

  constructor(prefix: string, own: ReadonlySet<string>) {
    super();
    this.#prefix = prefix;
    this.#own = own;
  }

  protected override transformTable(node: TableNode): TableNode {
    const transformed = super.transformTable(node);
    const name = transformed.table.identifier.name;
    if (name.startsWith(OWN_TABLE_PREFIX)) return transformed;
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
 * `deskgate_` to deskgate's own tables (`own`: their names in deskgate's own schema).
 */
export class TablePrefixPlugin implements KyselyPlugin {
  readonly #transformer: PrefixTransformer;

  constructor(prefix: string, own: ReadonlySet<string>) {
    this.#transformer = new PrefixTransformer(prefix, own);
  }

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return this.#transformer.transformNode(args.node);
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}
