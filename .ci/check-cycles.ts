// Fails when the modules under src/ and pipelines/ import each other in a cycle (style.md guideline 2). The import
// graph comes from the TypeScript compiler's own module resolution; cycles are the strongly connected components
// of more than one module (Tarjan), plus modules that import themselves. Type-only imports count too: a cycle of
// types is still a knot in the design.
import { relative } from 'node:path';
import ts from 'typescript';

const configPath = ts.findConfigFile('.', (f) => ts.sys.fileExists(f), 'tsconfig.json');
if (!configPath) {
  throw new Error('tsconfig.json not found');
}
const parsed = ts.getParsedCommandLineOfConfigFile(configPath, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
if (!parsed) {
  throw new Error('tsconfig.json could not be parsed');
}
const files = parsed.fileNames.filter((f) => /\/(src|pipelines)\//.test(f));
const graph = new Map<string, string[]>();
for (const file of files) {
  const info = ts.preProcessFile(ts.sys.readFile(file) ?? '', true, true);
  const deps: string[] = [];
  for (const imp of info.importedFiles) {
    const resolved = ts.resolveModuleName(imp.fileName, file, parsed.options, ts.sys).resolvedModule;
    if (resolved && !resolved.isExternalLibraryImport && files.includes(resolved.resolvedFileName)) {
      deps.push(resolved.resolvedFileName);
    }
  }
  graph.set(file, deps);
}

let index = 0;
const stack: string[] = [];
const onStack = new Set<string>();
const idx = new Map<string, number>();
const low = new Map<string, number>();
const cycles: string[][] = [];
function connect(v: string): void {
  idx.set(v, index);
  low.set(v, index);
  index++;
  stack.push(v);
  onStack.add(v);
  for (const w of graph.get(v) ?? []) {
    if (!idx.has(w)) {
      connect(w);
      low.set(v, Math.min(low.get(v)!, low.get(w)!));
    } else if (onStack.has(w)) {
      low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
  }
  if (low.get(v) === idx.get(v)) {
    const component: string[] = [];
    let w: string | undefined;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || (graph.get(v) ?? []).includes(v)) {
      cycles.push(component);
    }
  }
}
for (const v of graph.keys()) {
  if (!idx.has(v)) {
    connect(v);
  }
}
if (cycles.length > 0) {
  for (const c of cycles) {
    process.stderr.write(`import cycle: ${c.map((f) => relative('.', f)).join(' <-> ')}\n`);
  }
  process.exitCode = 1;
} else {
  process.stdout.write(`no import cycles among ${graph.size} modules\n`);
}
