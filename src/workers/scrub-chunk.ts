// The scrubber's unit of work (issue 12 §3), a pure function of (reference, task): each claim of the chunk read from
// its text, validated by the engine and rendered to the chunk's report rows, one claim after another. A claim on
// which the engine throws is rejected with the error and the rest of the chunk goes on. Run in a worker thread by
// tasks.ts.
import { crossClaimFacts, runRules, viewClaim, type ClaimView, type ValidationReference } from '../engines/validation/index.js';
import { FactsBatchWriter } from './facts-batch.js';
import { claimOfCsvRows } from '../readers/claims/csv-claims.js';
import { claimOfJsonLine } from '../readers/claims/ndjson.js';
import { isStructural, type ReadItem } from '../readers/claims/types.js';
import {
  claimFrameText,
  claimRowHead,
  claimTally,
  csvText,
  findingJson,
  findingRow,
  REJECTED_TALLY,
  rejectedRow,
  type ClaimTally,
} from '../reports/rows.js';
import type { Claim } from '../schemas/claim.js';
import { Utf8Sink } from '../utf8-sink.js';
import type { ClaimResult } from '../schemas/findings.js';
import { addNotChecked, countClaimStatus, countFileProblem, countFinding, countNotChecked, emptyStats, type ScrubTask, type ScrubTaskResult, type WorkUnit } from './messages.js';
import { inputLinesOfItem, shardKeyOf, shardOfKey, type ShardSpec } from './shard.js';

/** The billing provider as the claim model knows it: contractor number, else state and ZIP5. */
function providerKey(claim: Claim): string {
  const p = claim.provider;
  if (p?.contractorNumber !== undefined) {
    return `contractor ${p.contractorNumber}`;
  }
  const where = [p?.state, p?.zip?.slice(0, 5)].filter((x) => x !== undefined).join(' ');
  return where === '' ? 'unknown' : where;
}

/** One unit → a read claim or a rejection. */
function readUnit(unit: WorkUnit, task: ScrubTask): ReadItem {
  switch (unit.t) {
    case 'csv':
      if (task.columns === undefined) {
        throw new TypeError('a CSV unit needs the task\'s "columns"');
      }
      return claimOfCsvRows(unit.group, task.columns, task.file);
    case 'json':
      return claimOfJsonLine(unit.text, unit.line, task.file);
    case 'item':
      return unit.item;
  }
}

/**
 * Whether a unit belongs to the shard: read as the worker reads it (the main thread asks, for a claim a worker failed
 * on); a unit that cannot be read at all is keyed by its file and first line, as a rejected record is.
 */
export function unitInShard(unit: WorkUnit, task: ScrubTask, shard: ShardSpec): boolean {
  let key: string;
  try {
    key = shardKeyOf(readUnit(unit, task), task.file);
  } catch {
    const line = unit.t === 'csv' ? unit.group.records[0]?.line : unit.t === 'json' ? unit.line : unit.item.kind === 'claim' ? unit.item.line : unit.item.records[0]?.line;
    key = `${task.file}\t${String(line ?? 0)}`;
  }
  return shardOfKey(key, shard.count) === shard.index;
}

function inShard(item: ReadItem, file: string, shard: ShardSpec): boolean {
  return shardOfKey(shardKeyOf(item, file), shard.count) === shard.index;
}

/** A claim's view and the engine's answer for it. */
interface Validated {
  readonly view: ClaimView;
  readonly result: ClaimResult;
}

/**
 * A claim's view and answer, or the error the engine threw on it (a bug in a rule must not lose the claim). The view
 * is kept for the cross-claim facts, which read its codes, dates and MUE rows instead of looking them up again.
 */
function validateOne(ref: ValidationReference, claim: Claim, task: ScrubTask): Validated | Error {
  try {
    const view = viewClaim(ref, claim, { checks: task.checks });
    return { view, result: runRules(view) };
  } catch (e) {
    return e instanceof Error ? e : new Error(String(e));
  }
}

/** A claim's rows: its claims.csv row (head and tally) and the rows of the other reports. */
class ClaimRows {
  readonly findings: (string | number)[][] = [];
  readonly rejected: (string | number)[][] = [];
  readonly ndjson: string[] = [];
  constructor(
    readonly head: string,
    readonly tally: ClaimTally,
    readonly provider: string,
  ) {}
}

/**
 * The chunk's report text, as UTF-8: findings and rejected records as the reports take them, and a claim frame per
 * claim (claims.csv and shard-index.csv are written from the frames once the cross-claim findings are known). Each
 * claim's text is encoded as it is added (Utf8Sink), and the bytes cross to the main thread without a copy.
 */
class ChunkText {
  readonly findingsCsv = new Utf8Sink(64 * 1024);
  readonly findingsNdjson = new Utf8Sink(1024);
  readonly rejectedCsv = new Utf8Sink(1024);
  readonly claimFrames = new Utf8Sink(32 * 1024);

  /** @param sharded - whether the frames need the claim's bytes per report (only shard-index.csv reads them) */
  constructor(private readonly sharded: boolean) {}

  add(order: number, rows: ClaimRows): void {
    const f = this.findingsCsv.mark;
    const n = this.findingsNdjson.mark;
    const r = this.rejectedCsv.mark;
    this.findingsCsv.text(csvText(rows.findings));
    if (rows.ndjson.length > 0) {
      this.findingsNdjson.text(`${rows.ndjson.join('\n')}\n`);
    }
    this.rejectedCsv.text(csvText(rows.rejected));
    const bytes = this.sharded
      ? ([this.findingsCsv.mark - f, this.findingsNdjson.mark - n, this.rejectedCsv.mark - r] as const)
      : ([0, 0, 0] as const);
    this.claimFrames.text(claimFrameText({ order, bytes, tally: rows.tally, provider: rows.provider, head: rows.head }));
  }
}

