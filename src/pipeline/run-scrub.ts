// The batch scrubber (issue 12 §3). One pass over the inputs, in order:
//
//   files ──detect──> reader (CSV rows / NDJSON lines / X12 claims) ──units──> chunks of `chunkClaims`
//     ──pool (bounded: the reader waits while `threads × 4` chunks are in flight)──> worker: text → claim →
//     validateClaims → report text ──in input order──> findings.csv / findings.ndjson / rejected.csv, and a claim
//     frame per claim (its own counts) ──> .scrub-claims.part
//     ──every few seconds──> checkpoint (input position + those files' lengths + counts, written atomically)
//   workers' cross-claim facts per claim ──> CrossClaimStore (SQLite file in --out) ──at the end──> duplicate lines,
//     MUE MAI 2/3 across claims, policy-pack frequency (with --history) ──> findings after every claim's own, and
//     claims.csv from the claim frames with them counted (finish-claims.ts)
//
// The main thread only reads, groups and writes; parsing cells, validation and CSV rendering run in the workers (the
// main thread joins each claim's claims.csv row to its cross-claim counts at the end).
// After a crash `resume` truncates the reports to the checkpoint's lengths and skips the claims already written, so
// the reports come out byte-identical to an uninterrupted run.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { Readable } from 'node:stream';
import Database from 'better-sqlite3';
import { errorCode, OutputError, ScrubberError } from '../errors.js';
import type { RuleId } from '../findings/codes.js';
import { openBytes, sha256File, storedSize, type OpenedBytes } from '../readers/byte-source.js';
import { cutShort, readCsvClaimRecords, readCsvRowGroups } from '../readers/claims/csv.js';
import { FaultAfterData } from '../readers/faults.js';
import { ClaimGatherer, GATHER_DIR_PREFIX } from './group-by-claim.js';
import { listClaimInputs, type ClaimInput } from '../readers/claims/detect.js';
import { claimIdOfJsonLine, readJsonLines } from '../readers/claims/ndjson.js';
import { readX12ClaimBatches } from '../readers/claims/x12.js';
import type { CsvColumnMap } from '../readers/claims/csv-claims.js';
import { isStructural, rejectedLine, rejectedRecord } from '../readers/claims/types.js';
import { claimFrameText, claimRowHead, csvText, REJECTED_TALLY, rejectedRow } from '../reports/rows.js';
import { builtFrom, ScrubSummary, SHARD_MANIFEST_VERSION, type HistorySummary, type RunReference, type ShardManifest } from '../schemas/scrub.js';
import { addStats, countFileProblem, emptyStats, joinedText, type ChunkStats, type ScrubTask, type ScrubTaskResult, type WorkUnit } from '../workers/messages.js';
import type { ScrubPool } from '../workers/pool.js';
import { unitInShard } from '../workers/scrub-chunk.js';
import { inputLinesOfItem, type ShardSpec } from '../workers/shard.js';
import { parseFactsBatch } from '../workers/facts-batch.js';
import { checkHistoryHeader, CrossClaimStore } from './cross-claim-store.js';
import { finishInputs, finishRun } from './finish-run.js';
import { finishClaims } from './finish-claims.js';
import { CHECKPOINT, CLAIMS_PART, CROSS_CLAIM_DB, FINISHED, removeEarlierReports, replaceDurably, REPORTS, ReportFile, SHARD_MANIFEST, syncReports } from './run-files.js';
import { buildSummary, formatCount, historySummary } from './summary.js';
import { BATCH_RULES } from '../engines/validation/index.js';

export { OutputError } from '../errors.js';

/** What to scrub and how. */
export interface ScrubOptions {
  /** Files and folders. */
  readonly inputs: readonly string[];
  readonly outDir: string;
  /** Findings report formats. */
  readonly formats: { readonly csv: boolean; readonly ndjson: boolean };
  /** Continue from the checkpoint in `outDir` when there is one. */
  readonly resume: boolean;
  /** Run only these rules. */
  readonly checks?: readonly RuleId[] | undefined;
  /** Claims per worker task. @default 256 */
  readonly chunkClaims?: number | undefined;
  /** Seconds between checkpoints. @default 2 */
  readonly checkpointSeconds?: number | undefined;
  /** Leave these files out when walking folders (expected reports beside sample files). */
  readonly skip?: ((path: string) => boolean) | undefined;
  /** A history CSV of earlier services (patientId, dateOfService, procedureCode) for the frequency check. */
  readonly history?: string | undefined;
  /** Gather CSV rows by claim id (rows of a claim need not be adjacent), through a temporary SQLite file. */
  readonly groupBy?: boolean | undefined;
  /** Scrub only the claims of this shard (see src/workers/shard.ts); `scrub merge` combines the shards' reports. */
  readonly shard?: ShardSpec | undefined;
}

/** Progress after each chunk written. */
export interface ScrubProgress {
  readonly file: string;
  readonly linesRead: number;
  readonly claims: number;
  readonly elapsedMs: number;
  /**
   * How far the reader is through the inputs, 0 to 1, by stored bytes (compressed ones for gzip and ZIP input);
   * `undefined` with `groupBy`, where a file is read whole before its first claim is scrubbed.
   */
  readonly fraction: number | undefined;
}

