import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { expect, test } from 'vitest';
import { csvColumnMap } from '../../src/readers/claims/csv-claims.js';
import { openReference } from '../../src/reference/index.js';
import { CLAIM_CSV_COLUMNS } from '../../src/schemas/claim-csv.js';
import type { ReportText, ScrubTask, WorkUnit } from '../../src/workers/messages.js';
import { balancer, createScrubPool } from '../../src/workers/pool.js';
import { scrubChunk } from '../../src/workers/scrub-chunk.js';
import { sharedReferenceDbPath } from '../helpers/reference-db.js';

/** The id the next worker thread of this process gets, less one: thread ids are handed out in order. */
function lastThreadId(): number {
  const probe = new Worker('', { eval: true });
  void probe.terminate();
  return probe.threadId;
}

test('starts its threads on the first warm-up, not when made: a run that ends before never terminates one mid-load', async () => {
  const before = lastThreadId();
  const pool = createScrubPool(2, await sharedReferenceDbPath());
  try {
    // Only the probe's own thread since: the pool started none (and has no figures yet).
    expect(lastThreadId()).toBe(before + 1);
    expect(pool.stats().runMeanMs).toBe(0);
    const loads = await pool.warm();
    expect(loads).toHaveLength(2);
    // Each warm-up loaded its own thread (two chunks are sent to a thread at once; a warm-up goes to one not warmed).
    expect(new Set(loads.map((l) => l.thread)).size).toBe(2);
    expect(Math.min(...loads.map((l) => l.heapMb))).toBeGreaterThan(20);
    // A pool serves run after run: a second warm-up answers at once from the loaded threads; overlapping ones too
    // (they take turns: each gives every thread one).
    const again = await pool.warm();
    expect(new Set(again.map((l) => l.thread))).toEqual(new Set(loads.map((l) => l.thread)));
    expect(Math.max(...again.map((l) => l.ms))).toBeLessThan(Math.min(...loads.map((l) => l.ms)));
    const overlapping = await Promise.all([pool.warm(), pool.warm(), pool.warm()]);
    for (const o of overlapping) {
      expect(new Set(o.map((l) => l.thread))).toEqual(new Set(loads.map((l) => l.thread)));
    }
    // The probe, the pool's two threads (from TypeScript sources each with its loader's own thread), the probe.
    expect(lastThreadId()).toBeGreaterThanOrEqual(before + 4);
  } finally {
    await pool.close();
  }
  // A pool never asked for work closes without starting a thread.
  const closedAt = lastThreadId();
  const idle = createScrubPool(2, await sharedReferenceDbPath());
  await idle.close();
  expect(lastThreadId()).toBe(closedAt + 1);
  // Closed is closed: no thread starts after it.
  expect(() => idle.warm()).toThrow(/after close\(\)/);
});

/** The balancer's view of a thread and of a task (piscina's PiscinaWorker and PiscinaTask, as much as it reads). */
type Balance = ReturnType<typeof balancer>;
type Thread = Parameters<Balance>[1][number];
const thread = (id: number, currentUsage: number): Thread =>
  ({ id, currentUsage, isRunningAbortableTask: false, histogram: null, terminating: false, destroyed: false }) as Thread;
const task = (name: string): Parameters<Balance>[0] => ({ name }) as Parameters<Balance>[0];

test('a warm-up goes only to an idle thread not warmed yet; a chunk to the least busy thread holding fewer than two', () => {
  const warmed = new Set<number>();
  const pick = balancer({ warmed, alone: new Set() });
  const first = thread(1, 0);
  // Only the first thread has started: it takes one warm-up; the second waits for the other thread, not behind it.
  expect(pick(task('warm'), [first])?.id).toBe(1);
  first.currentUsage = 1;
  expect(pick(task('warm'), [first])).toBeNull();
  first.currentUsage = 0;
  expect(pick(task('warm'), [first])).toBeNull();
  expect(pick(task('warm'), [first, thread(2, 0)])?.id).toBe(2);
  // A later warm() (it empties the set) warms the threads again.
  warmed.clear();
  expect(pick(task('warm'), [first, thread(2, 0)])?.id).toBe(1);
  // Chunks: the least busy thread, at most two each.
  expect(pick(task('scrub'), [thread(1, 1), thread(2, 0)])?.id).toBe(2);
  expect(pick(task('scrub'), [thread(1, 1), thread(2, 2)])?.id).toBe(1);
  expect(pick(task('scrub'), [thread(1, 2), thread(2, 2)])).toBeNull();
  expect(pick(task('scrub'), [{ ...thread(1, 0), terminating: true }, thread(2, 1)])?.id).toBe(2);
});

