// Every message that crosses the main thread / worker boundary (style.md guideline 12): plain data only. A task is
// a chunk of claims in input order, sent in the cheapest form the reader has (CSV rows as text, NDJSON lines as
// text, or claims already read from X12); the answer is the chunk's report text and its counts.
import type { CsvColumnMap, CsvRowGroup } from '../readers/claims/csv-claims.js';
import type { ReadItem } from '../readers/claims/types.js';
import type { RuleId } from '../findings/codes.js';
import { CLAIM_STATUSES, type ClaimStatus } from '../reports/rows.js';
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

/** Counts of one chunk; the pipeline adds them up into the run summary. */
export type ChunkStats = ScrubCounts;

/**
 * Report text of an answer: a string as the chunk made it, or its UTF-8 bytes as it crosses from a worker thread
 * (textBytes: a transferred buffer, never copied; a string crossing is copied twice, and one character past Latin-1,
 * such as a message's "…", makes V8 copy and write the whole chunk's text at two bytes a character).
 */
export type ReportText = string | Uint8Array;

/** The UTF-8 bytes of a text, in an ArrayBuffer of their own (transferable: not a slice of Buffer's shared pool). */
export function textBytes(text: ReportText): Uint8Array {
  return typeof text === 'string' ? ENCODER.encode(text) : text;
}
const ENCODER = new TextEncoder();

/** Report texts one after the other, as one (a string when every part is one). */
export function joinedText(parts: readonly ReportText[]): ReportText {
  return parts.every((p) => typeof p === 'string') ? parts.join('') : Buffer.concat(parts.map(textBytes));
}

/** The answer to a ScrubTask: report text to append, in input order, and the counts. */
export interface ScrubTaskResult {
  readonly findingsCsv: ReportText;
  readonly findingsNdjson: ReportText;
  readonly rejectedCsv: ReportText;
  /** One claim frame per claim reported (see ClaimFrame), for claims.csv and shard-index.csv. */
  readonly claimFrames: ReportText;
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

/**
 * The message a worker thread posts once its task modules are loaded (tasks.ts): `{ [THREAD_LOADED]: threadId }`.
 * A pool that closes waits for it from every thread it has (pool.ts).
 */
export const THREAD_LOADED = 'scrubThreadLoaded';

/** What a thread's warm-up (its reference opened and tables loaded) took: its thread id, time (ms) and heap (MB). */
export interface WorkerLoad {
  readonly thread: number;
  readonly ms: number;
  readonly heapMb: number;
}

/** The thread id of a THREAD_LOADED message, else `undefined`. */
export function loadedThreadOf(message: unknown): number | undefined {
  const id = typeof message === 'object' && message !== null ? (message as Record<string, unknown>)[THREAD_LOADED] : undefined;
  return typeof id === 'number' ? id : undefined;
}

/** Distinct billing providers counted per run, the smallest keys (the summary shows the top 20). */
export const PROVIDER_KEYS = 50_000;

/**
 * Distinct not-checked kinds (rule and missing data) listed per rule and run, the smallest keys; the rest are counted
 * under the rule. Per rule: one rule's many kinds (an MUE code without a row, each) must not hide another rule's one
 * (no lab NCD list for the date, on every claim).
 */
export const NOT_CHECKED_KEYS_PER_RULE = 25;

/** What the catch-all not-checked entry of a rule is named after its rule. */
const OTHER_KINDS = '\t(other kinds)';

/** The catch-all not-checked entry of a rule, for kinds past NOT_CHECKED_KEYS_PER_RULE. */
function otherKind(a: ChunkStats, key: string): { claims: number; reason: string } {
  const other = `${ruleOfKind(key)}${OTHER_KINDS}`;
  return (a.notChecked[other] ??= {
    claims: 0,
    reason: `more kinds of missing data than the summary lists per rule (${NOT_CHECKED_KEYS_PER_RULE})`,
  });
}

/**
 * The `max` smallest of a record's keys, whatever order they are added in (a max-heap of them). The summary's capped
 * lists keep these, not the first ones met: N shards' counts merged then keep the keys one run keeps, since a key
 * among the smallest of the run is among the smallest of its shard.
 */
class SmallestKeys {
  private readonly heap: string[] = [];

  constructor(
    private readonly max: number,
    keys: Iterable<string>,
  ) {
    for (const k of keys) {
      this.admit(k);
    }
  }

  /**
   * Takes a key not held yet.
   * @returns `undefined` when it is kept with room to spare; the largest key held when it is kept in that one's
   *   place (the caller forgets that one); itself when it is not kept
   */
  admit(key: string): string | undefined {
    const h = this.heap;
    if (h.length < this.max) {
      h.push(key);
      this.up(h.length - 1);
      return undefined;
    }
    const largest = h[0];
    if (largest === undefined || key > largest) {
      return key;
    }
    h[0] = key;
    this.down(0);
    return largest;
  }

