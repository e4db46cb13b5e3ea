// Every message that crosses the main thread / worker boundary (style.md guideline 12): plain data only. A task is
// a chunk of claims in input order, sent in the cheapest form the reader has (CSV rows as text, NDJSON lines as
// text, or claims already read from X12); the answer is the chunk's report text and its counts.
import type { CsvColumnMap, CsvRowGroup } from '../readers/claims/csv-claims.js';
import type { CsvRecord } from '../readers/claims/csv-records.js';
import type { ReadItem } from '../readers/claims/types.js';
import type { RuleId } from '../findings/codes.js';
import type { ClaimStatus } from '../reports/rows.js';
import type { Finding } from '../schemas/findings.js';
import { FILE_PROBLEMS_KEPT, type RejectedRecord, type ScrubCounts } from '../schemas/scrub.js';
import type { ShardSpec } from './shard.js';

/** One claim's input as the main thread has it. */
export type WorkUnit =
  | { readonly t: 'csv'; readonly group: CsvRowGroup }
  | { readonly t: 'json'; readonly text: string; readonly line: number }
  | { readonly t: 'item'; readonly item: ReadItem };

/** What the worker writes, per report. */
export interface ReportSelection {
  readonly csv: boolean;
  readonly ndjson: boolean;
}

/** A chunk of one input file's claims. */
export interface ScrubTask {
  readonly file: string;
  /** The file's CSV column map when its units are CSV rows. */
  readonly columns: CsvColumnMap | undefined;
  readonly units: readonly WorkUnit[];
  readonly checks: readonly RuleId[] | undefined;
  readonly reports: ReportSelection;
  /** Position in the run of the chunk's first claim (cross-claim facts are keyed by it). */
  readonly firstOrder: number;
  /** Whether to return each claim's cross-claim facts (a batch check is on). */
  readonly crossClaim: boolean;
  /** Scrub only the claims of this shard (`--shard K/N`); the others are counted as elsewhere. */
  readonly shard?: ShardSpec | undefined;
}

/**
 * A chunk's CSV rows as bytes and offsets, as a task posts them to a worker. The structured clone of a million rows
 * as `{ text, line }` objects in groups cost the main thread ~0.4 s and the workers ~0.55 s (2026-11-26); bytes and
 * typed arrays clone at memory speed, and the worker makes the row objects, young, as it reads them. Bytes, not one
 * string: a row's text sliced from a chunk-long string would keep the whole chunk alive wherever a piece of it is
 * kept (a long code as a memo key).
 */
export interface PackedRows {
  /** Every row's text as UTF-8, one after another. */
  readonly bytes: Uint8Array;
  /** Where each row ends in `bytes`. */
  readonly ends: Int32Array;
  /** Each row's physical line. */
  readonly lines: Int32Array;
  /** Rows of each unit (claim), in order. */
  readonly rows: Int32Array;
  readonly claimIds: readonly string[];
  /** The rows that could not be read: index among the chunk's rows, and why. */
  readonly problems: readonly (readonly [number, string])[];
}

/** A task as posted to a worker: a chunk of CSV units goes as {@link PackedRows}, other units as they are. */
export type PostedTask = Omit<ScrubTask, 'units'> & { readonly units: readonly WorkUnit[]; readonly packed?: PackedRows };

/** The task as a worker is sent it (see {@link PostedTask}). */
export function packTask(task: ScrubTask): PostedTask {
  const { units } = task;
  if (units.length === 0 || units.some((u) => u.t !== 'csv')) {
    return task;
  }
  const texts: string[] = [];
  const lines: number[] = [];
  const rows = new Int32Array(units.length);
  const claimIds: string[] = [];
  const problems: [number, string][] = [];
  for (let u = 0; u < units.length; u++) {
    const { group } = units[u] as Extract<WorkUnit, { t: 'csv' }>;
    rows[u] = group.records.length;
    claimIds.push(group.claimId);
    for (const r of group.records) {
      if (r.problem !== undefined) {
        problems.push([texts.length, r.problem]);
      }
      texts.push(r.text);
      lines.push(r.line);
    }
  }
  const joined = texts.join('');
  const bytes = Buffer.from(joined, 'utf8');
  // Byte offsets are character offsets when every character is ASCII (one byte each), as in nearly every file.
  const ascii = bytes.length === joined.length;
  const ends = new Int32Array(texts.length);
  let at = 0;
  for (let i = 0; i < texts.length; i++) {
    const text = texts[i] as string;
    at += ascii ? text.length : Buffer.byteLength(text, 'utf8');
    ends[i] = at;
  }
  return { ...task, units: [], packed: { bytes, ends, lines: Int32Array.from(lines), rows, claimIds, problems } };
}

