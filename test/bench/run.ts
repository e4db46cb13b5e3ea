// `npm run bench -- <name>`: runs one benchmark (or all). Benchmarks print their figures and the machine they ran on;
// they are never part of `npm test`.
import { spawnSync } from 'node:child_process';

const benches: Record<string, string> = {
  refdata: 'test/bench/refdata.bench.ts',
  http: 'test/bench/http.bench.ts',
  codes: 'test/bench/codes.bench.ts',
  mapping: 'test/bench/mapping.bench.ts',
  'codes-http': 'test/bench/codes-http.bench.ts',
};

const wanted = process.argv.slice(2).filter((a) => !a.startsWith('-'));
const names = wanted.length > 0 ? wanted : Object.keys(benches);
let failed = 0;
for (const name of names) {
  const file = benches[name];
  if (!file) {
    process.stderr.write(`unknown benchmark ${name}; known: ${Object.keys(benches).join(', ')}\n`);
    process.exitCode = 2;
    continue;
  }
  const r = spawnSync(process.execPath, ['--import', 'tsx', file, ...process.argv.slice(2).filter((a) => a.startsWith('-'))], { stdio: 'inherit' });
  failed += r.status === 0 ? 0 : 1;
}
process.exitCode ||= failed > 0 ? 1 : 0;
