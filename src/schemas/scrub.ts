// The batch scrubber's edge shapes (issue 12): what a claim reader yields besides claims (a rejected record), and the
// input formats it recognises. Report rows and the run summary live beside them so the writers, the worker and the
// HTML report read one definition.
import { z } from 'zod';

/** The claim file formats the scrubber reads, recognised by content whatever the file is called. */
export const InputFormat = z.enum(['csv', 'ndjson', 'x12']);
export type InputFormat = z.infer<typeof InputFormat>;

/**
 * An input record that could not be read as (part of) a claim. One rejected record stands for one input line: a
 * CSV record, an NDJSON line (one claim), an 837 service line (or the claim's CLM segment when it has none), so
 * `linesRead = linesScrubbed + linesRejected` holds in every run.
 */
export const RejectedRecord = z
  .object({
    file: z.string(),
    /** Physical line number in the file (header = line 1); the segment number (1-based, from ISA) for X12. */
    line: z.int().min(1),
    /** The claim id, when the record got far enough to have one. */
    claimId: z.string().optional(),
    reason: z.string(),
  })
  .meta({ id: 'RejectedRecord' });
export type RejectedRecord = z.infer<typeof RejectedRecord>;

/** Counts by severity. */
const BySeverity = z.object({ error: z.int(), warning: z.int(), info: z.int() });

/**
 * The reference database a run read: its path, build time and schema, and the digest of what it was built from
 * (`buildKey`: the sources and loaders; two builds of the same files on two hosts share it, their times differ).
 */
export const RunReference = z.object({
  database: z.string(),
  builtAt: z.string(),
  schemaVersion: z.int(),
  buildKey: z.string().optional(),
});
export type RunReference = z.infer<typeof RunReference>;

/**
 * What a run's reference is, for a resume or a merge to compare: its build key (the same for builds of the same
 * sources on any host), else, for a database built before build keys were stored, its build time.
 */
export const builtFrom = (ref: RunReference): string => ref.buildKey ?? ref.builtAt;

/** An input as a run counted it: claims and lines read from it (by every shard alike). */
export const InputCount = z.object({
  name: z.string(),
  /** Absent when the file is not a claim file (empty, binary, UTF-16, unrecognised: see `error`). */
  format: InputFormat.optional(),
  claims: z.int().min(0),
  linesRead: z.int().min(0),
  /** Why the input could not be read to its end (the claims before were scrubbed; the run's exit status is 3). */
  error: z.string().optional(),
  /**
   * SHA-256 (hex) of the input's stored bytes (a gzip file's, a ZIP member's compressed data), when it was read to
   * its end: which content the reports are of, and how `scrub merge` tells that every shard read the same.
   */
  sha256: z.string().regex(/^[0-9a-f]{64}$/).optional(),
});
export type InputCount = z.infer<typeof InputCount>;

/** What the run read from `--history`: services loaded and rows rejected (the first 100 named). */
export const HistorySummary = z.object({
  file: z.string(),
  services: z.int().min(0),
  rejected: z.int().min(0),
  firstRejected: z.array(z.object({ line: z.int().min(1), reason: z.string() })),
});
export type HistorySummary = z.infer<typeof HistorySummary>;

