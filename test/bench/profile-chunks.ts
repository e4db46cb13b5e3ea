// Profiling aid (not a benchmark): runs the scrub worker's chunk function on one thread over a claim CSV, so
// `node --cpu-prof --import tsx test/bench/profile-chunks.ts FILE` shows where a worker's time goes.
import { createReadStream } from 'node:fs';
import { readCsvRowGroups } from '../../src/readers/claims/csv.js';
import type { CsvColumnMap } from '../../src/readers/claims/csv-claims.js';
import { openReference } from '../../src/reference/index.js';
import type { WorkUnit } from '../../src/workers/messages.js';
import { scrubChunk } from '../../src/workers/scrub-chunk.js';

const file = process.argv[2] ?? '';
const limit = Number(process.argv[3] ?? '1e12');
const ref = openReference(process.env['REFDATA_DB'] ?? 'data/build/reference.sqlite', { mmapBytes: 0, cacheMb: 32 });
let t = performance.now();
ref.load();
process.stderr.write(`load ${(performance.now() - t).toFixed(0)} ms\n`);
const chunks: { units: WorkUnit[]; columns: CsvColumnMap }[] = [];
let units: WorkUnit[] = [];
let columns: CsvColumnMap | undefined;
let claims = 0;
for await (const g of readCsvRowGroups(createReadStream(file), 'f')) {
  columns = g.columns;
  units.push({ t: 'csv', group: g.group });
  if (units.length === 256) {
    chunks.push({ units, columns });
    units = [];
  }
  if (++claims >= limit) {
    break;
  }
}
if (units.length > 0 && columns !== undefined) {
  chunks.push({ units, columns });
}
for (let pass = 1; pass <= Number(process.env['PASSES'] ?? '1'); pass++) {
t = performance.now();
let lines = 0;
const sums = { read: 0, validate: 0, render: 0 };
for (const [i, c] of chunks.entries()) {
  const r = scrubChunk(ref, { file: 'f', columns: c.columns, units: c.units, checks: undefined, reports: { csv: true, ndjson: false }, firstOrder: i * 256, crossClaim: true });
  lines += r.stats.linesScrubbed + r.stats.linesRejected;
  sums.read += r.stats.readMs;
  sums.validate += r.stats.validateMs;
  sums.render += r.stats.renderMs;
}
const ms = performance.now() - t;
process.stderr.write(`pass ${pass}: ${lines} lines in ${ms.toFixed(0)} ms = ${((lines / ms) * 1000).toFixed(0)} lines/s; read ${sums.read.toFixed(0)} validate ${sums.validate.toFixed(0)} render ${sums.render.toFixed(0)}\n`);
}
const mu = process.memoryUsage();
process.stderr.write(`memory: rss ${(mu.rss / 2 ** 20).toFixed(0)} MB, heapTotal ${(mu.heapTotal / 2 ** 20).toFixed(0)}, heapUsed ${(mu.heapUsed / 2 ** 20).toFixed(0)}, external ${(mu.external / 2 ** 20).toFixed(0)}, arrayBuffers ${(mu.arrayBuffers / 2 ** 20).toFixed(0)}, maxRSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)}\n`);