test('a task to run alone goes to an idle thread, which gets nothing else until it is seen idle again', () => {
  const pick = balancer({ warmed: new Set(), alone: new Set() });
  const [one, two] = [thread(1, 1), thread(2, 0)];
  expect(pick(task('scrubAlone'), [one, two])?.id).toBe(2);
  two.currentUsage = 1;
  // While thread 2 runs it, chunks and other lone tasks go elsewhere or wait.
  expect(pick(task('scrub'), [one, two])?.id).toBe(1);
  one.currentUsage = 2;
  expect(pick(task('scrub'), [one, two])).toBeNull();
  expect(pick(task('scrubAlone'), [one, two])).toBeNull();
  one.currentUsage = 0;
  expect(pick(task('scrubAlone'), [one, two])?.id).toBe(1);
  one.currentUsage = 1;
  expect(pick(task('scrub'), [one, two])).toBeNull();
  // Done: thread 2 takes chunks again.
  two.currentUsage = 0;
  expect(pick(task('scrub'), [one, two])?.id).toBe(2);
});

test('closing waits for threads still loading their modules: closed at once after a warm-up began, never an abort', async () => {
  // Node 20 can abort the process (V8 IsGraphAsync, exit 134) when a thread is terminated while it loads its
  // modules: a child process closes pools whose threads have just started, again and again.
  const db = await sharedReferenceDbPath();
  const script = `
    import { createScrubPool } from ${JSON.stringify(new URL('../../src/workers/pool.ts', import.meta.url).href)};
    let waited = 0;
    for (let i = 0; i < 6; i++) {
      const pool = createScrubPool(2, ${JSON.stringify(db)});
      const warming = pool.warm().catch(() => 'terminated');
      const t0 = performance.now();
      await pool.close();
      waited += performance.now() - t0;
      await warming;
    }
    console.log(JSON.stringify({ waited }));
  `;
  // A script file, not -e: threads inherit the process's flags, and --input-type stops them loading files.
  const file = join(mkdtempSync(join(tmpdir(), 'pool-close-')), 'close.mjs');
  writeFileSync(file, script);
  const run = spawnSync(process.execPath, ['--import', 'tsx', file], { encoding: 'utf8', timeout: 240_000 });
  expect(run.stderr).not.toMatch(/FATAL|IsGraphAsync/);
  expect(run.status).toBe(0);
  // Each close waited for its threads to load their modules (a close that destroyed them at once took 1-10 ms).
  const { waited } = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '{}') as { waited: number };
  expect(waited / 6).toBeGreaterThan(30);
}, 300_000);

test("a chunk's report texts come back as UTF-8 bytes, the bytes the chunk makes in this thread, past Latin-1 too", async () => {
  const db = await sharedReferenceDbPath();
  const ref = openReference(db, { mmapBytes: 0, cacheMb: 16 });
  const pool = createScrubPool(1, db);
  try {
    const header = CLAIM_CSV_COLUMNS.join(',');
    const columns = csvColumnMap(header.split(','), 'f.csv');
    const row = (cells: Partial<Record<(typeof CLAIM_CSV_COLUMNS)[number], string>>): string =>
      CLAIM_CSV_COLUMNS.map((c) => cells[c] ?? '').join(',');
    const claim = { patientId: 'P1', claimType: 'professional', dateOfServiceFrom: '2026-05-15', diagnosisCodes: 'E11.9' };
    const units: WorkUnit[] = [
      // An add-on code without any of its many primaries: the fix lists ten of them and "… (N in all)".
      { t: 'csv', group: { claimId: 'A1', records: [{ text: row({ ...claim, claimId: 'A1', lineNumber: '1', procedureCode: '20938' }), line: 2 }] } },
      // A claim type cut to 64 characters with "…" in rejected.csv.
      { t: 'csv', group: { claimId: 'R1', records: [{ text: row({ ...claim, claimId: 'R1', lineNumber: '1', procedureCode: '99213', claimType: 'x'.repeat(80) }), line: 3 }] } },
    ];
    const task: ScrubTask = { file: 'f.csv', columns, units, checks: undefined, reports: { csv: true, ndjson: true }, firstOrder: 0, crossClaim: true };
    await pool.warm();
    const moved = await pool.scrub(task);
    const here = scrubChunk(ref, task);
    const text = (t: ReportText): string => (typeof t === 'string' ? t : new TextDecoder().decode(t));
    for (const key of ['findingsCsv', 'findingsNdjson', 'rejectedCsv', 'claimFrames'] as const) {
      expect(moved[key]).toBeInstanceOf(Uint8Array);
      expect(text(moved[key])).toBe(text(here[key]));
    }
    expect(text(here.findingsCsv)).toContain('… (');
    expect(text(here.findingsNdjson)).toContain('… (');
    expect(text(here.rejectedCsv)).toContain('…');
    expect(moved.stats).toEqual({ ...here.stats, readMs: moved.stats.readMs, validateMs: moved.stats.validateMs, renderMs: moved.stats.renderMs });
  } finally {
    ref.close();
    await pool.close();
  }
}, 120_000);