/** The task a worker was posted, its units as the main thread had them. */
export function unpackTask(posted: PostedTask): ScrubTask {
  const { packed, ...task } = posted;
  if (packed === undefined) {
    return task;
  }
  const bytes = Buffer.from(packed.bytes.buffer, packed.bytes.byteOffset, packed.bytes.byteLength);
  const problems = new Map(packed.problems);
  const units: WorkUnit[] = [];
  let i = 0;
  let from = 0;
  for (let u = 0; u < packed.rows.length; u++) {
    const records: CsvRecord[] = [];
    for (let n = packed.rows[u] as number; n > 0; n--, i++) {
      const to = packed.ends[i] as number;
      const text = bytes.toString('utf8', from, to);
      const line = packed.lines[i] as number;
      const problem = problems.get(i);
      records.push(problem === undefined ? { text, line } : { text, line, problem });
      from = to;
    }
    units.push({ t: 'csv', group: { claimId: packed.claimIds[u] as string, records } });
  }
  return { ...task, units };
}

/** Counts of one chunk; the pipeline adds them up into the run summary. */
export type ChunkStats = ScrubCounts;

/** The answer to a ScrubTask: report text to append, in input order, and the counts. */
export interface ScrubTaskResult {
  readonly findingsCsv: string;
  readonly findingsNdjson: string;
  readonly rejectedCsv: string;
  /** One claim frame per claim reported (see ClaimFrame), for claims.csv and shard-index.csv. */
  readonly claimFrames: string;
  /**
   * The cross-claim facts of the chunk's validated claims, when the task asked for them: FactsBatch JSON texts
   * (one per chunk; a chunk run again claim by claim gives one per claim).
   */
  readonly facts: readonly string[];
  readonly stats: ChunkStats;
}

/** Data a worker thread starts with. */
export interface WorkerInit {
  readonly refdataDb: string;
  /** Memory map of the reference file per thread (see OpenReferenceOptions). */
  readonly mmapBytes?: number | undefined;
  readonly cacheMb?: number | undefined;
}

/** Distinct billing providers counted per run (the summary shows the top 20). */
export const PROVIDER_KEYS = 50_000;

/** Distinct not-checked kinds (rule and missing data) listed per run; the rest are counted per rule. */
export const NOT_CHECKED_KEYS = 200;

/** The catch-all not-checked entry of a rule, for kinds past NOT_CHECKED_KEYS. */
function otherKind(a: ChunkStats, key: string): { claims: number; reason: string } {
  const rule = key.split('\t', 1)[0] ?? '';
  const other = `${rule}\t(other kinds)`;
  return (a.notChecked[other] ??= { claims: 0, reason: `more kinds of missing data than the summary lists (${NOT_CHECKED_KEYS})` });
}

/** Counts one finding: by rule and severity, and against the release it rests on. */
export function countFinding(stats: ChunkStats, f: Finding): void {
  const bySeverity = (stats.findings[f.rule] ??= {});
  bySeverity[f.severity] = (bySeverity[f.severity] ?? 0) + 1;
  if (f.source !== undefined) {
    const key = `${f.source.dataset}\t${f.source.release}`;
    stats.sources[key] = (stats.sources[key] ?? 0) + 1;
  }
}

/**
 * Counts claims of a not-checked kind. The kind keeps the first reason in text order, not in claim order, so the
 * counts of a run's chunks (or shards) add up to the same entry in whatever order they come.
 * @returns whether the kind is new
 */
export function addNotChecked(stats: ChunkStats, key: string, v: { readonly claims: number; readonly reason: string }): boolean {
  const into = stats.notChecked[key];
  if (into === undefined) {
    stats.notChecked[key] = { claims: v.claims, reason: v.reason };
    return true;
  }
  into.claims += v.claims;
  if (v.reason < into.reason) {
    into.reason = v.reason;
  }
  return false;
}

/**
 * Moves a claim from one status to another in the counts, and in its billing provider's when the provider is counted
 * (a cross-claim finding made the claim worse).
 */
