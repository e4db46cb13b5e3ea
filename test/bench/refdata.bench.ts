// Reference-data build benchmark: full build wall time, peak RSS and rows/s per loader, against a baseline measured in
// the same run: reading and decompressing the very same units' bytes without parsing them (the I/O floor).
// Targets (issue 2): full build under 90 s and under 1 GB peak RSS on a 2-core machine.
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config.js';
import { openBytes } from '../../src/readers/byte-source.js';
import { planBuild, scanSources, type UnitResult } from '../../src/refdata/builder/builder.js';
import { allLoaders } from '../../src/refdata/loaders/index.js';
import { machineLine } from './machine.js';

const config = loadConfig(process.argv.slice(2));
const sourcesDir = config.refdataDir;
process.stdout.write(`refdata build benchmark over ${sourcesDir}\n${machineLine()}\n\n`);

// Baseline: stream every unit's bytes (ZIP inflate, gunzip, plain read) and discard them.
const files = await scanSources(sourcesDir);
const { planned } = await planBuild(files, allLoaders);
let baselineBytes = 0;
const baseStart = performance.now();
for (const p of planned) {
  const opened = await openBytes({ path: p.file.path, member: p.unit.member });
  await new Promise<void>((resolve, reject) => {
    opened.stream.on('end', resolve).on('error', reject).resume();
  });
  baselineBytes += opened.bytesRead();
  await opened.close();
}
const baseMs = performance.now() - baseStart;

const dir = await mkdtemp(join(tmpdir(), 'refdata-bench-'));
const child = spawnSync(process.execPath, ['--import', 'tsx', 'test/bench/refdata-build-child.ts', sourcesDir, join(dir, 'reference.sqlite')], {
  encoding: 'utf8',
  maxBuffer: 64 * 1024 * 1024,
});
await rm(dir, { recursive: true, force: true });
if (child.status !== 0) {
  process.stderr.write(child.stderr);
  throw new Error(`build failed with exit code ${child.status}`);
}
const build = JSON.parse(child.stdout.trim().split('\n').at(-1) ?? '{}') as { ms: number; maxRssKb: number; units: UnitResult[]; skipped: number };

const byDataset = new Map<string, { rows: number; bytes: number; ms: number; units: number }>();
for (const u of build.units) {
  const d = byDataset.get(u.dataset) ?? { rows: 0, bytes: 0, ms: 0, units: 0 };
  byDataset.set(u.dataset, { rows: d.rows + u.rows, bytes: d.bytes + u.bytes, ms: d.ms + u.ms, units: d.units + 1 });
}
const pad = (s: string, n: number): string => s.padEnd(n);
const num = (n: number): string => Math.round(n).toLocaleString('en-US');
process.stdout.write(`${pad('dataset', 28)}${'units'.padStart(6)}${'rows'.padStart(12)}${'MB'.padStart(9)}${'seconds'.padStart(9)}${'rows/s'.padStart(12)}\n`);
for (const [dataset, d] of [...byDataset.entries()].sort()) {
  process.stdout.write(
    `${pad(dataset, 28)}${String(d.units).padStart(6)}${num(d.rows).padStart(12)}${(d.bytes / 1e6).toFixed(1).padStart(9)}${(d.ms / 1000).toFixed(2).padStart(9)}${num(d.ms > 0 ? (d.rows / d.ms) * 1000 : 0).padStart(12)}\n`,
  );
}
const totalRows = build.units.reduce((n, u) => n + u.rows, 0);
const rssMb = build.maxRssKb / 1024;
process.stdout.write(`
baseline (read + decompress the same ${planned.length} units, no parsing): ${(baselineBytes / 1e6).toFixed(1)} MB in ${(baseMs / 1000).toFixed(2)} s = ${(baselineBytes / 1e6 / (baseMs / 1000)).toFixed(1)} MB/s
full build: ${(build.ms / 1000).toFixed(1)} s wall, ${num(totalRows)} rows (${num((totalRows / build.ms) * 1000)} rows/s), peak RSS ${rssMb.toFixed(0)} MB, ${build.skipped} files skipped
build time / baseline time: ${(build.ms / baseMs).toFixed(1)}x
targets: build < 90 s ${build.ms < 90_000 ? 'MET' : 'MISSED'}; peak RSS < 1024 MB ${rssMb < 1024 ? 'MET' : 'MISSED'}
`);