/** What the pipeline needs from outside. */
export interface ScrubDeps {
  readonly pool: ScrubPool;
  readonly reference: RunReference;
  readonly onProgress?: ((p: ScrubProgress) => void) | undefined;
  /** Called when the run resumes or starts afresh, with what it found. */
  readonly onNote?: ((note: string) => void) | undefined;
  /** Called after each checkpoint is on disk (tests copy --out there: the state a kill -9 would leave). */
  readonly onCheckpoint?: (() => void) | undefined;
  /**
   * Called once every chunk is written, before the cross-claim checks: the caller may stop the workers there (each
   * holds its reference tables, a few hundred MB, which the end of the run does not need).
   */
  readonly onWorkersDone?: (() => Promise<void>) | undefined;
  /**
   * Called as the run enters each of its last steps, after every chunk is written: they take seconds to a minute on
   * a big night, with no chunk progress to show.
   */
  readonly onStage?: ((stage: string) => void) | undefined;
}


interface FileCount {
  /** Units written (claims, and faults of the file's structure): the position a resumed run skips to. */
  claims: number;
  linesRead: number;
  /** Of those units, the faults of the file's structure (no claims). */
  faults?: number;
  /** Why the input could not be read to its end (the units before it were scrubbed). */
  error?: string;
  /** SHA-256 of the stored bytes, once read to the end (see InputCount.sha256). */
  sha256?: string;
}

/**
 * The files a run appends to as it goes, whose lengths the checkpoint keeps: the findings reports, rejected.csv and
 * the claims part file (claims.csv and shard-index.csv are written from it at the end).
 */
const APPENDED = {
  findingsCsv: REPORTS.findingsCsv,
  findingsNdjson: REPORTS.findingsNdjson,
  rejectedCsv: REPORTS.rejectedCsv,
  claimsPart: { file: CLAIMS_PART, header: '' },
} as const;
type AppendedKey = keyof typeof APPENDED;

/**
 * 11: an unreadable CSV row whose claim id is quoted and holds a comma stays with its claim (it was a claim of its
 * own): a position counted by version 10 may point one claim further on. 10: a claim frame holds the claim's whole
 * claims.csv row as its own findings make it, not only its head. 9: the
 * cross-claim store keeps each claim's lines as one text (claim_fact), not a row per line. 8: the counts say how many clean claims had a check that could not run (cleanNotChecked): a version 7 checkpoint's
 * have no such count. 7: the counts' capped lists (not-checked kinds, providers) keep their smallest keys, not the first met: a version 6
 * checkpoint's would be resumed into other lists than a fresh run's. 6: claims are kept as claim frames in the claims
 * part file, not in claims.csv (their rows wait for the cross-claim findings). 5: the readers cut files into other
 * units (a stray quote no longer runs CSV rows together, an X12 transaction cut short is a file problem too,
 * --group-by keeps an unreadable row with its claim): a position counted by version 4 points elsewhere. 4: each input
 * read to its end has its SHA-256 (a version 3 run's inputs before its position have none, and a merge would refuse
 * the shard). 3: the cross-claim store keeps each MUE edit once (mue_def).
 */
const CHECKPOINT_VERSION = 11;

/** The checkpoint: enough to truncate the reports and skip what is done. */
interface Checkpoint {
  readonly version: typeof CHECKPOINT_VERSION;
  /** Inputs and options it belongs to. */
  readonly key: string;
  /** The parts the key is made of (file names, sizes and dates, options; no patient data), to say what differs. */
  readonly keyParts: readonly string[];
  /** Index of the input being read, and claims of it already written. */
  readonly fileIndex: number;
  readonly claimsDone: number;
  readonly lengths: Record<AppendedKey, number>;
  readonly stats: ChunkStats;
  readonly files: FileCount[];
  readonly startedAt: string;
}

/**
 * Creates a folder and its missing parents one by one (`mkdir` with `recursive` loops for ever under /proc).
 * @throws OutputError when one cannot be made
 */
async function makeDirs(dir: string): Promise<void> {
  const missing: string[] = [];
  for (let p = resolve(dir); !existsSync(p); p = dirname(p)) {
    missing.unshift(p);
    if (dirname(p) === p) {
      break;
    }
  }
  for (const p of missing) {
    try {
      await mkdir(p);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new OutputError(`cannot create ${dir}: ${errorCode(e)}`, { cause: e });
      }
    }
  }
  let isDir: boolean;
  try {
    isDir = (await stat(dir)).isDirectory();
  } catch (e) {
    throw new OutputError(`cannot create ${dir}: ${errorCode(e)}`, { cause: e });
  }
  if (!isDir) {
    throw new OutputError(`cannot create ${dir}: ENOTDIR`);
  }
}

/**
 * The key a checkpoint belongs to: input names, sizes and (with `mtimes`) modification times, the history file's
 * content (SHA-256), checks, report formats and the shard. Without `mtimes` and the shard it is the key the shards of
 * one run share, whatever host each ran on (`scrub merge` refuses shards of different runs).
 */
const keyOf = (parts: readonly string[]): string => createHash('sha256').update(parts.join('\n')).digest('hex');

/** What each part of a run key stands for, by its prefix; a part with none is an input's. */
const KEY_PART_LABELS: readonly (readonly [string, string])[] = [
  ['reference=', 'the reference database'],
  ['history=', '--history'],
  ['checks=', '--checks'],
  ['csv=', '--format'],
  ['ndjson=', '--format'],
  ['groupBy=', '--group-by'],
  ['shard=', '--shard'],
];

