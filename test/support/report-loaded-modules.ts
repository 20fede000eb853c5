// Loaded into a child `deskgate` by test/cli/start-up-modules.test.ts (`--import`): as the command
// exits, it writes to stderr the internal modules Node loaded for it (`process.moduleLoadList`,
// Node's own record, not in its published types) and the URL of every other module it resolved.
import { registerHooks } from 'node:module';

const { moduleLoadList } = process as NodeJS.Process & { moduleLoadList: string[] };
const resolved = new Set<string>();
registerHooks({
  resolve(specifier, context, nextResolve) {
    const result = nextResolve(specifier, context);
    resolved.add(result.url);
    return result;
  },
});
process.on('exit', () => {
  process.stderr.write(
    `loaded:${JSON.stringify({ builtins: moduleLoadList, urls: [...resolved] })}`,
  );
});