export function moveClaimStatus(stats: ChunkStats, provider: string, from: ClaimStatus, to: ClaimStatus): void {
  countClaimStatus(stats, provider, from, -1);
  countClaimStatus(stats, provider, to, 1);
}

/**
 * Counts a claim of a status (`by` 1), or takes it back (-1): in the run's claims by status and, when the provider is
 * counted, in its billing provider's errors and warnings.
 */
export function countClaimStatus(stats: ChunkStats, provider: string, status: ClaimStatus, by: 1 | -1): void {
  stats.claimsByStatus[status] += by;
  const p = stats.providers[provider];
  if (p !== undefined && status === 'errors') {
    p.errors += by;
  } else if (p !== undefined && status === 'warnings') {
    p.warnings += by;
  }
}

/** Counts a fault of a file's structure (no claim): the summary keeps the first FILE_PROBLEMS_KEPT records. */
export function countFileProblem(stats: ChunkStats, records: readonly RejectedRecord[]): void {
  const problems = (stats.fileProblems ??= { count: 0, first: [] });
  problems.count++;
  for (const r of records) {
    if (problems.first.length >= FILE_PROBLEMS_KEPT) {
      break;
    }
    problems.first.push(r);
  }
}

/** Zero counts. */
export function emptyStats(): ChunkStats {
  return {
    claims: 0,
    claimsByStatus: { clean: 0, warnings: 0, errors: 0, rejected: 0 },
    linesScrubbed: 0,
    linesRejected: 0,
    claimsElsewhere: 0,
    linesElsewhere: 0,
    findings: {},
    notChecked: {},
    providers: {},
    sources: {},
    readMs: 0,
    validateMs: 0,
    renderMs: 0,
  };
}

const keyCounts = new WeakMap<ChunkStats, { kinds: number; providers: number }>();

/** Adds `b`'s counts into `a`. */
export function addStats(a: ChunkStats, b: ChunkStats): void {
  // Key counts are remembered per accumulator: Object.keys() per new key made merging quadratic (2 s of a
  // 300,000-line run's main thread).
  const counted = keyCounts.get(a) ?? { kinds: Object.keys(a.notChecked).length, providers: Object.keys(a.providers).length };
  keyCounts.set(a, counted);
  let { kinds, providers } = counted;
  a.claims += b.claims;
  for (const k of ['clean', 'warnings', 'errors', 'rejected'] as const) {
    a.claimsByStatus[k] += b.claimsByStatus[k];
  }
  a.linesScrubbed += b.linesScrubbed;
  a.linesRejected += b.linesRejected;
  a.claimsElsewhere += b.claimsElsewhere;
  a.linesElsewhere += b.linesElsewhere;
  if (b.fileProblems !== undefined) {
    const into = (a.fileProblems ??= { count: 0, first: [] });
    into.count += b.fileProblems.count;
    into.first.push(...b.fileProblems.first.slice(0, Math.max(0, FILE_PROBLEMS_KEPT - into.first.length)));
  }
  for (const [rule, bySeverity] of Object.entries(b.findings)) {
    const into = (a.findings[rule] ??= {});
    for (const [severity, n] of Object.entries(bySeverity)) {
      into[severity] = (into[severity] ?? 0) + n;
    }
  }
  for (const [key, v] of Object.entries(b.notChecked)) {
    // Kinds past the cap (one per unpublished MUE code, say) are counted under their rule, so the summary stays
    // small and nothing is dropped from the count.
    if (a.notChecked[key] === undefined && kinds >= NOT_CHECKED_KEYS) {
      otherKind(a, key).claims += v.claims;
    } else {
      kinds += addNotChecked(a, key, v) ? 1 : 0;
    }
  }
  for (const [key, v] of Object.entries(b.providers)) {
    const into = a.providers[key];
    if (into === undefined) {
      if (providers < PROVIDER_KEYS) {
        a.providers[key] = { ...v };
        providers++;
      }
    } else {
      into.claims += v.claims;
      into.errors += v.errors;
      into.warnings += v.warnings;
    }
  }
  for (const [key, n] of Object.entries(b.sources)) {
    a.sources[key] = (a.sources[key] ?? 0) + n;
  }
  a.readMs += b.readMs;
  a.validateMs += b.validateMs;
  a.renderMs += b.renderMs;
  counted.kinds = kinds;
  counted.providers = providers;
}
