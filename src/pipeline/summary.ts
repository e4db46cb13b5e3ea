// summary.json of a scrub run from its counts (issue 12 §4): one builder for a run and for `scrub merge`, which
// adds the shards' counts up and builds the summary one unsharded run would have (timings aside).
import { FILE_PROBLEMS_KEPT, type HistorySummary, type InputCount, type RunReference, type RunTiming, type ScrubSummary } from '../schemas/scrub.js';
import type { HistoryLoad } from './cross-claim-store.js';
import type { ChunkStats } from '../workers/messages.js';
import type { ShardSpec } from '../workers/shard.js';

/** What summary.json is built from. */
export interface SummaryInput {
  readonly stats: ChunkStats;
  readonly inputs: readonly InputCount[];
  readonly startedAt: string;
  readonly resumed: boolean;
  /** Input lines a resumed run's checkpoint had already accounted for: lines/s counts this run's lines only. */
  readonly linesBefore?: number | undefined;
  readonly reference: RunReference;
  readonly timing: RunTiming;
  readonly reports: readonly string[];
  /** The shard this run scrubbed (`--shard`); absent for a whole run and a merge. */
  readonly shard?: ShardSpec | undefined;
  /** What `--history` gave (see {@link historySummary}), as read by this run or as a shard's manifest says. */
  readonly history?: HistorySummary | undefined;
  /** The rules of a `--checks` run; absent when every check ran. */
  readonly checks?: readonly string[] | undefined;
}

/** The summary's account of a history file, from what the cross-claim store read of it. */
export function historySummary(file: string, h: HistoryLoad): HistorySummary {
  return { file, services: h.loaded, rejected: h.rejectedCount, firstRejected: h.rejected.map((r) => ({ line: r.line, reason: r.reason })) };
}

/**
 * File problems in input order, then line: a merge gathers them shard by shard, and its summary must not depend on
 * the order the shards were given in.
 */
function inFileOrder<T extends { readonly file: string; readonly line: number }>(first: readonly T[], inputs: readonly InputCount[]): T[] {
  const rank = new Map(inputs.map((i, k) => [i.name, k]));
  return [...first]
    .sort((a, b) => (rank.get(a.file) ?? 0) - (rank.get(b.file) ?? 0) || a.line - b.line)
    .slice(0, FILE_PROBLEMS_KEPT);
}

/** Builds summary.json. */
export function buildSummary(s: SummaryInput): ScrubSummary {
  const { stats, timing } = s;
  const claimsReported = stats.claims;
  const linesRead = s.inputs.reduce((n, f) => n + f.linesRead, 0);
  const bySeverity = { error: 0, warning: 0, info: 0 };
  const byRule = Object.entries(stats.findings)
    .map(([rule, v]) => {
      const row = { rule, error: v['error'] ?? 0, warning: v['warning'] ?? 0, info: v['info'] ?? 0 };
      bySeverity.error += row.error;
      bySeverity.warning += row.warning;
      bySeverity.info += row.info;
      return row;
    })
    .sort((a, b) => b.error + b.warning + b.info - (a.error + a.warning + a.info) || (a.rule < b.rule ? -1 : 1));
  const threads = Math.max(1, timing.workers);
  const stages = {
    'read input (main thread)': timing.read,
    'write reports (main thread)': timing.write,
    'cross-claim checks and claims.csv (main thread)': timing.crossClaim,
    'claims from text (workers)': stats.readMs / threads,
    'validate (workers)': stats.validateMs / threads,
    'report text (workers)': stats.renderMs / threads,
  };
  const slowest = Object.entries(stages).sort((a, b) => b[1] - a[1])[0]?.[0] ?? '';
  return {
    startedAt: s.startedAt,
    finishedAt: new Date().toISOString(),
    resumed: s.resumed,
    ...(s.shard === undefined
      ? {}
      : { shard: { index: s.shard.index, count: s.shard.count, claimsElsewhere: stats.claimsElsewhere, linesElsewhere: stats.linesElsewhere } }),
    inputs: s.inputs.map((i) => ({
      name: i.name,
      format: i.format,
      claims: i.claims,
      linesRead: i.linesRead,
      ...(i.error === undefined ? {} : { error: i.error }),
      ...(i.sha256 === undefined ? {} : { sha256: i.sha256 }),
    })),
    ...(s.checks === undefined ? {} : { checks: [...s.checks] }),
    claims: {
      read: stats.claims,
      ...stats.claimsByStatus,
      cleanRate: stats.claims > 0 ? stats.claimsByStatus.clean / stats.claims : 0,
      cleanNotChecked: stats.cleanNotChecked,
    },
    linesRead,
    linesScrubbed: stats.linesScrubbed,
    linesRejected: stats.linesRejected,
    accounting: {
      linesBalance: linesRead === stats.linesScrubbed + stats.linesRejected + stats.linesElsewhere,
      claimsReported,
      claimsBalance: claimsReported === Object.values(stats.claimsByStatus).reduce((a, b) => a + b, 0),
    },
    findings: { total: bySeverity.error + bySeverity.warning + bySeverity.info, bySeverity, byRule },
    rejectedRecords: stats.linesRejected,
    ...(stats.fileProblems !== undefined && stats.fileProblems.count > 0
      ? { fileProblems: { count: stats.fileProblems.count, first: inFileOrder(stats.fileProblems.first, s.inputs) } }
      : {}),
    ...(s.history === undefined ? {} : { history: s.history }),
    topProviders: Object.entries(stats.providers)
      .map(([provider, v]) => ({ provider, ...v }))
      .sort((a, b) => b.errors - a.errors || b.claims - a.claims || (a.provider < b.provider ? -1 : 1))
      .slice(0, 20),
    reference: {
      ...s.reference,
      releasesUsed: Object.entries(stats.sources)
        .map(([k, findings]) => {
          const [dataset = '', release = ''] = k.split('\t');
          return { dataset, release, findings };
        })
        .sort((a, b) => (a.dataset < b.dataset ? -1 : a.dataset > b.dataset ? 1 : a.release < b.release ? -1 : 1)),
    },
    notChecked: Object.entries(stats.notChecked)
      .map(([k, v]) => {
        const [rule = '', missing = ''] = k.split('\t');
        return { rule, missing, reason: v.reason, claims: v.claims };
      })
      .sort((a, b) => b.claims - a.claims || (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : a.missing < b.missing ? -1 : 1)),
    timing: {
      elapsedMs: timing.elapsedMs,
      linesPerSecond: timing.elapsedMs > 0 ? ((linesRead - (s.linesBefore ?? 0)) / timing.elapsedMs) * 1000 : 0,
      workers: timing.workers,
      workerLoadMs: timing.workerLoad.map((w) => Math.round(w.ms)),
      workerHeapMb: timing.workerLoad.map((w) => Math.round(w.heapMb)),
      mainReadMs: timing.read,
      mainWaitMs: timing.wait,
      mainWriteMs: timing.write,
      crossClaimMs: timing.crossClaim,
      workerReadMs: stats.readMs,
      workerValidateMs: stats.validateMs,
      workerRenderMs: stats.renderMs,
      slowestStage: slowest,
      peakRssMb: timing.peakRssMb,
    },
    reports: [...s.reports],
  };
}