/** What two runs' key parts differ in, named for a message (`input x.csv`, `--history`...). */
function keyDifference(a: readonly string[], b: readonly string[]): string[] {
  const inA = new Set(a);
  const inB = new Set(b);
  const label = (part: string): string =>
    KEY_PART_LABELS.find(([prefix]) => part.startsWith(prefix))?.[1] ?? `input ${part.split('\t')[0] ?? ''} (its size or date)`;
  return [...new Set([...a.filter((p) => !inB.has(p)), ...b.filter((p) => !inA.has(p))].map(label))];
}

/**
 * The summary of the run whose reports --out holds, when that run has finished and is this one (same key: inputs,
 * their sizes and times, options, reference); `undefined` otherwise, or when its summary cannot be read.
 */
async function finishedRun(outDir: string, key: string): Promise<ScrubSummary | undefined> {
  try {
    if ((await readFile(join(outDir, FINISHED), 'utf8')).trim() !== key) {
      return undefined;
    }
    const parsed = ScrubSummary.safeParse(JSON.parse(await readFile(join(outDir, 'summary.json'), 'utf8')));
    // Its reports must all be there: moved away, they are written again.
    return parsed.success && parsed.data.reports.every((r) => existsSync(join(outDir, r))) ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The parts of a run key, in order (see {@link keyOf}).
 * @param historyDigest - the `--history` file's SHA-256 ({@link historyDigestOf}), read once per run
 */
async function runKeyParts(
  inputs: readonly ClaimInput[],
  options: ScrubOptions,
  mtimes: boolean,
  historyDigest: string | undefined,
  reference?: ScrubDeps['reference'],
): Promise<string[]> {
  const parts: string[] = [];
  if (mtimes && reference !== undefined) {
    // A resumed run reads the reference the checkpoint's claims were scrubbed with, or its reports would mix two:
    // one built from the same sources (its build key; a pod retried on another host builds its own), else the same
    // build (a database built before build keys were stored).
    parts.push(`reference=${builtFrom(reference)}\t${String(reference.schemaVersion)}`);
  }
  const when = (s: { mtimeMs: number }): string => (mtimes ? `\t${s.mtimeMs}` : '');
  for (const input of inputs) {
    const s = await stat(input.location.path);
    parts.push(`${input.name}\t${s.size}${when(s)}`);
  }
  if (options.history !== undefined && historyDigest !== undefined) {
    // Its content, not its size: a history edited in place (or another machine's, for a shard) counts other services.
    parts.push(`history=${mtimes ? options.history : ''}\t${historyDigest}`);
  }
  parts.push(
    `checks=${options.checks?.join(',') ?? '*'}`,
    `csv=${options.formats.csv}`,
    `ndjson=${options.formats.ndjson}`,
    `groupBy=${options.groupBy === true}`,
  );
  if (mtimes && options.shard !== undefined) {
    parts.push(`shard=${options.shard.index}/${options.shard.count}`);
  }
  return parts;
}

/**
 * The SHA-256 of the `--history` file, read once per run for its keys.
 * @throws ScrubberError INPUT_FORMAT when it is missing, not a file, or cannot be read
 */
async function historyDigestOf(path: string | undefined): Promise<string | undefined> {
  if (path === undefined) {
    return undefined;
  }
  try {
    if (!(await stat(path)).isFile()) {
      throw new ScrubberError('INPUT_FORMAT', `${path}: the history file is not a file`);
    }
    return await sha256File(path);
  } catch (e) {
    if (e instanceof ScrubberError) {
      throw e;
    }
    throw new ScrubberError('INPUT_FORMAT', `${path}: cannot read the history file: ${errorCode(e)}`, { cause: e });
  }
}

/**
 * One unit of an input, in order (with `groupBy`, CSV claims in the order of their first row).
 * @param scratchDir - where `groupBy` gathers rows (the run's --out folder)
 */
async function* unitsOf(
  input: ClaimInput,
  stream: Readable,
  groupBy: boolean,
  scratchDir: string,
): AsyncGenerator<{ unit: WorkUnit; columns?: CsvColumnMap }> {
  switch (input.format) {
    case 'csv':
      if (groupBy) {
        let gatherer: ClaimGatherer | undefined;
        let columns: CsvColumnMap | undefined;
        let lastLine = 0;
        try {
          try {
            for await (const item of readCsvClaimRecords(stream, input.name)) {
              columns = item.columns;
              lastLine = item.record.line;
              gatherer ??= new ClaimGatherer(columns.at.claimId, scratchDir);
              gatherer.add(item.record);
            }
          } catch (e) {
            // The file cannot be read on: any claim gathered so far may have rows past the fault (its rows need not
            // be adjacent), so each is rejected whole, saying so, before the fault goes up; none is lost unreported.
            // A fault after whole data (FaultAfterData) cut no claim.
            if (gatherer !== undefined && columns !== undefined) {
              for (const group of gatherer.groups()) {
                yield { unit: { t: 'csv', group: e instanceof FaultAfterData ? group : cutShort(group, e, lastLine) }, columns };
              }
            }
            throw e;
          }
          if (gatherer !== undefined && columns !== undefined) {
            for (const group of gatherer.groups()) {
              yield { unit: { t: 'csv', group }, columns };
            }
          }
        } finally {
          gatherer?.close();
        }
        return;
      }
      for await (const { columns, group } of readCsvRowGroups(stream, input.name)) {
        yield { unit: { t: 'csv', group }, columns };
      }
      return;
    case 'ndjson':
      for await (const json of readJsonLines(stream)) {
        yield json.problem === undefined
          ? { unit: { t: 'json', text: json.text, line: json.line } }
          : { unit: { t: 'item', item: rejectedLine(input.name, json.line, undefined, json.problem) } };
      }
      return;
    case 'x12':
      for await (const batch of readX12ClaimBatches(stream as AsyncIterable<Buffer>, input.name)) {
        for (const item of batch) {
          yield { unit: { t: 'item', item } };
        }
      }
      return;
    case undefined:
      return; // not a claim file: the run passes over it (see runScrub)
  }
}

/** Whether an error is better-sqlite3's (the cross-claim store's). */
const isSqliteError = (e: unknown): e is Error => e instanceof Error && e.name === 'SqliteError';

/**
 * A SQLite failure of the cross-claim store (a full disk) as the output failure it is (exit 4, the checkpoint kept);
 * any other error as it is. It was a stack trace and exit 70 when it came while the store was opened, the history
 * loaded or the cross-claim checks answered.
 */
function storeFault(e: unknown, outDir: string): unknown {
  return isSqliteError(e)
    ? new OutputError(`cannot write the cross-claim store in ${outDir}: ${e.message}`, { cause: e })
    : e;
}

/**
 * Whether a cross-claim store file has its facts table, read as the store opens it (with its WAL, when it has one);
 * an unreadable file has not.
 */
function storeHasFacts(path: string): boolean {
  try {
    const db = new Database(path, { fileMustExist: true });
    try {
      return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'claim_fact'").get() !== undefined;
    } finally {
      db.close();
    }
  } catch {
    return false;
  }
}

/** Removes the cross-claim store's database file with its WAL and shared-memory files. */
async function removeStore(path: string): Promise<void> {
  for (const suffix of ['', '-wal', '-shm']) {
    await rm(`${path}${suffix}`, { force: true });
  }
}

/** Input lines of a unit as the reader gave it: CSV records, one NDJSON line, an X12 claim's service lines. */
function inputLinesOf(unit: WorkUnit): number {
  switch (unit.t) {
    case 'csv':
      return unit.group.records.length;
    case 'json':
      return 1;
    case 'item':
      return inputLinesOfItem(unit.item);
  }
}

/**
 * Scrubs the inputs into reports in `options.outDir`.
 * @param options - inputs, output folder, formats, resume
 * @param deps - the worker pool, the reference it reads, progress callbacks
 * @returns the run summary (also written as summary.json)
 * @throws ScrubberError INPUT_FORMAT when an input cannot be read at all; OutputError when a report cannot be written
 */
export async function runScrub(options: ScrubOptions, deps: ScrubDeps): Promise<ScrubSummary> {
  const t0 = performance.now();
  const chunkClaims = options.chunkClaims ?? 256;
  const checkpointMs = (options.checkpointSeconds ?? 2) * 1000;
  const note = deps.onNote ?? ((): void => undefined);

  // Step 1: inputs, checkpoint, report files.
  // The reports folder may sit inside an input folder: its files are never inputs (a second run would read them).
  const outAbs = resolve(options.outDir);
  const inOut = (path: string): boolean => resolve(path).startsWith(`${outAbs}${sep}`);
  const inputs = await listClaimInputs(
    options.inputs,
    (path) => inOut(path) || (options.skip?.(path) ?? false),
    (path, first) => note(`${path === first ? path : `${path} (the file ${first})`} is given more than once: read once`),
  );
  if (inputs.length === 0) {
    throw new ScrubberError('INPUT_FORMAT', `no claim files in ${options.inputs.join(', ')}`);
  }
  await makeDirs(options.outDir);
  // Scratch folders of `--group-by` a killed run left behind (claim rows: never kept past their run).
  for (const name of await readdir(options.outDir)) {
    if (name.startsWith(GATHER_DIR_PREFIX)) {
      await rm(join(options.outDir, name), { recursive: true, force: true });
    }
  }
  const historyDigest = await historyDigestOf(options.history);
  const keyParts = await runKeyParts(inputs, options, true, historyDigest, deps.reference);
  const key = keyOf(keyParts);
  // The history file's header is checked before any report is touched: a refused one must not cost the reports of
  // the earlier run in --out.
  if (options.history !== undefined) {
    await checkHistoryHeader(options.history);
  }
  const checkpointPath = join(options.outDir, CHECKPOINT);
  let checkpoint: Checkpoint | undefined;
  if (options.resume && existsSync(checkpointPath)) {
    let saved: Checkpoint;
    try {
      saved = JSON.parse(await readFile(checkpointPath, 'utf8')) as Checkpoint;
    } catch (e) {
      throw new ScrubberError('CONFIG', `${checkpointPath} is unreadable (${e instanceof Error ? e.message : String(e)}): scrub without --resume to start again`);
    }
    if (saved.version !== CHECKPOINT_VERSION) {
      throw new ScrubberError(
        'CONFIG',
        `${checkpointPath} was written by another version of the scrubber (checkpoint version ${String(saved.version)}, this one reads ${String(CHECKPOINT_VERSION)}): scrub without --resume to start again`,
      );
    }
    if (saved.key !== key) {
      const differs = keyDifference(saved.keyParts, keyParts);
      throw new ScrubberError(
        'CONFIG',
        `${checkpointPath} belongs to another run (it differs in ${differs.length > 0 ? differs.join(', ') : 'its inputs or options'}): scrub without --resume to start again`,
      );
    }
    checkpoint = saved;
    note(`resuming: ${saved.stats.claims} claims already written, at input ${saved.fileIndex + 1} of ${inputs.length}`);
  } else if (options.resume) {
    const finished = await finishedRun(options.outDir, key);
    if (finished !== undefined) {
      note(`${options.outDir}: this run has finished (its reports are kept): nothing to resume`);
      return finished;
    }
    note(`no checkpoint in ${options.outDir}: starting from the beginning`);
  }
  if (checkpoint === undefined) {
    // An earlier run's checkpoint goes first, before its reports and facts: left beside this run's (a fresh run
    // killed before its first checkpoint), a later --resume took them for the checkpoint's and lost findings.
    try {
      await rm(`${checkpointPath}.tmp`, { force: true });
      await rm(checkpointPath, { force: true });
    } catch (e) {
      throw new OutputError(`cannot remove ${checkpointPath}: ${errorCode(e)}`, { cause: e });
    }
  }

  const stats = checkpoint ? structuredClone(checkpoint.stats) : emptyStats();
  // Claims read so far, whoever scrubbed them: a claim's position in the run (a shard counts the claims it left to
  // the other shards too, so positions are the same in every shard).
  const claimsRead = stats.claims + stats.claimsElsewhere + (stats.fileProblems?.count ?? 0);
  if (checkpoint !== undefined) {
    // A shard manifest of an earlier finish would describe reports this run is about to change.
    await rm(join(options.outDir, SHARD_MANIFEST), { force: true });
  }

  // The cross-claim store: fresh, or cut back to the claims the checkpoint has written; then the history file.
  const crossClaim = options.checks === undefined || BATCH_RULES.some((r) => options.checks?.includes(r.id));
  const storePath = join(options.outDir, CROSS_CLAIM_DB);
  if (checkpoint === undefined) {
    await removeStore(storePath);
  }
  if (crossClaim && checkpoint !== undefined && !existsSync(storePath)) {
    // Without the facts of the claims already written, the cross-claim findings would be short, silently.
    throw new ScrubberError(
      'CONFIG',
      `${storePath}, the cross-claim facts of the claims the checkpoint has written, is missing: scrub without --resume to start again`,
    );
  }
  if (crossClaim && checkpoint !== undefined && !storeHasFacts(storePath)) {
    // Its main file without its write-ahead log (copied or cleaned without the -wal file): the facts are lost too.
    throw new ScrubberError(
      'CONFIG',
      `${storePath}, the cross-claim facts of the claims the checkpoint has written, holds no facts table (its -wal file lost?): scrub without --resume to start again`,
    );
  }
  let store: CrossClaimStore | undefined;
  let history: HistorySummary | undefined;
  try {
    store = crossClaim ? new CrossClaimStore({ path: storePath, checks: options.checks }) : undefined;
    if (store !== undefined && checkpoint !== undefined) {
      store.truncateFrom(claimsRead);
    }
    if (store !== undefined && options.history !== undefined) {
      const loaded = await store.loadHistory(options.history);
      history = historySummary(options.history, loaded);
      note(`history ${options.history}: ${loaded.loaded} services loaded${loaded.rejectedCount > 0 ? `, ${loaded.rejectedCount} rows rejected (first: line ${loaded.rejected[0]?.line}: ${loaded.rejected[0]?.reason})` : ''}`);
    }
  } catch (e) {
    store?.close();
    throw storeFault(e, options.outDir);
  }
  // The earlier run's reports go only now: a history file refused past its header (not CSV on line 20,000) must not
  // cost them either, and leave a folder of empty reports a nightly job could read as "no findings".
  const wanted: AppendedKey[] = [
    ...(options.formats.csv ? (['findingsCsv'] as const) : []),
    ...(options.formats.ndjson ? (['findingsNdjson'] as const) : []),
    'rejectedCsv',
    'claimsPart',
  ];
  const files = {} as Record<AppendedKey, ReportFile | undefined>;
  try {
    if (checkpoint === undefined) {
      await removeEarlierReports(options.outDir);
    }
    for (const k of wanted) {
      files[k] = await ReportFile.open(join(options.outDir, APPENDED[k].file), checkpoint?.lengths[k], APPENDED[k].header);
    }
  } catch (e) {
    store?.close();
    throw e;
  }
  let nextOrder = claimsRead;
  const perFile: FileCount[] = inputs.map((_, i) => checkpoint?.files[i] ?? { claims: 0, linesRead: 0 });
  const startedAt = checkpoint?.startedAt ?? new Date().toISOString();
  const workerLoad = await deps.pool.warm();
  const timing = { read: 0, wait: 0, write: 0, crossClaim: 0 };
  let lastCheckpoint = performance.now();

  // Step 2: the ordered, bounded stream of chunks through the pool.
  const inflight: { task: ScrubTask; result: Promise<ScrubTaskResult>; fileIndex: number }[] = [];
  const maxInflight = deps.pool.threads * 4;
  const resumeAt = { fileIndex: checkpoint?.fileIndex ?? 0, claimsDone: checkpoint?.claimsDone ?? 0 };
  let position = resumeAt;

  const writeResult = async (done: ScrubTaskResult, fileIndex: number, units: readonly WorkUnit[]): Promise<void> => {
    const claims = units.length;
    const w0 = performance.now();
    await files.findingsCsv?.append(done.findingsCsv);
    await files.findingsNdjson?.append(done.findingsNdjson);
    await files.rejectedCsv?.append(done.rejectedCsv);
    await files.claimsPart?.append(done.claimFrames);
    addStats(stats, done.stats);
    for (const text of done.facts) {
      store?.addBatch(parseFactsBatch(text));
    }
    const count = perFile[fileIndex] as FileCount;
    count.claims += claims;
    // Lines read are counted here from what the reader gave the chunk, apart from the workers' counts of lines
    // scrubbed and rejected, so the summary's accounting compares two independent counts.
    let faults = 0;
    for (const u of units) {
      count.linesRead += inputLinesOf(u);
      faults += u.t === 'item' && isStructural(u.item) ? 1 : 0;
    }
    if (faults > 0) {
      count.faults = (count.faults ?? 0) + faults;
    }
    // Chunks are written in input order: when one of file f is written, every earlier file is complete, so the
    // position is file f and the claims of it written so far (whatever file the reader has moved on to).
    position = { fileIndex, claimsDone: count.claims };
    timing.write += performance.now() - w0;
    if (performance.now() - lastCheckpoint >= checkpointMs) {
      await saveCheckpoint();
      lastCheckpoint = performance.now();
    }
    deps.onProgress?.({
      file: inputs[fileIndex]?.name ?? '',
      linesRead: stats.linesScrubbed + stats.linesRejected,
      claims: stats.claims,
      elapsedMs: performance.now() - t0,
      fraction: readFraction(),
    });
  };

  // What a checkpoint names is on disk before it is written (run-files.ts: a machine crash, not only a killed
  // process): the reports synced, the cross-claim store's batches committed (and synced: see CrossClaimStore).
  const saveCheckpoint = async (): Promise<void> => {
    const lengths = {} as Record<AppendedKey, number>;
    for (const k of Object.keys(APPENDED) as AppendedKey[]) {
      await files[k]?.sync();
      lengths[k] = files[k]?.length ?? 0;
    }
    store?.flush();
    const cp: Checkpoint = { version: CHECKPOINT_VERSION, key, keyParts, ...position, lengths, stats, files: perFile, startedAt };
    await replaceDurably(checkpointPath, JSON.stringify(cp));
    deps.onCheckpoint?.();
  };

  const drainOne = async (): Promise<void> => {
    const head = inflight.shift();
    if (head === undefined) {
      return;
    }
    const w0 = performance.now();
    const done = await runWithRetry(deps.pool, head.task, head.result);
    timing.wait += performance.now() - w0;
    await writeResult(done, head.fileIndex, head.task.units);
  };

  // How far the reader is, for the progress display: the stored bytes of the inputs before the one it reads, and
  // that one's read so far (the reader runs at most `maxInflight` chunks ahead of the reports).
  const sizes = await Promise.all(inputs.map((i) => storedSize(i.location).catch(() => 0)));
  const totalStored = sizes.reduce((a, b) => a + b, 0);
  const reading = { before: 0, opened: undefined as OpenedBytes | undefined };
  const readFraction = (): number | undefined =>
    options.groupBy === true || totalStored === 0
      ? undefined
      : Math.min(1, (reading.before + (reading.opened?.storedBytesRead() ?? 0)) / totalStored);

  try {
    for (let fileIndex = resumeAt.fileIndex; fileIndex < inputs.length; fileIndex++) {
      const input = inputs[fileIndex] as ClaimInput;
      reading.before = sizes.slice(0, fileIndex).reduce((a, b) => a + b, 0);
      reading.opened = undefined;
      if (input.error !== undefined || input.format === undefined) {
        // Not a claim file (empty, binary, UTF-16...): said in the summary, and the other inputs are scrubbed.
        (perFile[fileIndex] as FileCount).error = input.error ?? `${input.name}: not a claim file`;
        note(`${input.error ?? input.name}: not read; going on with the next input`);
        continue;
      }
      let skip = fileIndex === resumeAt.fileIndex ? resumeAt.claimsDone : 0;
      const opened = await openBytes(input.location);
      reading.opened = opened;
      try {
        let units: WorkUnit[] = [];
        let columns: CsvColumnMap | undefined;
        const submit = (): void => {
          const task: ScrubTask = {
            file: input.name,
            columns,
            units,
            checks: options.checks,
            reports: options.formats,
            firstOrder: nextOrder,
            crossClaim,
            shard: options.shard,
          };
          nextOrder += units.length;
          const result = deps.pool.scrub(task);
          // Observed now: a chunk that fails before its turn to be written must not be an unhandled rejection
          // (which ends the process); it is awaited, and retried, when its turn comes.
          result.catch(() => undefined);
          inflight.push({ task, result, fileIndex });
          units = [];
        };
        const iterator = unitsOf(input, opened.stream, options.groupBy === true, options.outDir)[Symbol.asyncIterator]();
        for (;;) {
          const r0 = performance.now();
          let next: IteratorResult<{ unit: WorkUnit; columns?: CsvColumnMap }>;
          try {
            next = await iterator.next();
          } catch (e) {
            // An input that cannot be read on (a truncated gzip, a header without a required column): the claims
            // read before are scrubbed, the run goes on with the next input, and the summary and exit status say so.
            if (e instanceof OutputError || isSqliteError(e)) {
              throw e;
            }
            const reason = e instanceof ScrubberError ? e.message : `${input.name}: cannot read: ${e instanceof Error ? e.message : String(e)}`;
            (perFile[fileIndex] as FileCount).error = reason;
            // With --group-by every claim of the file is rejected (any of them may have rows past the fault).
            const before = options.groupBy === true ? 'rejected (with --group-by any of them may have rows past it)' : 'scrubbed';
            note(`${reason}: the claims read before this point are ${before}; going on with the next input`);
            break;
          }
          timing.read += performance.now() - r0;
          if (next.done === true) {
            // The digest names the input's content only when every stored byte went through it (a reader that
            // stopped early, or a size read before the file grew, gives none).
            if (opened.storedBytesRead() === sizes[fileIndex]) {
              (perFile[fileIndex] as FileCount).sha256 = opened.storedSha256();
            }
            break;
          }
          if (skip > 0) {
            skip--;
            continue;
          }
          columns = next.value.columns;
          units.push(next.value.unit);
          if (units.length >= chunkClaims) {
            submit();
            while (inflight.length >= maxInflight) {
              await drainOne();
            }
          }
        }
        if (units.length > 0) {
          submit();
        }
      } catch (e) {
        // A write of the cross-claim store (a full disk) is an output failure, whichever input was being read.
        if (e instanceof ScrubberError || isSqliteError(e)) {
          throw e;
        }
        throw new ScrubberError('INPUT_FORMAT', `${input.name}: cannot read: ${e instanceof Error ? e.message : String(e)}`, {
          cause: e,
        });
      } finally {
        await opened.close();
      }
    }
    reading.before = totalStored;
    reading.opened = undefined;
    while (inflight.length > 0) {
      await drainOne();
    }
    await saveCheckpoint();
    await deps.onWorkersDone?.();
  } catch (e) {
    // The chunks still in flight are abandoned (the pool is closed by the caller): their failures must not surface
    // as unhandled rejections in place of this error. The checkpoint on disk stays as it was.
    for (const f of inflight) {
      f.result.catch(() => undefined);
    }
    store?.close();
    throw storeFault(e, options.outDir);
  }

  // Step 3: the cross-claim findings, after every claim's own, in claim order, and claims.csv with them counted in
  // each claim's status (a crash here resumes at this step: the checkpoint was saved before it).
  {
    deps.onStage?.(`${store === undefined ? 'writing claims.csv' : 'cross-claim checks and claims.csv'} (${formatCount(stats.claims)} claims)`);
    const b0 = performance.now();
    const starts: number[] = [];
    perFile.reduce((at, f) => (starts.push(at), at + f.claims), 0);
    const fileOf = (order: number): string => {
      let i = starts.length - 1;
      while (i > 0 && (starts[i] ?? 0) > order) {
        i--;
      }
      return inputs[i]?.name ?? '';
    };
    try {
      await files.claimsPart?.close();
      files.claimsPart = undefined;
      await finishClaims(
        {
          outDir: options.outDir,
          claimsPart: join(options.outDir, CLAIMS_PART),
          crossClaim: store?.findings(),
          fileOf,
          formats: options.formats,
          sharded: options.shard !== undefined,
          findingsCsv: files.findingsCsv,
          findingsNdjson: files.findingsNdjson,
        },
        stats,
      );
      store?.close();
    } catch (e) {
      store?.close();
      throw storeFault(e, options.outDir);
    }
    timing.crossClaim = performance.now() - b0;
  }

  // Step 4: summary and the last reports, then the checkpoint goes (the run is complete).
  deps.onStage?.('summary and the last reports');
  for (const k of wanted) {
    await files[k]?.close();
  }
  const finish = finishInputs(inputs);
  const inputCounts = inputs.map((input, i) => ({
    name: input.name,
    ...(input.format === undefined ? {} : { format: input.format }),
    claims: (perFile[i]?.claims ?? 0) - (perFile[i]?.faults ?? 0),
    ...(perFile[i]?.error === undefined ? {} : { error: perFile[i]?.error }),
    linesRead: perFile[i]?.linesRead ?? 0,
    ...(perFile[i]?.sha256 === undefined ? {} : { sha256: perFile[i]?.sha256 }),
  }));
  const runTiming = {
    elapsedMs: performance.now() - t0,
    workers: deps.pool.threads,
    workerLoad,
    ...timing,
    peakRssMb: process.resourceUsage().maxRSS / 1024,
  };
  const summary = buildSummary({
    stats,
    inputs: inputCounts,
    startedAt,
    resumed: checkpoint !== undefined,
    linesBefore:
      checkpoint === undefined
        ? undefined
        : checkpoint.stats.linesScrubbed + checkpoint.stats.linesRejected + checkpoint.stats.linesElsewhere,
    reference: deps.reference,
    timing: runTiming,
    reports: [
      ...(options.formats.csv ? [REPORTS.findingsCsv.file] : []),
      ...(options.formats.ndjson ? [REPORTS.findingsNdjson.file] : []),
      REPORTS.claimsCsv.file,
      REPORTS.rejectedCsv.file,
      ...(options.shard === undefined ? [] : [REPORTS.shardIndex.file]),
      'summary.json',
      'report.html',
    ],
    shard: options.shard,
    history,
    checks: options.checks,
  });
  if (options.shard !== undefined) {
    // What `scrub merge` needs besides the reports: the counts to add up and the inputs to check.
    const manifest: ShardManifest = {
      version: SHARD_MANIFEST_VERSION,
      runKey: keyOf(await runKeyParts(inputs, options, false, historyDigest)),
      shard: options.shard,
      formats: options.formats,
      ...(options.checks === undefined ? {} : { checks: [...options.checks] }),
      inputs: inputCounts.map((c, i) => {
        // Absolute: `scrub merge` reads an 837 again from wherever it is run.
        const location = finish[i]?.location;
        return { ...c, ackName: finish[i]?.ackName ?? '', usage: finish[i]?.usage, location: location && { ...location, path: resolve(location.path) } };
      }),
      startedAt,
      reference: deps.reference,
      timing: runTiming,
      stats,
      ...(history === undefined ? {} : { history }),
    };
    try {
      await writeFile(join(options.outDir, SHARD_MANIFEST), `${JSON.stringify(manifest, null, 1)}\n`);
    } catch (e) {
      throw new OutputError(`cannot write ${SHARD_MANIFEST}: ${errorCode(e)}`, { cause: e });
    }
    summary.reports.push(SHARD_MANIFEST);
  }
  await finishRun(options.outDir, finish, summary, { csv: options.formats.csv, note, acks: options.shard === undefined });
  await syncReports(options.outDir, summary.reports);
  await replaceDurably(join(options.outDir, FINISHED), `${key}\n`);
  await rm(checkpointPath, { force: true });
  await rm(join(options.outDir, CLAIMS_PART), { force: true });
  await removeStore(storePath);
  return summary;
}

/**
 * A chunk's answer; when its worker died or threw, the chunk runs again claim by claim, and a claim that fails
 * alone is reported rejected with the error (nothing is lost, the run goes on).
 */
async function runWithRetry(pool: ScrubPool, task: ScrubTask, first: Promise<ScrubTaskResult>): Promise<ScrubTaskResult> {
  try {
    return await first;
  } catch {
    const parts = await Promise.all(
      task.units.map(async (unit, i): Promise<ScrubTaskResult> => {
        const alone: ScrubTask = { ...task, units: [unit], firstOrder: task.firstOrder + i };
        try {
          // Alone on its thread: a claim that kills its thread again must not take another claim's retry with it.
          return await pool.scrub(alone, { alone: true });
        } catch (e) {
          return failedUnit(alone, unit, e);
        }
      }),
    );
    const stats = emptyStats();
    for (const p of parts) {
      addStats(stats, p.stats);
    }
    return {
      facts: parts.flatMap((p) => p.facts),
      findingsCsv: joinedText(parts.map((p) => p.findingsCsv)),
      findingsNdjson: joinedText(parts.map((p) => p.findingsNdjson)),
      rejectedCsv: joinedText(parts.map((p) => p.rejectedCsv)),
      claimFrames: joinedText(parts.map((p) => p.claimFrames)),
      stats,
    };
  }
}

/**
 * The report text of a claim whose worker failed on it twice, the second time with the claim alone on its thread. In
 * a sharded run the claim is reported by the shard that owns it, as far as the main thread can read its patient key.
 */
function failedUnit(task: ScrubTask, unit: WorkUnit, error: unknown): ScrubTaskResult {
  const reason = `a worker failed on this claim: ${error instanceof Error ? error.message : String(error)}`;
  const where =
    unit.t === 'csv'
      ? { claimId: unit.group.claimId, lines: unit.group.records.map((r) => r.line) }
      : unit.t === 'json'
        ? { claimId: claimIdOfJsonLine(unit.text), lines: [unit.line] }
        : unit.item.kind === 'claim'
          ? { claimId: unit.item.claim.claimId, lines: Array.from({ length: unit.item.inputLines }, () => (unit.item as { line: number }).line) }
          : { claimId: unit.item.claimId, lines: unit.item.records.map((r) => r.line) };
  const stats = emptyStats();
  if (task.shard !== undefined && !unitInShard(unit, task, task.shard)) {
    stats.claimsElsewhere = 1;
    stats.linesElsewhere = unit.t === 'item' ? inputLinesOfItem(unit.item) : where.lines.length;
    return { findingsCsv: '', findingsNdjson: '', rejectedCsv: '', claimFrames: '', facts: [], stats };
  }
  if (unit.t === 'item' && unit.item.kind === 'rejected' && isStructural(unit.item)) {
    // A fault of the file's structure is no claim, whatever the worker did: counted as scrubChunk counts it.
    countFileProblem(stats, unit.item.records);
    return { findingsCsv: '', findingsNdjson: '', rejectedCsv: '', claimFrames: '', facts: [], stats };
  }
  stats.claims = 1;
  stats.claimsByStatus.rejected = 1;
  stats.linesRejected = where.lines.length;
  const rejectedCsv = csvText(
    where.lines.map((line) =>
      rejectedRow(rejectedRecord(task.file, line, where.claimId, reason)),
    ),
  );
  const claimFrames = claimFrameText({
    order: task.firstOrder,
    bytes: [0, 0, Buffer.byteLength(rejectedCsv, 'utf8')],
    tally: REJECTED_TALLY,
    provider: '',
    head: claimRowHead(task.file, where.lines[0] ?? 1, where.claimId, '', where.lines.length),
  });
  return { findingsCsv: '', findingsNdjson: '', rejectedCsv, claimFrames, facts: [], stats };
}
