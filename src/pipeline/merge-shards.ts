// `scrub merge DIR... --out OUT` (issue 12 §7): the reports of the N shards of one run combined into the files one
// unsharded run writes. Each shard wrote its per-claim reports in claim order and a shard-index.csv saying, per
// claim, its position in the whole run and how many bytes it added to each report; the merge interleaves the
// shards' bytes by that position without parsing a report row:
//
//   shard-index.csv of each shard ──k-way by claimOrder──> copy the claim's bytes of findings.csv / findings.ndjson /
//     claims.csv / rejected.csv from that shard ──> OUT   (part `claim`, then part `batch`: cross-claim findings)
//   shard.json of each shard ──add the counts──> summary.json, report.html; 277CA and warnings per 837 input
//
// The per-claim reports come out byte-identical to an unsharded run's; summary.json differs only in timings and
// dates, and the 277CA in its creation date and time (the run's start).
import { existsSync } from 'node:fs';
import { mkdir, open, readFile, stat, type FileHandle } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { errorCode, OutputError, ScrubberError } from '../errors.js';
import { builtFrom, SHARD_MANIFEST_VERSION, ShardManifest, type ScrubSummary } from '../schemas/scrub.js';
import { addStats, emptyStats } from '../workers/messages.js';
import { finishRun } from './finish-run.js';
import { CHECKPOINT, removeEarlierReports, REPORTS, ReportFile, SHARD_MANIFEST } from './run-files.js';
import { buildSummary } from './summary.js';

const SHARD_INDEX = REPORTS.shardIndex.file;

/** The merged reports, in the order of shard-index.csv's byte columns, and the format that asks for each. */
const MERGED = [
  { ...REPORTS.findingsCsv, format: 'csv' },
  { ...REPORTS.findingsNdjson, format: 'ndjson' },
  { ...REPORTS.claimsCsv, format: undefined },
  { ...REPORTS.rejectedCsv, format: undefined },
] as const;

const BUFFER_BYTES = 1 << 20;

/** Reads a file front to back in slices of given lengths. */
class SliceReader {
  private buffer = Buffer.alloc(0);
  private at = 0;
  private position: number;

  constructor(
    readonly path: string,
    private readonly handle: FileHandle,
    start: number,
    readonly size: number,
  ) {
    this.position = start;
  }

  /** The next `n` bytes. */
  async take(n: number): Promise<Buffer> {
    if (n === 0) {
      return Buffer.alloc(0);
    }
    if (this.buffer.length - this.at < n) {
      const keep = this.buffer.subarray(this.at);
      const want = Math.max(n - keep.length, BUFFER_BYTES);
      const fresh = Buffer.alloc(want);
      const { bytesRead } = await this.handle.read(fresh, 0, want, this.position);
      this.position += bytesRead;
      this.buffer = Buffer.concat([keep, fresh.subarray(0, bytesRead)]);
      this.at = 0;
      if (this.buffer.length < n) {
        throw new ScrubberError('INPUT_FORMAT', `${this.path} ends before the bytes its shard-index.csv lists: the shard's reports are incomplete`);
      }
    }
    const out = this.buffer.subarray(this.at, this.at + n);
    this.at += n;
    return out;
  }

  /** Whether every byte was taken. */
  done(): boolean {
    return this.position === this.size && this.at === this.buffer.length;
  }
}

/** One shard-index.csv row. */
interface IndexRow {
  readonly part: 'claim' | 'batch';
  readonly order: number;
  readonly bytes: readonly number[];
}

/** A shard being merged: its index rows, one ahead, and a reader per report. */
interface ShardCursor {
  readonly dir: string;
  readonly rows: AsyncIterator<IndexRow>;
  next: IndexRow | undefined;
  readonly readers: (SliceReader | undefined)[];
}

/** The rows of a shard's shard-index.csv. */
async function* indexRows(path: string): AsyncGenerator<IndexRow> {
  const header = REPORTS.shardIndex.header.trimEnd();
  const handle = await open(path, 'r');
  try {
    let n = 0;
    for await (const text of createInterface({ input: handle.createReadStream({ autoClose: false }), crlfDelay: Infinity })) {
      n++;
      if (n === 1) {
        if (text !== header) {
          throw new ScrubberError('INPUT_FORMAT', `${path}: not a shard index (header ${JSON.stringify(text)})`);
        }
        continue;
      }
      const cells = text.split(',');
      const nums = cells.slice(1).map(Number);
      const part = cells[0];
      if ((part !== 'claim' && part !== 'batch') || nums.length !== MERGED.length + 1 || nums.some((x) => !Number.isInteger(x) || x < 0)) {
        throw new ScrubberError('INPUT_FORMAT', `${path} line ${String(n)}: not a shard-index row: ${JSON.stringify(text.slice(0, 80))}`);
      }
      yield { part, order: nums[0] as number, bytes: nums.slice(1) };
    }
  } finally {
    await handle.close();
  }
}

