// The files a scrub run keeps in --out, named once for the run (run-scrub.ts) and for `scrub merge`
// (merge-shards.ts): the per-claim reports with their headers, the shard index, and the run's own state files.
import { CLAIM_COLUMNS, csvHeader, FINDING_COLUMNS, REJECTED_COLUMNS, SHARD_INDEX_COLUMNS } from '../reports/rows.js';

/** The reports appended claim by claim, and the shard index written beside them in a `--shard` run. */
export const REPORTS = {
  findingsCsv: { file: 'findings.csv', header: csvHeader(FINDING_COLUMNS) },
  findingsNdjson: { file: 'findings.ndjson', header: '' },
  claimsCsv: { file: 'claims.csv', header: csvHeader(CLAIM_COLUMNS) },
  rejectedCsv: { file: 'rejected.csv', header: csvHeader(REJECTED_COLUMNS) },
  shardIndex: { file: 'shard-index.csv', header: csvHeader(SHARD_INDEX_COLUMNS) },
} as const;
export type ReportKey = keyof typeof REPORTS;

/** The checkpoint: a run holding one has not finished. */
export const CHECKPOINT = '.scrub-checkpoint.json';
/** The cross-claim facts of the run, kept beside the checkpoint so a resumed run has those of the claims done. */
export const CROSS_CLAIM_DB = '.scrub-cross-claim.sqlite';
/** The file a finished shard run writes beside its reports. */
export const SHARD_MANIFEST = 'shard.json';
