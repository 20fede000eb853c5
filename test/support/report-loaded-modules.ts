// Loaded into a child `deskgate` by test/cli/start-up-modules.test.ts (`--import`): as the command
// exits, it writes the internal modules Node loaded for it to stderr.
process.on('exit', () => {
  process.stderr.write(`loaded:${JSON.stringify(process.moduleLoadList)}`);
});