/**
 * Scrubs one chunk.
 * @param ref - the reference, loaded once per thread
 * @param task - the chunk
 * @returns the chunk's report text and counts
 */
export function scrubChunk(ref: ValidationReference, task: ScrubTask): ScrubTaskResult {
  const stats = emptyStats();
  const text = new ChunkText(task.shard !== undefined);
  const facts = new FactsBatchWriter();
  // Not-checked kinds of the chunk's claims, counted in a map and added to the counts once per kind at the end: the
  // counts' record, probed with a key string built per entry, cost ~0.2 s per worker per million bench lines.
  const notChecked = new Map<string, { claims: number; reason: string }>();
  // Each claim is read, validated and rendered before the next: its objects die young (a chunk-wide batch kept a
  // chunk's claims, views and findings alive across scavenges, to be promoted and collected by the old generation).
  // Time per stage, summed over the chunk's claims: `lap()` is the time since the last lap.
  let last = performance.now();
  const lap = (): number => {
    const now = performance.now();
    const ms = now - last;
    last = now;
    return ms;
  };
  let order = task.firstOrder - 1;
  for (const unit of task.units) {
    order++;
    const item = readUnit(unit, task);
    if (task.shard !== undefined && !inShard(item, task.file, task.shard)) {
      stats.claimsElsewhere++;
      stats.linesElsewhere += inputLinesOfItem(item);
      stats.readMs += lap();
      continue;
    }
    stats.readMs += lap();
    if (item.kind === 'rejected' && isStructural(item)) {
      // A fault of the file's structure: no claim and no input line; the summary lists it. It still took a
      // position in the run (ScrubCounts.fileProblems counts them, so positions add up on resume).
      countFileProblem(stats, item.records);
      continue;
    }
    stats.claims++;
    if (item.kind === 'rejected') {
      stats.claimsByStatus.rejected++;
      stats.linesRejected += item.records.length;
      const head = claimRowHead(task.file, item.line ?? item.records[0]?.line ?? 1, item.claimId, '', item.records.length);
      const rows = new ClaimRows(head, REJECTED_TALLY, '');
      for (const r of item.records) {
        rows.rejected.push(rejectedRow(r));
      }
      text.add(order, rows);
      stats.renderMs += lap();
      continue;
    }
    const validated = validateOne(ref, item.claim, task);
    stats.validateMs += lap();
    if (validated instanceof Error) {
      // A bug in a rule must not lose the claim: it is reported rejected, with the error, and the run goes on.
      stats.claimsByStatus.rejected++;
      stats.linesRejected += item.inputLines;
      const reason = `the validation engine failed on this claim: ${validated.message}`;
      const rows = new ClaimRows(claimRowHead(task.file, item.line, item.claim.claimId, '', item.inputLines), REJECTED_TALLY, '');
      for (let i = 0; i < item.inputLines; i++) {
        rows.rejected.push(rejectedRow({ file: task.file, line: item.line, claimId: item.claim.claimId, reason }));
      }
      text.add(order, rows);
      stats.renderMs += lap();
      continue;
    }
    const { result } = validated;
    if (task.crossClaim) {
      const f = crossClaimFacts(validated.view, order);
      facts.add(f);
      if (f.notChecked.length > 0) {
        result.notChecked.push(...f.notChecked);
      }
    }
    stats.linesScrubbed += item.inputLines;
    const tally = claimTally(result.findings, result.notChecked);
    const { status } = tally;
    const provider = providerKey(item.claim);
    (stats.providers[provider] ??= { claims: 0, errors: 0, warnings: 0 }).claims++;
    countClaimStatus(stats, provider, status, 1, tally.notChecked);
    const claim = item.claim;
    const serviceLines = claim.lines.length + (item.revenueOnlyLines ?? 0);
    const rows = new ClaimRows(claimRowHead(task.file, item.line, claim.claimId, claim.claimType, serviceLines), tally, provider);
    for (const f of result.findings) {
      countFinding(stats, f);
      if (task.reports.csv) {
        rows.findings.push(findingRow(task.file, f));
      }
      if (task.reports.ndjson) {
        rows.ndjson.push(findingJson(task.file, f));
      }
    }
    const seen = new Set<string>();
    for (const n of result.notChecked) {
      const key = `${n.rule}\t${n.missing}`;
      if (seen.has(key)) {
        continue;
      }
      seen.add(key);
      const kind = notChecked.get(key);
      if (kind === undefined) {
        notChecked.set(key, { claims: 1, reason: n.reason });
      } else {
        countNotChecked(kind, 1, n.reason);
      }
    }
    text.add(order, rows);
    stats.renderMs += lap();
  }
  for (const [key, kind] of notChecked) {
    addNotChecked(stats, key, kind);
  }
  return {
    findingsCsv: text.findingsCsv.handOver(),
    findingsNdjson: text.findingsNdjson.handOver(),
    rejectedCsv: text.rejectedCsv.handOver(),
    claimFrames: text.claimFrames.handOver(),
    facts: facts.rows > 0 ? [facts.text()] : [],
    stats,
  };
}