/** A min-heap of shard cursors by their next row's claim order. */
class CursorHeap {
  private readonly items: ShardCursor[] = [];

  get size(): number {
    return this.items.length;
  }

  push(c: ShardCursor): void {
    const a = this.items;
    a.push(c);
    let i = a.length - 1;
    while (i > 0) {
      const up = (i - 1) >> 1;
      if (orderOf(a[up]) <= orderOf(a[i])) {
        break;
      }
      [a[up], a[i]] = [a[i] as ShardCursor, a[up] as ShardCursor];
      i = up;
    }
  }

  pop(): ShardCursor | undefined {
    const a = this.items;
    const top = a[0];
    const last = a.pop();
    if (a.length > 0 && last !== undefined) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && orderOf(a[l]) < orderOf(a[m])) {
          m = l;
        }
        if (r < a.length && orderOf(a[r]) < orderOf(a[m])) {
          m = r;
        }
        if (m === i) {
          break;
        }
        [a[m], a[i]] = [a[i] as ShardCursor, a[m] as ShardCursor];
        i = m;
      }
    }
    return top;
  }
}
const orderOf = (c: ShardCursor | undefined): number => c?.next?.order ?? Number.POSITIVE_INFINITY;

/** Reads and checks the shards' manifests: one run, every shard from 0 to N-1 once, each finished. */
async function readManifests(dirs: readonly string[]): Promise<ShardManifest[]> {
  const manifests: ShardManifest[] = [];
  for (const dir of dirs) {
    const path = join(dir, SHARD_MANIFEST);
    if (existsSync(join(dir, CHECKPOINT))) {
      throw new ScrubberError('CONFIG', `${dir}: its run has not finished (a checkpoint is there): resume it with --resume`);
    }
    if (!existsSync(path)) {
      throw new ScrubberError('CONFIG', `${dir}: no ${SHARD_MANIFEST}: it holds no shard run`);
    }
    let raw: unknown;
    try {
      raw = JSON.parse(await readFile(path, 'utf8'));
    } catch (e) {
      throw new ScrubberError('CONFIG', `${path} is unreadable: ${e instanceof Error ? e.message : String(e)}`);
    }
    const version = typeof raw === 'object' && raw !== null ? (raw as { version?: unknown }).version : undefined;
    if (typeof version === 'number' && version !== SHARD_MANIFEST_VERSION) {
      throw new ScrubberError(
        'CONFIG',
        `${path} was written by another version of the scrubber (shard manifest version ${String(version)}, this one reads ${String(SHARD_MANIFEST_VERSION)}): scrub that shard again`,
      );
    }
    const parsed = ShardManifest.safeParse(raw);
    if (!parsed.success) {
      throw new ScrubberError('CONFIG', `${path} is not a shard manifest: ${parsed.error.issues[0]?.path.join('.') ?? ''} ${parsed.error.issues[0]?.message ?? ''}`);
    }
    manifests.push(parsed.data);
  }
  const first = manifests[0];
  if (first === undefined) {
    throw new ScrubberError('CONFIG', 'give the shard folders to merge');
  }
  const n = first.shard.count;
  const seen = new Map<number, string>();
  for (const [i, m] of manifests.entries()) {
    const dir = dirs[i] ?? '';
    if (m.runKey !== first.runKey || m.shard.count !== n) {
      throw new ScrubberError('CONFIG', `${dir} is a shard of another run than ${dirs[0] ?? ''} (other inputs, checks, formats or shard count)`);
    }
    // The run key has the inputs' names and sizes; the digests say whether each shard read the same bytes.
    for (const [k, input] of m.inputs.entries()) {
      const theirs = first.inputs[k]?.sha256;
      if (input.sha256 !== theirs) {
        throw new ScrubberError(
          'CONFIG',
          `${dir} read other content for ${input.name} than ${dirs[0] ?? ''} (SHA-256 ${input.sha256 ?? 'none: not read to its end'} against ${theirs ?? 'none: not read to its end'}): its shards are of other inputs`,
        );
      }
    }
    const twin = seen.get(m.shard.index);
    if (twin !== undefined) {
      throw new ScrubberError('CONFIG', `${twin} and ${dir} are both shard ${String(m.shard.index)}/${String(n)}`);
    }
    seen.set(m.shard.index, dir);
  }
  const missing = Array.from({ length: n }, (_, k) => k).filter((k) => !seen.has(k));
  if (missing.length > 0) {
    throw new ScrubberError('CONFIG', `shard${missing.length > 1 ? 's' : ''} ${missing.slice(0, 10).join(', ')}${missing.length > 10 ? '…' : ''} of ${String(n)} missing`);
  }
  return manifests;
}

