// The read port (src/reference/index.ts and its queries) must not pull in build-time code: no source-file parser
// (csv-parse, saxes, node-stream-zip), no reader of src/readers/ (xlsx, xml, ...), nothing under src/refdata/. Two
// views of its module graph: the static one from the TypeScript compiler's own resolution (type-only imports
// included, so a row type borrowed from a loader fails too), and the runtime one, from a fresh Node process that
// imports the port with a resolve hook recording every module it loads.
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';

const PORT = resolve('src/reference/index.ts');

/** Why a module (a repository-relative path or a package specifier) may not be in the port's graph, if it may not. */
function forbidden(module: string): string | undefined {
  // A bare specifier (static walk) or a file inside the package (runtime), hoisted or nested.
  if (/(^|node_modules\/)(csv-parse|saxes|node-stream-zip)(\/|$)/.test(module)) {
    return 'source-file parser';
  }
  if (module.startsWith('src/readers/')) {
    return 'streaming reader (build side)';
  }
  if (module.startsWith('src/refdata/')) {
    return 'build-time code (src/refdata)';
  }
  return undefined;
}

/** Every module reachable from `entry` by static imports and re-exports: repository files and package specifiers. */
function staticGraph(entry: string): Set<string> {
  const configPath = ts.findConfigFile('.', (f) => ts.sys.fileExists(f), 'tsconfig.json');
  const parsed =
    configPath &&
    ts.getParsedCommandLineOfConfigFile(
      configPath,
      {},
      { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined },
    );
  if (!parsed) {
    throw new Error('tsconfig.json could not be read');
  }
  const seen = new Set<string>();
  const queue = [entry];
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    const info = ts.preProcessFile(ts.sys.readFile(file) ?? '', true, true);
    for (const { fileName: specifier } of info.importedFiles) {
      if (specifier.startsWith('node:')) {
        continue;
      }
      const resolved = ts.resolveModuleName(specifier, file, parsed.options, ts.sys).resolvedModule;
      if (!resolved || resolved.isExternalLibraryImport) {
        seen.add(specifier);
        continue;
      }
      const path = relative('.', resolved.resolvedFileName);
      if (!seen.has(path)) {
        seen.add(path);
        queue.push(resolved.resolvedFileName);
      }
    }
  }
  return seen;
}

/** A resolve hook that appends each resolved URL to the file passed to `initialize` (runs on the hooks thread). */
const RECORDING_HOOK = `
import { appendFileSync } from 'node:fs';
let out;
export function initialize(file) { out = file; }
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(out, result.url + '\\n');
  return result;
}`;

/** The modules a fresh Node process loads to import the port, as repository-relative paths (node: builtins left out). */
async function runtimeGraph(entry: string): Promise<Set<string>> {
  const log = join(await mkdtemp(join(tmpdir(), 'read-port-graph-')), 'resolved.txt');
  const script = [
    "import { register } from 'node:module';",
    `register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(RECORDING_HOOK)}`)}, { data: ${JSON.stringify(log)} });`,
    `await import(${JSON.stringify(entry)});`,
  ].join('\n');
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    encoding: 'utf8',
  });
  expect(child.stderr).toBe('');
  expect(child.status).toBe(0);
  const urls = (await readFile(log, 'utf8')).split('\n').filter((u) => u.startsWith('file:'));
  return new Set(urls.map((u) => relative('.', fileURLToPath(u))));
}

function offenders(graph: Set<string>): string[] {
  return [...graph].flatMap((m) => {
    const why = forbidden(m);
    return why === undefined ? [] : [`${m}: ${why}`];
  });
}

describe('the reference read port', () => {
  test('statically imports no parser, reader or src/refdata module, type-only imports included', () => {
    const graph = staticGraph(PORT);
    // The walk reached the queries and the database driver, so an empty offender list means something.
    expect(graph).toContain('src/reference/queries/edits.ts');
    expect(graph).toContain('better-sqlite3');
    expect(offenders(graph)).toEqual([]);
  });

  test('loads no parser, reader or src/refdata module when a fresh process imports it', async () => {
    const graph = await runtimeGraph(PORT);
    expect(graph).toContain('src/reference/queries/edits.ts');
    expect([...graph].some((m) => m.includes('node_modules/better-sqlite3/'))).toBe(true);
    expect(offenders(graph)).toEqual([]);
  });
});
