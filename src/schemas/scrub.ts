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

/** `summary.json` of a scrub run (issue 12 §4): what was read, what was found, what could not be checked, how fast. */
export const ScrubSummary = z
  .object({
    startedAt: z.string(),
    finishedAt: z.string(),
    /** True when the run continued from a checkpoint (`--resume`). */
    resumed: z.boolean(),
    inputs: z.array(z.object({ name: z.string(), format: InputFormat, claims: z.int(), linesRead: z.int() })),
    claims: z.object({
      read: z.int(),
      clean: z.int(),
      warnings: z.int(),
      errors: z.int(),
      rejected: z.int(),
      /** Share of claims read that came back clean (no error, no warning), 0..1. */
      cleanRate: z.number(),
    }),
    linesRead: z.int(),
    linesScrubbed: z.int(),
    linesRejected: z.int(),
    /** `linesRead = linesScrubbed + linesRejected` and claims read = claims reported in claims.csv. */
    accounting: z.object({ linesBalance: z.boolean(), claimsReported: z.int(), claimsBalance: z.boolean() }),
    findings: z.object({
      total: z.int(),
      bySeverity: BySeverity,
      byRule: z.array(BySeverity.extend({ rule: z.string() })),
    }),
    rejectedRecords: z.int(),
    /**
     * Billing providers with the most claims with errors (the claim model has no NPI: a provider is its contractor
     * number, else state and ZIP5 as billed; a rejected claim has none), at most 20.
     */
    topProviders: z.array(
      z.object({ provider: z.string(), claims: z.int(), errors: z.int(), warnings: z.int() }),
    ),
    reference: z.object({
      database: z.string(),
      builtAt: z.string(),
      schemaVersion: z.int(),
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
      /** Cross-claim checks at the end of the run: the store's SQL and writing their findings (ms). */
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
