// Search benchmark (issue 13 §5). Two parts:
//
// 1. Engine, one core, in this process: the index built from the reference database (time and size), then 1,000
//    mixed queries (the relevance list of test/search, prefixes of its words, and its words with two letters
//    swapped), each run alone through lookupSearch: p50/p99 per query and queries/s, on a first pass (nothing
//    remembered) and a second. Baseline in the same run: the index's bare posting-list lookup of the same queries'
//    rarest word (what any inverted index must do), so the cost of ranking, facets and notes shows.
// 2. HTTP: GET /lookupLtd?search=… of the same 1,000 queries in turn (test/bench/cannon.ts) at 16 connections against
//    our server (as `npm run serve` runs it, auth off) and a bare node:http server answering a body of the same size.
//    Targets: engine p99 under 5 ms; HTTP p99 under 10 ms.
//
// Usage: npm run bench -- search [--duration=5] [--connections=16] [--rounds=3]
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lookupSearch, searchIndexOf } from '../../src/engines/search/index.js';
import { prefixRange } from '../../src/engines/search/search-index.js';
import { openReference } from '../../src/reference/index.js';
import { textWords } from '../../src/schemas/search-text.js';
import { loadFlags, seededSampler } from './harness.js';
import { placement, printResults, roundsAgainstBare, startTarget, type LoadOptions } from './load.js';
import { machineLine } from './machine.js';

const { duration, connections, rounds: roundCount } = loadFlags({ connections: 16 });
const dbPath = process.env['REFDATA_DB'] ?? 'data/build/reference.sqlite';
const DATE = '2026-05-15';
const TARGET_ENGINE_P99 = 5;
const TARGET_HTTP_P99 = 10;

interface Query {
  readonly search: string;
  readonly codeSet?: string | undefined;
  readonly includeIndex?: boolean | undefined;
  readonly dateOfService?: string | undefined;
}

// Step 1: 1,000 queries: the relevance list, prefixes of its words, and its words with two letters swapped.
const cases = JSON.parse(readFileSync('test/search/relevance-cases.json', 'utf8')) as {
  query: string;
  options: { codeSet?: string; includeIndex?: boolean; dateOfService?: string };
}[];
const { random, pick } = seededSampler(20261125);
const queries: Query[] = cases.map((c) => ({ search: c.query, ...c.options }));
while (queries.length < 1000) {
  const c = pick(cases);
  const words = c.query.split(' ');
  const w = pick(words);
  let search: string;
  if (random() < 0.5 || w.length < 5) {
    // A prefix of 3 letters or more of one word, the others whole (a coder still typing).
    const cut = Math.max(3, Math.floor(w.length * (0.5 + random() * 0.4)));
    search = words.map((x) => (x === w ? x.slice(0, cut) : x)).join(' ');
  } else {
    const at = 1 + Math.floor(random() * (w.length - 2));
    const swapped = w.slice(0, at) + (w[at + 1] ?? '') + (w[at] ?? '') + w.slice(at + 2);
    search = words.map((x) => (x === w ? swapped : x)).join(' ');
  }
  queries.push({ search, ...c.options });
}

// Step 2: the engine on one core.
const ref = openReference(dbPath);
ref.load();
const heap0 = process.memoryUsage().heapUsed;
const b0 = performance.now();
const index = searchIndexOf(ref);
const buildMs = performance.now() - b0;
globalThis.gc?.();
const heapMb = (process.memoryUsage().heapUsed - heap0) / 2 ** 20;
const arrays = [index.start, index.words, index.sorted, index.postStart, index.postings, index.frequency, index.kind, index.system, index.billable];
const arrayMb = arrays.reduce((n, a) => n + a.byteLength, 0) / 2 ** 20;