/** `summary.json` of a scrub run (issue 12 §4): what was read, what was found, what could not be checked, how fast. */
export const ScrubSummary = z
  .object({
    startedAt: z.string(),
    finishedAt: z.string(),
    /** True when the run continued from a checkpoint (`--resume`). */
    resumed: z.boolean(),
    /**
     * A `--shard K/N` run: its shard, and the claims and input lines it read but left to other shards (counted in
     * linesRead, so linesRead = linesScrubbed + linesRejected + linesElsewhere). `scrub merge` writes no shard.
     */
    shard: z
      .object({ index: z.int(), count: z.int(), claimsElsewhere: z.int(), linesElsewhere: z.int() })
      .optional(),
    inputs: z.array(InputCount),
    /**
     * The rules a `--checks` run was limited to; absent when every check ran. A claim such a run calls clean is clean
     * for these rules only.
     */
    checks: z.array(z.string()).optional(),
    claims: z.object({
      read: z.int(),
      clean: z.int(),
      warnings: z.int(),
      errors: z.int(),
      rejected: z.int(),
      /** Share of claims read that came back clean (no error, no warning), 0..1. */
      cleanRate: z.number(),
      /**
       * Of the clean claims, those with a check that could not run for lack of data (claims.csv notChecked > 0):
       * clean for the checks that ran, never passed by the others.
       */
      cleanNotChecked: z.int(),
    }),
    linesRead: z.int(),
    linesScrubbed: z.int(),
    linesRejected: z.int(),
    /** `linesRead = linesScrubbed + linesRejected` (+ lines elsewhere in a shard) and claims read = claims reported in claims.csv. */
    accounting: z.object({ linesBalance: z.boolean(), claimsReported: z.int(), claimsBalance: z.boolean() }),
    findings: z.object({
      total: z.int(),
      bySeverity: BySeverity,
      byRule: z.array(BySeverity.extend({ rule: z.string() })),
    }),
    rejectedRecords: z.int(),
    /** Faults of the files' structure (837 envelope counts...): no claims, not in rejected.csv; present when any. */
    fileProblems: z.object({ count: z.int(), first: z.array(RejectedRecord) }).optional(),
    /** The `--history` file: what it gave the frequency and cross-claim checks. */
    history: HistorySummary.optional(),
    /**
     * Billing providers with the most claims with errors (the claim model has no NPI: a provider is its contractor
     * number, else state and ZIP5 as billed; a rejected claim has none), at most 20.
     */
    topProviders: z.array(
      z.object({ provider: z.string(), claims: z.int(), errors: z.int(), warnings: z.int() }),
    ),
    reference: RunReference.extend({
      /** The releases the findings rest on, with how many findings each. */
      releasesUsed: z.array(z.object({ dataset: z.string(), release: z.string(), findings: z.int() })),
    }),
    /** Checks that could not run, and why: never counted as passes. */
    notChecked: z.array(z.object({ rule: z.string(), missing: z.string(), reason: z.string(), claims: z.int() })),
    timing: z.object({
      elapsedMs: z.number(),
      linesPerSecond: z.number(),
      workers: z.int(),
      /** Worker start-up: reference load per thread (ms) and heap after it (MB). */
      workerLoadMs: z.array(z.number()),
      workerHeapMb: z.array(z.number()),
      /** Main thread: reading and grouping input, waiting on workers, writing reports (ms). */
      mainReadMs: z.number(),
      mainWaitMs: z.number(),
      mainWriteMs: z.number(),
      /** The end of the run: the cross-claim checks (the store's SQL, their findings) and claims.csv written (ms). */
      crossClaimMs: z.number(),
      /** Summed over workers: claims from text, validation, report text (ms of thread time). */
      workerReadMs: z.number(),
      workerValidateMs: z.number(),
      workerRenderMs: z.number(),
      slowestStage: z.string(),
      peakRssMb: z.number(),
    }),
    reports: z.array(z.string()),
  })
  .meta({ id: 'ScrubSummary' });
export type ScrubSummary = z.infer<typeof ScrubSummary>;

const Count = z.int().min(0);

/** How many faults of the files' structure a run met, and the first ones (see ScrubCounts.fileProblems). */
const FileProblems = z.object({ count: Count, first: z.array(RejectedRecord) });
/** Faults of the files' structure listed in a summary (all are counted). */
export const FILE_PROBLEMS_KEPT = 100;

/**
 * The counts of a chunk of claims, added up into a run's (and a merge's): the workers return them, the checkpoint
 * and a shard's shard.json keep them, summary.json is built from them.
 */