/** A count as the scrubber prints it: rounded, with thousands separators (`1,000,000`). */
export const formatCount = (n: number): string => Math.round(n).toLocaleString('en-US');

/** The human summary a run or merge prints on stdout (the README shows the samples'), ending in a line break. */
export function summaryText(s: ScrubSummary, outDir: string): string {
  const pct = (x: number): string => `${(x * 100).toFixed(1)}%`;
  const lines = [
    `scrubbed ${formatCount(s.claims.read)} claims (${formatCount(s.linesRead)} lines) from ${s.inputs.length} file(s) in ${(s.timing.elapsedMs / 1000).toFixed(1)} s${s.resumed ? ' (this resumed run)' : ''}, ${formatCount(s.timing.linesPerSecond)} lines/s`,
    `  clean ${formatCount(s.claims.clean)} (${pct(s.claims.cleanRate)}${s.claims.cleanNotChecked > 0 ? `; ${formatCount(s.claims.cleanNotChecked)} with checks that could not run` : ''}), warnings ${formatCount(s.claims.warnings)}, errors ${formatCount(s.claims.errors)}, rejected ${formatCount(s.claims.rejected)}`,
    ...(s.checks === undefined ? [] : [`  checks: only ${s.checks.join(', ')} (--checks): clean means clean for these`]),
    `  findings: ${formatCount(s.findings.bySeverity.error)} errors, ${formatCount(s.findings.bySeverity.warning)} warnings, ${formatCount(s.findings.bySeverity.info)} info`,
    ...s.findings.byRule.slice(0, 5).map((r) => `    ${r.rule.padEnd(28)} ${formatCount(r.error + r.warning + r.info)}`),
    `  lines: ${formatCount(s.linesRead)} read = ${formatCount(s.linesScrubbed)} scrubbed + ${formatCount(s.linesRejected)} rejected${s.shard === undefined ? '' : ` + ${formatCount(s.shard.linesElsewhere)} of other shards (this is shard ${String(s.shard.index)}/${String(s.shard.count)})`}${s.accounting.linesBalance && s.accounting.claimsBalance ? '' : '  ACCOUNTING MISMATCH'}`,
    ...s.inputs.flatMap((i) =>
      i.error === undefined
        ? []
        : [
            i.linesRead === 0
              ? `  NOT READ: ${i.error}`
              : `  NOT READ TO ITS END: ${i.error} (the ${formatCount(i.claims)} claims before it are in the reports)`,
          ],
    ),
    ...(s.fileProblems === undefined
      ? []
      : [
          `  file structure: ${formatCount(s.fileProblems.count)} problem(s), no claims (see summary.json), e.g. ${s.fileProblems.first[0]?.file ?? ''} ` +
            `segment ${String(s.fileProblems.first[0]?.line ?? '')}: ${s.fileProblems.first[0]?.reason ?? ''}`,
        ]),
    ...(s.notChecked.length > 0 ? [`  not checked: ${s.notChecked.length} kinds of check lacked data (never counted as passed; see report.html), e.g. ${s.notChecked[0]?.rule} (missing: ${s.notChecked[0]?.missing})`] : []),
    `reports in ${outDir}: ${s.reports.join(', ')}`,
  ];
  return `${lines.join('\n')}\n`;
}
