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
import { OWN_TABLE_NAMES } from './schema.ts';

class PrefixTransformer extends OperationNodeTransformer {
  readonly #prefix: string;

  constructor(prefix: string) {
    super();
    this.#prefix = prefix;
  }

  protected override transformTable(node: TableNode): TableNode {
    const transformed = super.transformTable(node);
    const name = transformed.table.identifier.name;
    if (name.startsWith('deskgate_')) return transformed;
    const renamed = OWN_TABLE_NAMES.get(name) ?? `${this.#prefix}${name}`;
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
 * maps deskgate's own tables to their `deskgate_` names.
 */
export class TablePrefixPlugin implements KyselyPlugin {
  readonly #transformer: PrefixTransformer;

  constructor(prefix: string) {
    this.#transformer = new PrefixTransformer(prefix);
  }

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return this.#transformer.transformNode(args.node);
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}
