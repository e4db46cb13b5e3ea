// The files a scrub run keeps in --out, named once for the run (run-scrub.ts) and for `scrub merge`
// (merge-shards.ts): the per-claim reports with their headers, the shard index, and the run's own state files.
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { errorCode, OutputError } from '../errors.js';
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

/** Whether a file name is one a run or a merge writes in --out (its reports, summary, page, 277CAs, manifest). */
export function isRunReport(name: string): boolean {
  return (
    name === 'summary.json' ||
    name === 'report.html' ||
    name === SHARD_MANIFEST ||
    Object.values(REPORTS).some((r) => r.file === name) ||
    /^(277ca-.*\.x12|warnings-.*\.csv)$/.test(name)
  );
}

/**
 * Removes the reports of an earlier run from --out, before a fresh run or a merge writes its own: none may be left
 * behind that this one would not write again (yesterday's 277CA beside tonight's, a findings.ndjson of a run with
 * another --format).
 * @throws OutputError when one cannot be removed
 */
export async function removeEarlierReports(outDir: string): Promise<void> {
  for (const name of await readdir(outDir)) {
    if (isRunReport(name)) {
      try {
        await rm(join(outDir, name), { force: true });
      } catch (e) {
        throw new OutputError(`cannot replace ${join(outDir, name)}: ${errorCode(e)}`, { cause: e });
      }
    }
  }
}