/**
 * Merges the reports of the shards in `dirs` into `outDir`.
 * @returns the merged run's summary (also written as summary.json)
 * @throws ScrubberError CONFIG when the folders are not every shard of one finished run; INPUT_FORMAT when a
 *   shard's reports disagree with its index; OutputError when a report cannot be written
 */
export async function mergeShards(dirs: readonly string[], outDir: string, note: (text: string) => void = () => undefined): Promise<ScrubSummary> {
  const t0 = performance.now();
  const manifests = await readManifests(dirs);
  const first = manifests[0] as ShardManifest;
  if (dirs.some((d) => resolve(d) === resolve(outDir))) {
    throw new ScrubberError('CONFIG', `--out ${outDir} is one of the shard folders: merge into another folder`);
  }
  // Hosts that each built the reference from the same files share its build key (their build times differ): a
  // shard scrubbed against other data would make a merged run no single run can equal.
  const other = manifests.findIndex((m) => builtFrom(m.reference) !== builtFrom(first.reference));
  if (other >= 0) {
    throw new ScrubberError(
      'CONFIG',
      `${dirs[other] ?? ''} was scrubbed against another reference database than ${dirs[0] ?? ''} (built from other sources: build ${manifests[other]?.reference.builtAt ?? ''} against ${first.reference.builtAt}): scrub its shards against one`,
    );
  }
  const builtAt = new Set(manifests.map((m) => m.reference.builtAt));
  if (builtAt.size > 1) {
    note(`the shards used reference databases built from the same sources at different times (${[...builtAt].join(', ')})`);
  }
  try {
    await mkdir(outDir, { recursive: true });
  } catch (e) {
    throw new OutputError(`cannot create ${outDir}: ${errorCode(e)}`, { cause: e });
  }
  await removeEarlierReports(outDir);
  try {
    return await writeMerged(dirs, manifests, outDir, note, t0);
  } catch (e) {
    // A merge that fails part way (a full disk, a shard report cut short) leaves no reports a nightly job could take
    // for the night's: the partial ones go (the shards keep theirs; the merge can run again).
    await removeEarlierReports(outDir).catch(() => undefined);
    throw e;
  }
}

