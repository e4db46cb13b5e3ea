// Report rows (issue 12 §4): the columns of findings.csv, claims.csv and rejected.csv and how one finding, claim
// or rejected record becomes a row. Workers render their chunk's rows to text with these, so the main thread only
// writes; the headers are written once per report by the pipeline.
import { stringify } from 'csv-stringify/sync';
import type { Claim } from '../schemas/claim.js';
import type { Finding, NotChecked } from '../schemas/findings.js';
import type { RejectedRecord } from '../schemas/scrub.js';

/** findings.csv: one row per finding. `lines` and `codes` are `|`-separated. */
export const FINDING_COLUMNS = [
  'file',
  'claimId',
  'lineNumber',
  'codes',
  'ruleId',
  'code',
  'severity',
  'message',
  'fix',
  'dataset',
  'release',
  'policyId',
  'policyVersion',
  'derived',
] as const;

/** claims.csv: one row per claim read or rejected, in input order. */
export const CLAIM_COLUMNS = [
  'file',
  'line',
  'claimId',
  'claimType',
  'serviceLines',
  'status',
  'errors',
  'warnings',
  'info',
  'notChecked',
] as const;

/** rejected.csv: one row per input record that could not be read. */
export const REJECTED_COLUMNS = ['file', 'line', 'claimId', 'reason'] as const;

/** A claim's roll-up: the worst severity found, or rejected when it could not be read. */
export type ClaimStatus = 'clean' | 'warnings' | 'errors' | 'rejected';

/** The status of a validated claim from its findings (info findings leave it clean). */
export function claimStatusOf(findings: readonly Finding[]): ClaimStatus {
  let status: ClaimStatus = 'clean';
  for (const f of findings) {
    if (f.severity === 'error') {
      return 'errors';
    }
    if (f.severity === 'warning') {
      status = 'warnings';
    }
  }
  return status;
}

/** The header line of a CSV report. */
export function csvHeader(columns: readonly string[]): string {
  return stringify([[...columns]], { eof: true, record_delimiter: 'unix' });
}

/** A cell as RFC 4180 writes it: quoted (with quotes doubled) only when it holds a comma, quote or line break. */
function csvCell(value: string | number): string {
  if (typeof value === 'number') {
    return String(value);
  }
  return NEEDS_QUOTES.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}
const NEEDS_QUOTES = /[",\r\n]/;

/**
 * CSV text of rows (RFC 4180 quoting, LF line ends), the bytes csv-stringify writes (and a lone CR quoted). The
 * workers render every report row with it: csv-stringify's sync API cost about 5 us a row against 1.2 us here
 * (1,000-row batches of findings rows), and the scrubber writes about one finding per claim line.
 */
export function csvText(rows: readonly (readonly (string | number)[])[]): string {
  let out = '';
  for (const row of rows) {
    out += `${row.map(csvCell).join(',')}\n`;
  }
  return out;
}

/** A findings.csv row. */
export function findingRow(file: string, f: Finding): (string | number)[] {
  const s = f.source;
  return [
    file,
    f.claimId,
    f.lines.join('|'),
    f.codes.join('|'),
    f.rule,
    f.code,
    f.severity,
    f.message,
    f.fix ?? '',
    s?.dataset ?? '',
    s?.release ?? '',
    s?.policyId ?? '',
    s?.policyVersion ?? '',
    s?.derived === true ? 'true' : '',
  ];
}

/** A findings.ndjson line (without its newline): the finding with the file it came from. */
export function findingJson(file: string, f: Finding): string {
  return JSON.stringify({ file, ...f });
}

/** A claims.csv row of a validated claim. */
export function claimRow(
  file: string,
  line: number,
  claim: Claim,
  findings: readonly Finding[],
  notChecked: readonly NotChecked[],
): (string | number)[] {
  let errors = 0;
  let warnings = 0;
  let info = 0;
  for (const f of findings) {
    if (f.severity === 'error') {
      errors++;
    } else if (f.severity === 'warning') {
      warnings++;
    } else {
      info++;
    }
  }
  const status: ClaimStatus = errors > 0 ? 'errors' : warnings > 0 ? 'warnings' : 'clean';
  return [file, line, claim.claimId, claim.claimType, claim.lines.length, status, errors, warnings, info, notChecked.length];
}

/** A claims.csv row of a claim that could not be read. */
export function rejectedClaimRow(file: string, line: number, claimId: string | undefined, records: number): (string | number)[] {
  return [file, line, claimId ?? '', '', records, 'rejected', 0, 0, 0, 0];
}

/** A rejected.csv row. */
export function rejectedRow(r: RejectedRecord): (string | number)[] {
  return [r.file, r.line, r.claimId ?? '', r.reason];
}

/**
 * shard-index.csv of a `--shard` run: one row per claim of the shard (`part` claim, in claim order), then one per
 * claim with cross-claim findings (`part` batch), each with the claim's position in the whole run and the bytes it
 * wrote to each report, so `scrub merge` can interleave the shards' reports without parsing them.
 */
export const SHARD_INDEX_COLUMNS = ['part', 'claimOrder', 'findingsCsv', 'findingsNdjson', 'claims', 'rejected'] as const;

/** A shard-index.csv row: the part, the claim's position in the run, and the byte lengths of its report texts. */
export function shardIndexRow(part: 'claim' | 'batch', claimOrder: number, ...texts: readonly string[]): string {
  return `${part},${String(claimOrder)},${texts.map((t) => String(Buffer.byteLength(t, 'utf8'))).join(',')}\n`;
}
