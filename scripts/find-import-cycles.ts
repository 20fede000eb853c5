/**
 * `node scripts/find-import-cycles.ts [DIR]`: the runtime import cycles among the TypeScript
 * files under DIR (default `src`), as test/import-cycles.test.ts checks them.
 *
 * A runtime cycle is one Node follows when it loads the modules: type-only imports (`import
 * type`, `export type … from`) are erased and do not count, `import()` is lazy and does not
 * count. Within a cycle one module runs before the other has defined its exports, so a `const`
 * it reads at load time is not there yet (a `function` declaration is, which hid the cycles of
 * the entity folders until issue 33).
 */
import { globSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { init, parse } from 'es-module-lexer';

/** The repository root: paths in answers are relative to it. */
const ROOT = join(fileURLToPath(import.meta.url), '..', '..');

await init;

/**
 * The modules of the tree that `source` (the module `file`, a repository path) loads at run time:
 * its static imports and re-exports of relative paths that are not type-only.
 */
export function runtimeImportsOf(source: string, file: string): string[] {
  const [imports] = parse(source, file);
  const targets = imports.flatMap((found) =>
    found.type === 'static' && !found.typeOnly && found.specifier.startsWith('.')
      ? [relative(ROOT, resolve(ROOT, dirname(file), found.specifier))]
      : [],
  );
  return [...new Set(targets)];
}

/** Each module of `dir` (tests left out) with the modules it loads at run time. */
export function readRuntimeImports(dir: string): Map<string, string[]> {
  const files = globSync('**/*.ts', { cwd: join(ROOT, dir) })
    .filter((file) => !file.endsWith('.test.ts') && !file.endsWith('.d.ts'))
    .map((file) => join(dir, file))
    .sort();
  return new Map(
    files.map((file) => [file, runtimeImportsOf(readFileSync(join(ROOT, file), 'utf8'), file)]),
  );
}

/**
 * The cycles of `graph`: its strongly connected components of more than one module (or a module
 * importing itself), each sorted, found with Tarjan's algorithm.
 */
export function findCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (module: string): void => {
    index.set(module, next);
    low.set(module, next);
    next++;
    stack.push(module);
    onStack.add(module);
    for (const target of graph.get(module) ?? []) {
      if (!graph.has(target)) continue;
      if (!index.has(target)) {
        visit(target);
        low.set(module, Math.min(low.get(module) as number, low.get(target) as number));
      } else if (onStack.has(target)) {
        low.set(module, Math.min(low.get(module) as number, index.get(target) as number));
      }
    }
    if (low.get(module) !== index.get(module)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      component.push(member);
    } while (member !== module);
    if (component.length > 1 || graph.get(module)?.includes(module)) cycles.push(component.sort());
  };
  for (const module of graph.keys()) if (!index.has(module)) visit(module);
  return cycles.sort((a, b) => String(a[0]).localeCompare(String(b[0])));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const cycles = findCycles(readRuntimeImports(process.argv[2] ?? 'src'));
  for (const cycle of cycles) process.stdout.write(`${cycle.join(' ↔ ')}\n`);
  process.stdout.write(`${cycles.length} runtime import cycle(s)\n`);
}