/** The merge's writing, into an `outDir` emptied of reports (see {@link mergeShards}). */
async function writeMerged(
  dirs: readonly string[],
  manifests: readonly ShardManifest[],
  outDir: string,
  note: (text: string) => void,
  t0: number,
): Promise<ScrubSummary> {
  const first = manifests[0] as ShardManifest;
  // Step 1: open every shard's reports past their headers, and the merged reports.
  const wanted = MERGED.map((r) => r.format === undefined || first.formats[r.format]);
  const handles: FileHandle[] = [];
  const writers: (ReportFile | undefined)[] = [];
  const cursors: ShardCursor[] = [];
  try {
    for (const [i, r] of MERGED.entries()) {
      if (wanted[i] !== true) {
        writers.push(undefined);
        continue;
      }
      const w = await ReportFile.open(join(outDir, r.file), undefined, r.header);
      writers.push(w);
    }
    for (const dir of dirs) {
      const readers: (SliceReader | undefined)[] = [];
      for (const [i, r] of MERGED.entries()) {
        if (wanted[i] !== true) {
          readers.push(undefined);
          continue;
        }
        const path = join(dir, r.file);
        const handle = await open(path, 'r');
        handles.push(handle);
        const head = Buffer.byteLength(r.header, 'utf8');
        const got = Buffer.alloc(head);
        await handle.read(got, 0, head, 0);
        if (got.toString('utf8') !== r.header) {
          throw new ScrubberError('INPUT_FORMAT', `${path} does not start with the report's header`);
        }
        readers.push(new SliceReader(path, handle, head, (await stat(path)).size));
      }
      const rows = indexRows(join(dir, SHARD_INDEX))[Symbol.asyncIterator]();
      const firstRow = await rows.next();
      cursors.push({ dir, rows, next: firstRow.done === true ? undefined : firstRow.value, readers });
    }

    // Step 2: part `claim`, then part `batch`, each in claim order across the shards.
    for (const part of ['claim', 'batch'] as const) {
      const heap = new CursorHeap();
      for (const c of cursors) {
        if (c.next?.part === part) {
          heap.push(c);
        }
      }
      let last = -1;
      for (let c = heap.pop(); c !== undefined; c = heap.pop()) {
        const row = c.next as IndexRow;
        if (row.order <= last) {
          throw new ScrubberError('INPUT_FORMAT', `${join(c.dir, SHARD_INDEX)}: claim ${String(row.order)} comes twice or out of order`);
        }
        last = row.order;
        for (const [i, w] of writers.entries()) {
          const reader = c.readers[i];
          const n = row.bytes[i] ?? 0;
          if (w !== undefined && reader !== undefined) {
            await w.add(await reader.take(n));
          } else if (n > 0) {
            throw new ScrubberError('INPUT_FORMAT', `${join(c.dir, SHARD_INDEX)} lists bytes of ${MERGED[i]?.file ?? ''}, which the run did not write`);
          }
        }
        const next = await c.rows.next();
        c.next = next.done === true ? undefined : next.value;
        if (c.next?.part === part) {
          heap.push(c);
        } else if (part === 'batch' && c.next !== undefined) {
          throw new ScrubberError('INPUT_FORMAT', `${join(c.dir, SHARD_INDEX)}: a claim row after the batch rows`);
        }
      }
    }
    for (const c of cursors) {
      if (c.next !== undefined) {
        throw new ScrubberError('INPUT_FORMAT', `${join(c.dir, SHARD_INDEX)}: rows out of order`);
      }
      const left = c.readers.find((r) => r !== undefined && !r.done());
      if (left !== undefined) {
        throw new ScrubberError('INPUT_FORMAT', `${left.path} has bytes its shard-index.csv does not list: the shard's reports and index disagree`);
      }
    }
    for (const w of writers) {
      await w?.flush();
    }
  } finally {
    for (const h of handles) {
      await h.close();
    }
    for (const w of writers) {
      await w?.close();
    }
  }

  // Step 3: the counts added up, checked, and the summary with the last reports.
  const stats = emptyStats();
  for (const m of manifests) {
    addStats(stats, m.stats);
  }
  if (stats.fileProblems !== undefined) {
    // Every shard's first problems, not the first 100 in the order the shards were given: the summary keeps the
    // first 100 in input order, as one run's does (each shard kept its own first 100).
    stats.fileProblems.first = manifests.flatMap((m) => m.stats.fileProblems?.first ?? []);
  }
  const linesRead = first.inputs.reduce((n, i) => n + i.linesRead, 0);
  const claimsRead = first.inputs.reduce((n, i) => n + i.claims, 0);
  if (stats.claims !== claimsRead || stats.linesScrubbed + stats.linesRejected !== linesRead) {
    throw new ScrubberError(
      'INPUT_FORMAT',
      `the shards account for ${String(stats.claims)} of ${String(claimsRead)} claims and ${String(stats.linesScrubbed + stats.linesRejected)} of ${String(linesRead)} lines: a shard is incomplete or of other inputs`,
    );
  }
  stats.claimsElsewhere = 0;
  stats.linesElsewhere = 0;
  const timings = manifests.map((m) => m.timing);
  const sum = (f: (t: (typeof timings)[number]) => number): number => timings.reduce((n, t) => n + f(t), 0);
  const summary = buildSummary({
    stats,
    inputs: first.inputs,
    startedAt: manifests.map((m) => m.startedAt).sort()[0] ?? first.startedAt,
    resumed: false,
    reference: first.reference,
    timing: {
      // The shards ran side by side: the run took as long as the slowest, plus this merge.
      elapsedMs: Math.max(...timings.map((t) => t.elapsedMs)) + (performance.now() - t0),
      workers: sum((t) => t.workers),
      workerLoad: timings.flatMap((t) => t.workerLoad),
      read: sum((t) => t.read),
      wait: sum((t) => t.wait),
      write: sum((t) => t.write),
      crossClaim: sum((t) => t.crossClaim),
      peakRssMb: Math.max(...timings.map((t) => t.peakRssMb)),
    },
    reports: [...MERGED.filter((_, i) => wanted[i] === true).map((r) => r.file), 'summary.json', 'report.html'],
    history: first.history,
    checks: first.checks,
  });
  await finishRun(outDir, first.inputs, summary, { csv: first.formats.csv, note, acks: true });
  return summary;
}
