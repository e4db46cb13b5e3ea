// NLP index benchmark (issue 14 §4). Two parts:
//
// 1. Engine, one core, in this process: the dictionary built from the reference database (time, entries, heap),
//    then notes of about 1 KB, 10 KB and 100 KB made of the gold set's snippets (test/nlp/gold, headings included)
//    in a seeded order, each indexed repeatedly for at least a second: MB/s of text and mentions found. Baseline in
//    the same run: the bare pass any extractor makes over the same text (the token regex alone, counting tokens).
// 2. HTTP: POST /NLP/v2/index with a 5 KB note at 16 connections against our server (as `npm run serve` runs it,
//    auth off) and a bare node:http server answering a body of the same size, median of the rounds.
// Targets: at least 5 MB/s per core; HTTP p99 under 20 ms for 5 KB.
//
// Usage: npm run bench -- nlp [--duration=5] [--connections=16] [--rounds=3]
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { indexDocument, nlpDictionaryOf } from '../../src/engines/nlp/index.js';
import { openReference } from '../../src/reference/index.js';
import { loadFlags, seededSampler } from './harness.js';
import { placement, printResults, roundsAgainstBare, startTarget, type LoadOptions } from './load.js';
import { machineLine } from './machine.js';

const { duration, connections, rounds: roundCount } = loadFlags({ connections: 16 });
const dbPath = process.env['REFDATA_DB'] ?? 'data/build/reference.sqlite';
const DATE = '2026-05-15';
const TARGET_MB_S = 5;
const TARGET_HTTP_P99 = 20;
const out = process.stdout;

// Step 1: notes of each size from the gold snippets, in a seeded order.
const goldDir = join('test', 'nlp', 'gold');
const snippets = ['snippets.json', 'held-out.json'].flatMap((f) => {
  try {
    return (JSON.parse(readFileSync(join(goldDir, f), 'utf8')) as { text: string }[]).map((s) => s.text);
  } catch {
    return [];
  }
});
const { pick } = seededSampler(0x4e4c50);
function noteOf(bytes: number): string {
  const parts: string[] = [];
  let size = 0;
  while (size < bytes) {
    const s = pick(snippets);
    parts.push(s);
    size += Buffer.byteLength(s) + 2;
  }
  return parts.join('\n\n');
}

// Step 2: the dictionary.
const ref = openReference(dbPath);
const heapBefore = process.memoryUsage().heapUsed;
const t0 = performance.now();
const dict = nlpDictionaryOf(ref, DATE);
const buildMs = performance.now() - t0;
globalThis.gc?.();
const heapMb = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20;
out.write(
  `NLP benchmark: notes made of ${String(snippets.length)} gold snippets\n${machineLine()}\nreference: ${dbPath}\n\n` +
    `dictionary: ${dict.bags.toLocaleString('en-US')} word bags, ${dict.words.size.toLocaleString('en-US')} words; built in ${(buildMs / 1000).toFixed(1)} s on first use, heap +${heapMb.toFixed(0)} MB\n` +
    `engine, one core (each size indexed repeatedly for at least 1 s):\n`,
);

/** Runs `fn` over `text` until a second has passed; MB/s. */
function rate(text: string, fn: (t: string) => number): { mbs: number; perCall: number; msPerCall: number } {
  const bytes = Buffer.byteLength(text);
  fn(text);
  let calls = 0;
  let n = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < 1000) {
    n = fn(text);
    calls++;
    elapsed = performance.now() - start;
  }
  return { mbs: (bytes * calls) / 2 ** 20 / (elapsed / 1000), perCall: n, msPerCall: elapsed / calls };
}
const TOKEN = /[\p{L}\p{N}]+(?:[-/'’][\p{L}\p{N}]+)*/gu;
const bareScan = (t: string): number => {
  let n = 0;
  TOKEN.lastIndex = 0;
  while (TOKEN.exec(t) !== null) {
    n++;
  }
  return n;
};
let worst = Number.POSITIVE_INFINITY;
for (const size of [1024, 10 * 1024, 100 * 1024]) {
  const text = noteOf(size);
  const base = rate(text, bareScan);
  const engine = rate(text, (t) => indexDocument(ref, t, DATE).length);
  worst = Math.min(worst, engine.mbs);
  out.write(
    `  ${`${String(Math.round(Buffer.byteLength(text) / 1024))} KB note`.padEnd(12)} indexDocument ${engine.mbs.toFixed(1).padStart(6)} MB/s (${String(engine.perCall)} mentions, ${engine.msPerCall.toFixed(2)} ms per note)   ` +
      `baseline, token regex alone ${base.mbs.toFixed(1).padStart(6)} MB/s   engine/baseline ${((engine.mbs / base.mbs) * 100).toFixed(0)}%\n`,
  );
}
out.write(`target: >= ${String(TARGET_MB_S)} MB/s per core at every size: ${worst >= TARGET_MB_S ? 'MET' : 'MISSED'} (slowest ${worst.toFixed(1)} MB/s)\n\n`);
ref.close();

// Step 3: HTTP, a 5 KB note, our server against a bare node:http server answering a body of the same size.
const note = noteOf(5 * 1024);
const body = JSON.stringify({ text: note });
const PATH = '/NLP/v2/index';
const opts: LoadOptions = { connections, seconds: duration, method: 'POST', headers: { 'Content-Type': 'application/json' }, body };
const dir = mkdtempSync(join(tmpdir(), 'bench-nlp-'));
const bodyFile = join(dir, 'nlp.json');
const probe = await startTarget(['reference', '--db', dbPath]);
const answer = await fetch(`${probe.info.url}${PATH}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
const answerText = await answer.text();
await probe.stop();
if (answer.status !== 200) {
  throw new Error(`DocumentV2 answered ${String(answer.status)}: ${answerText.slice(0, 300)}`);
}
writeFileSync(bodyFile, answerText);
out.write(
  `DocumentV2 over HTTP: ${String(roundCount)} rounds of ${String(duration)} s per target (median shown), ${String(connections)} connections, ` +
    `a ${String(Buffer.byteLength(note))}-byte note (${String((JSON.parse(answerText) as { result: unknown[] }).result.length)} mentions, ${String(Buffer.byteLength(answerText))}-byte answer); ${placement}, auth off\n`,
);
// The first request builds the dictionary (as on a fresh server): done before the warm-up.
const results = await roundsAgainstBare({
  rounds: roundCount,
  bodyFile,
  bareLabel: 'bare node:http (same-size body)',
  bareOpts: opts,
  label: 'DocumentV2, POST /NLP/v2/index, 5 KB',
  dbPath,
  url: (base) => `${base}${PATH}`,
  opts,
  first: (base) => fetch(`${base}${PATH}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body }),
});
rmSync(dir, { recursive: true, force: true });
printResults(results);
const ours = results[1];
if (ours !== undefined) {
  out.write(
    `\ntarget: HTTP p99 < ${String(TARGET_HTTP_P99)} ms for 5 KB at ${String(connections)} connections: ${ours.p99 < TARGET_HTTP_P99 ? 'MET' : 'MISSED'} (${ours.p99.toFixed(1)} ms)\n`,
  );
}
