// `npm run bench -- <name>`: runs one benchmark (or all). Benchmarks print their figures and the machine they ran on;
// they are never part of `npm test`.
//
// The engine and server benchmarks measure the code as `npm run serve` runs it: they are compiled with the product
// by tsc (test/bench/tsconfig.bench.json, into dist/) and run with plain node. `refdata` measures the build as
// `npm run refdata` runs it, under tsx.
import { spawnSync } from 'node:child_process';

const benches: Record<string, { readonly file: string; readonly compiled: boolean }> = {
  refdata: { file: 'test/bench/refdata.bench.ts', compiled: false },
  http: { file: 'dist/test/bench/http.bench.js', compiled: true },
  codes: { file: 'dist/test/bench/codes.bench.js', compiled: true },
  mapping: { file: 'dist/test/bench/mapping.bench.js', compiled: true },
  'codes-http': { file: 'dist/test/bench/codes-http.bench.js', compiled: true },
  validate: { file: 'dist/test/bench/validate.bench.js', compiled: true },
  scrub: { file: 'dist/test/bench/scrub.bench.js', compiled: true },
  search: { file: 'dist/test/bench/search.bench.js', compiled: true },
  nlp: { file: 'dist/test/bench/nlp.bench.js', compiled: true },
};

// Benchmark names come first; everything from the first option on goes to the benchmarks as given, so both
// `--lines=300000` and `--lines 300000` (issue 12 §9 writes the latter) reach them.
const args = process.argv.slice(2);
const firstOption = args.findIndex((a) => a.startsWith('-'));
const wanted = firstOption < 0 ? args : args.slice(0, firstOption);
const flags = firstOption < 0 ? [] : args.slice(firstOption);
const names = wanted.length > 0 ? wanted : Object.keys(benches);
const unknown = names.filter((n) => benches[n] === undefined);
if (unknown.length > 0) {
  process.stderr.write(`unknown benchmark ${unknown.join(', ')}; known: ${Object.keys(benches).join(', ')}\n`);
  process.exit(2);
}
if (names.some((n) => benches[n]?.compiled)) {
  const tsc = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'test/bench/tsconfig.bench.json'], {
    stdio: 'inherit',
  });
  if (tsc.status !== 0) {
    process.stderr.write('tsc -p test/bench/tsconfig.bench.json failed\n');
    process.exit(1);
  }
}
let failed = 0;
for (const name of names) {
  const bench = benches[name];
  if (bench === undefined) {
    continue;
  }
  // --expose-gc: a benchmark that prints the heap an index holds collects first (without it `gc` is undefined and the
  // figure counts the build's garbage), and its timed queries do not start by collecting that garbage.
  const args = bench.compiled ? ['--expose-gc', bench.file, ...flags] : ['--expose-gc', '--import', 'tsx', bench.file, ...flags];
  const r = spawnSync(process.execPath, args, { stdio: 'inherit' });
  failed += r.status === 0 ? 0 : 1;
}
process.exitCode = failed > 0 ? 1 : 0;