  private up(i: number): void {
    const h = this.heap;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if ((h[parent] as string) >= (h[i] as string)) {
        return;
      }
      [h[parent], h[i]] = [h[i] as string, h[parent] as string];
      i = parent;
    }
  }

  private down(i: number): void {
    const h = this.heap;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let top = i;
      if (l < h.length && (h[l] as string) > (h[top] as string)) {
        top = l;
      }
      if (r < h.length && (h[r] as string) > (h[top] as string)) {
        top = r;
      }
      if (top === i) {
        return;
      }
      [h[top], h[i]] = [h[i] as string, h[top] as string];
      i = top;
    }
  }
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
 */
export function addNotChecked(stats: ChunkStats, key: string, v: { readonly claims: number; readonly reason: string }): void {
  const into = stats.notChecked[key];
  if (into === undefined) {
    stats.notChecked[key] = { claims: v.claims, reason: v.reason };
  } else {
    countNotChecked(into, v.claims, v.reason);
  }
}

/** Adds claims to a count of a not-checked kind, keeping the first reason in text order (see addNotChecked). */
export function countNotChecked(into: { claims: number; reason: string }, claims: number, reason: string): void {
  into.claims += claims;
  if (reason < into.reason) {
    into.reason = reason;
  }
}

/**
 * Moves a claim from one status to another in the counts, and in its billing provider's when the provider is counted
 * (a cross-claim finding made the claim worse).
 */
export function moveClaimStatus(
  stats: ChunkStats,
  provider: string,
  from: ClaimStatus,
  to: ClaimStatus,
  notChecked: number,
): void {
  countClaimStatus(stats, provider, from, -1, notChecked);
  countClaimStatus(stats, provider, to, 1, notChecked);
}

/**
 * Counts a claim of a status (`by` 1), or takes it back (-1): in the run's claims by status (and, clean with
 * not-checked entries, in cleanNotChecked) and, when the provider is counted, in its billing provider's errors and
 * warnings.
 * @param notChecked - the claim's not-checked entries
 */
export function countClaimStatus(
  stats: ChunkStats,
  provider: string,
  status: ClaimStatus,
  by: 1 | -1,
  notChecked: number,
): void {
  stats.claimsByStatus[status] += by;
  if (status === 'clean' && notChecked > 0) {
    stats.cleanNotChecked += by;
  }
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
    cleanNotChecked: 0,
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

/** The rule a not-checked kind's key names first. */
const ruleOfKind = (key: string): string => key.split('\t', 1)[0] ?? '';

/**
 * The capped lists' kept keys per accumulator (not-checked kinds per rule), made from its record on first use (a
 * resumed run's counts too).
 */
const keptKeys = new WeakMap<ChunkStats, { kinds: Map<string, SmallestKeys>; providers: SmallestKeys }>();

/** The kept kinds of a kind's rule. */
function kindsOf(kinds: Map<string, SmallestKeys>, key: string): SmallestKeys {
  const rule = ruleOfKind(key);
  let kept = kinds.get(rule);
  if (kept === undefined) {
    kept = new SmallestKeys(NOT_CHECKED_KEYS_PER_RULE, []);
    kinds.set(rule, kept);
  }
  return kept;
}

/** Adds `b`'s counts into `a`. */
export function addStats(a: ChunkStats, b: ChunkStats): void {
  let kept = keptKeys.get(a);
  if (kept === undefined) {
    const kinds = new Map<string, SmallestKeys>();
    for (const k of Object.keys(a.notChecked)) {
      if (!k.endsWith(OTHER_KINDS)) {
        kindsOf(kinds, k).admit(k);
      }
    }
    kept = { kinds, providers: new SmallestKeys(PROVIDER_KEYS, Object.keys(a.providers)) };
    keptKeys.set(a, kept);
  }
  a.claims += b.claims;
  for (const k of CLAIM_STATUSES) {
    a.claimsByStatus[k] += b.claimsByStatus[k];
  }
  a.cleanNotChecked += b.cleanNotChecked;
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
    if (key.endsWith(OTHER_KINDS)) {
      otherKind(a, key).claims += v.claims;
      continue;
    }
    const out = a.notChecked[key] === undefined ? kindsOf(kept.kinds, key).admit(key) : undefined;
    if (out === key) {
      otherKind(a, key).claims += v.claims;
      continue;
    }
    addNotChecked(a, key, v);
    const evicted = out === undefined ? undefined : a.notChecked[out];
    if (out !== undefined && evicted !== undefined) {
      delete a.notChecked[out];
      otherKind(a, out).claims += evicted.claims;
    }
  }
  for (const [key, v] of Object.entries(b.providers)) {
    const into = a.providers[key];
    if (into === undefined) {
      const out = kept.providers.admit(key);
      if (out !== key) {
        a.providers[key] = { ...v };
      }
      if (out !== undefined && out !== key) {
        delete a.providers[out];
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
}