export const ScrubCounts = z.object({
  claims: Count,
  claimsByStatus: z.object({ clean: Count, warnings: Count, errors: Count, rejected: Count }),
  /** Clean claims with a check that could not run (a not-checked entry): clean for the checks that ran only. */
  cleanNotChecked: Count,
  linesScrubbed: Count,
  linesRejected: Count,
  /** Claims and input lines read but left to other shards (`--shard`): zero in an unsharded run. */
  claimsElsewhere: Count,
  linesElsewhere: Count,
  /** `rule` → severity → count. */
  findings: z.record(z.string(), z.record(z.string(), Count)),
  /** `rule\tmissing` → { claims, reason }: the checks that could not run. */
  notChecked: z.record(z.string(), z.object({ claims: Count, reason: z.string() })),
  /** Billing provider key → claims by status (see ScrubSummary.topProviders). */
  providers: z.record(z.string(), z.object({ claims: Count, errors: Count, warnings: Count })),
  /** `dataset\trelease` → findings resting on it. */
  sources: z.record(z.string(), Count),
  /**
   * Faults of a file's structure (a wrong SE/GE/IEA count, a segment outside a transaction): no claim and no input
   * line, so in none of the claim reports; counted, and the first FILE_PROBLEMS_KEPT kept, for the summary.
   */
  fileProblems: FileProblems.optional(),
  /** Time the workers spent: reading claims from text, validating, rendering report text (ms). */
  readMs: z.number(),
  validateMs: z.number(),
  renderMs: z.number(),
});
export type ScrubCounts = z.infer<typeof ScrubCounts>;

/** Wall-clock figures of a run (ms), measured by its main thread. */
export const RunTiming = z.object({
  elapsedMs: z.number(),
  workers: z.int(),
  workerLoad: z.array(z.object({ ms: z.number(), heapMb: z.number() })),
  read: z.number(),
  wait: z.number(),
  write: z.number(),
  crossClaim: z.number(),
  peakRssMb: z.number(),
});
export type RunTiming = z.infer<typeof RunTiming>;

/** shard.json, written by a finished `--shard K/N` run beside its reports: what `scrub merge` reads besides them. */
/**
 * 9: the manifest's reference carries its build key, which the merge compares (a version 8 shard's has none and would
 * be refused as built from other sources). 8: the manifest names the rules of a `--checks` run, which the merged summary names (a version 7 shard's would be read
 * as a run of every check). 7: the CSV reader keeps an unreadable row with its quoted claim id (CHECKPOINT_VERSION 11 in run-scrub.ts), so a
 * version 6 shard's claim positions may not interleave with this one's. 6: the counts say how many clean claims had a check that could not run (cleanNotChecked). 5: the counts' capped lists keep their smallest keys, not the first met (a version 4 shard's may hold others, and
 * the merge would not keep one run's). 4: claims.csv counts cross-claim findings and has a crossClaim column (a version 3 shard's rows would mix with
 * this one's). 3: the readers cut files into other claims and positions (see CHECKPOINT_VERSION 5 in run-scrub.ts), so a version 2
 * shard's claim positions do not interleave with this one's. 2: inputs carry their SHA-256 (a version 1 shard,
 * written before, cannot be merged with this one's).
 */
export const SHARD_MANIFEST_VERSION = 9;

export const ShardManifest = z.object({
  version: z.literal(SHARD_MANIFEST_VERSION),
  /** Inputs (names and sizes), checks, formats and options: equal for every shard of one run. */
  runKey: z.string(),
  shard: z.object({ index: Count, count: z.int().min(1) }),
  formats: z.object({ csv: z.boolean(), ndjson: z.boolean() }),
  /** The rules of a `--checks` run (absent: every check). */
  checks: z.array(z.string()).optional(),
  /** Every input, with the name of its 277CA files. */
  inputs: z.array(
    InputCount.extend({
      ackName: z.string(),
      usage: z.enum(['P', 'T']).optional(),
      /** Where the shard read the input: `scrub merge` reads an 837 again there for its 277CA, when it can. */
      location: z.object({ path: z.string(), member: z.string().optional(), gzip: z.boolean().optional() }).optional(),
    }),
  ),
  startedAt: z.string(),
  reference: RunReference,
  timing: RunTiming,
  stats: ScrubCounts,
  history: HistorySummary.optional(),
});
export type ShardManifest = z.infer<typeof ShardManifest>;