const quantile = (sorted: readonly number[], q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
function pass(run: (q: Query) => void): { p50: number; p99: number; qps: number } {
  const ms: number[] = [];
  const t0 = performance.now();
  for (const q of queries) {
    const t = performance.now();
    run(q);
    ms.push(performance.now() - t);
  }
  const total = performance.now() - t0;
  ms.sort((a, b) => a - b);
  return { p50: quantile(ms, 0.5), p99: quantile(ms, 0.99), qps: (queries.length / total) * 1000 };
}
const engine = (q: Query): void => {
  lookupSearch(ref, { ...q, dateOfService: q.dateOfService ?? DATE, endRow: 10 });
};
// The baseline: the rarest word's posting list of each query, read once (what any inverted index does first).
const baseline = pass((q) => {
  let best = { lo: 0, hi: 0, size: Number.POSITIVE_INFINITY };
  for (const w of textWords(q.search)) {
    const r = prefixRange(index, w.word);
    const size = (index.postStart[r.hi] ?? 0) - (index.postStart[r.lo] ?? 0);
    if (size < best.size) {
      best = { ...r, size };
    }
  }
  let sum = 0;
  for (let k = index.postStart[best.lo] ?? 0; k < (index.postStart[best.hi] ?? 0); k++) {
    sum += index.postings[k] ?? 0;
  }
  if (sum < 0) {
    throw new Error('unreachable');
  }
});
const first = pass(engine);
const second = pass(engine);
const fmt = (x: number): string => x.toFixed(2);
process.stdout.write(
  `search benchmark: ${String(queries.length)} queries (${String(cases.length)} relevance queries, prefixes, swapped letters)\n${machineLine()}\nreference: ${dbPath}\n\n` +
    `index: ${String(index.docs)} documents, ${String(index.vocabulary.length)} words, ${String(index.postings.length)} postings; built in ${(buildMs / 1000).toFixed(1)} s on the first search; typed arrays ${arrayMb.toFixed(0)} MB, heap after the build +${heapMb.toFixed(0)} MB\n` +
    `engine, one core, each query alone:\n` +
    `  baseline: rarest word's postings read   p50 ${fmt(baseline.p50)} ms  p99 ${fmt(baseline.p99)} ms  ${baseline.qps.toFixed(0)} queries/s\n` +
    `  lookupSearch, first pass                p50 ${fmt(first.p50)} ms  p99 ${fmt(first.p99)} ms  ${first.qps.toFixed(0)} queries/s\n` +
    `  lookupSearch, second pass (remembered)  p50 ${fmt(second.p50)} ms  p99 ${fmt(second.p99)} ms  ${second.qps.toFixed(0)} queries/s\n` +
    `target: engine p99 < ${String(TARGET_ENGINE_P99)} ms (first pass): ${first.p99 < TARGET_ENGINE_P99 ? 'MET' : 'MISSED'}\n\n`,
);
ref.close();

// Step 3: HTTP, our server against a bare node:http server answering a body of the same size.
const pathOf = (q: Query): string =>
  `/lookupLtd?${new URLSearchParams({
    search: q.search,
    dateOfService: q.dateOfService ?? DATE,
    ...(q.codeSet === undefined ? {} : { codeSet: q.codeSet }),
    ...(q.includeIndex === true ? { includeIndex: 'true' } : {}),
  }).toString()}`;
const paths = queries.map(pathOf);
const opts: LoadOptions = { connections, seconds: duration, paths };
const dir = mkdtempSync(join(tmpdir(), 'bench-search-'));
const bodyFile = join(dir, 'search.json');
const probe = await startTarget(['reference', '--db', dbPath]);
writeFileSync(bodyFile, await (await fetch(`${probe.info.url}${paths[0] ?? ''}`)).text());
await probe.stop();
process.stdout.write(
  `LookupSearch over HTTP: ${String(roundCount)} rounds of ${String(duration)} s per target (median shown), ${String(connections)} connections, the ${String(paths.length)} queries in turn; ${placement}, auth off\n`,
);
// The first search builds the index (as it does on a fresh server): done before the warm-up.
const results = await roundsAgainstBare({
  rounds: roundCount,
  bodyFile,
  bareLabel: 'bare node:http (same-size body)',
  bareOpts: { connections, seconds: duration },
  label: 'LookupSearch, 1,000 mixed queries, GET',
  dbPath,
  url: (base) => base,
  opts,
  first: (base) => fetch(`${base}${paths[0] ?? ''}`),
});
rmSync(dir, { recursive: true, force: true });
printResults(results);
const ours = results[1];
if (ours !== undefined) {
  process.stdout.write(
    `\ntarget: HTTP p99 < ${String(TARGET_HTTP_P99)} ms at ${String(connections)} connections: ${ours.p99 < TARGET_HTTP_P99 ? 'MET' : 'MISSED'} (${ours.p99.toFixed(1)} ms)\n`,
  );
}
