// Loaded into a child `deskgate` by test/cli/start-up-modules.test.ts (`--import`): as the command
// exits, it writes the internal modules Node loaded for it to stderr. `process.moduleLoadList` is
// Node's own record, not in its published types.
const { moduleLoadList } = process as NodeJS.Process & { moduleLoadList: string[] };
process.on('exit', () => {
  process.stderr.write(`loaded:${JSON.stringify(moduleLoadList)}`);
});
