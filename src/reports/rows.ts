// Report rows (issue 12 §4): the columns of findings.csv, claims.csv and rejected.csv and how one finding, claim
// or rejected record becomes a row. Workers render their chunk's findings and rejected rows to text with these, and
// each claim's frame (its claims.csv row without the tally, and its own tally); the main thread writes them, and
// writes each claims.csv row at the end with the claim's cross-claim findings counted. The headers are written
// once per report by the pipeline.
import { stringify } from 'csv-stringify/sync';
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
  'crossClaim',
] as const;

/** rejected.csv: one row per input record that could not be read. */
export const REJECTED_COLUMNS = ['file', 'line', 'claimId', 'reason'] as const;

/** A claim's roll-up: the worst severity found, or rejected when it could not be read. */
export const CLAIM_STATUSES = ['clean', 'warnings', 'errors', 'rejected'] as const;
export type ClaimStatus = (typeof CLAIM_STATUSES)[number];

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

/** Findings counted by severity. */
export interface SeverityCounts {
  errors: number;
  warnings: number;
  info: number;
}

/** Counts one finding of a severity. */
export function addSeverity(counts: SeverityCounts, severity: Finding['severity']): void {
  if (severity === 'error') {
    counts.errors++;
  } else if (severity === 'warning') {
    counts.warnings++;
  } else {
    counts.info++;
  }
}

/** A claim's roll-up in claims.csv: its status and how many findings of each severity it has. */
export interface ClaimTally extends Readonly<SeverityCounts> {
  readonly status: ClaimStatus;
  /** Checks that could not run on the claim. */
  readonly notChecked: number;
}

/** The status of a read claim from its counts (info findings leave it clean). */
function statusOfCounts(errors: number, warnings: number): ClaimStatus {
  return errors > 0 ? 'errors' : warnings > 0 ? 'warnings' : 'clean';
}

/** The tally of a validated claim's own findings. */
export function claimTally(findings: readonly Finding[], notChecked: readonly NotChecked[]): ClaimTally {
  const counts: SeverityCounts = { errors: 0, warnings: 0, info: 0 };
  for (const f of findings) {
    addSeverity(counts, f.severity);
  }
  return { status: statusOfCounts(counts.errors, counts.warnings), ...counts, notChecked: notChecked.length };
}

/** The tally of a claim that could not be read. */
export const REJECTED_TALLY: ClaimTally = { status: 'rejected', errors: 0, warnings: 0, info: 0, notChecked: 0 };

/** The cells of a claims.csv row before its tally (file to serviceLines), as CSV text ending in a comma. */
export function claimRowHead(file: string, line: number, claimId: string | undefined, claimType: string, serviceLines: number): string {
  return `${[file, line, claimId ?? '', claimType, serviceLines].map(csvCell).join(',')},`;
}

/** A claim's tally with its cross-claim findings, and how many of the counted findings those are. */
export interface RolledUpTally extends ClaimTally {
  readonly crossClaim: number;
}

/**
 * A claim's own tally with its cross-claim findings added: they count in its status and severity counts. A rejected
 * claim stays rejected.
 */
export function withCrossClaim(own: ClaimTally, cross: SeverityCounts | undefined): RolledUpTally {
  if (cross === undefined) {
    return { ...own, crossClaim: 0 };
  }
  const errors = own.errors + cross.errors;
  const warnings = own.warnings + cross.warnings;
  return {
    status: own.status === 'rejected' ? 'rejected' : statusOfCounts(errors, warnings),
    errors,
    warnings,
    info: own.info + cross.info,
    notChecked: own.notChecked,
    crossClaim: cross.errors + cross.warnings + cross.info,
  };
}

/** A claims.csv row (with its line end) from its head (claimRowHead) and tally. */
export function claimsCsvRow(head: string, t: RolledUpTally): string {
  return `${head}${rowTail(t, t.crossClaim)}`;
}

/** The tally a frame header's cells (FRAME order) hold. */
export function frameTally(cells: Float64Array): ClaimTally {
  return {
    status: CLAIM_STATUSES[cells[FRAME.status] as number] as ClaimStatus,
    errors: cells[FRAME.errors] as number,
    warnings: cells[FRAME.warnings] as number,
    info: cells[FRAME.info] as number,
    notChecked: cells[FRAME.notChecked] as number,
  };
}

/** The bytes of the row tail (rowTail, no cross-claim findings) a frame header's cells (FRAME order) describe. */
export function rowTailLength(cells: Float64Array): number {
  return rowTail(frameTally(cells), 0).length;
}

/** The cells of a claims.csv row from its status on, with its line end: ASCII only. */
function rowTail(t: ClaimTally, crossClaim: number): string {
  return `${t.status},${String(t.errors)},${String(t.warnings)},${String(t.info)},${String(t.notChecked)},${String(crossClaim)}\n`;
}

/**
 * A claim's part of `.scrub-claims.part`, the file a run writes its claims to while it goes on: one header line
 * (its position in the run, the bytes it wrote to findings.csv, findings.ndjson and rejected.csv, its own tally, the
 * byte lengths of the texts after the line and of its row's head), its billing provider and its claims.csv row as its
 * own findings make it. At the end of the run a claim without cross-claim findings has its row copied as it stands;
 * the others' rows are written again from the head with those findings counted (finish-claims.ts).
 */
export interface ClaimFrame {
  readonly order: number;
  /**
   * Bytes of findings.csv, findings.ndjson and rejected.csv, in SHARD_INDEX_COLUMNS order without `claims` (a
   * sharded run's; 0 in a run without shard-index.csv).
   */
  readonly bytes: readonly [number, number, number];
  readonly tally: ClaimTally;
  /** The provider key of the summary's providers, or '' (a rejected claim counts for none). */
  readonly provider: string;
  /** See claimRowHead. */
  readonly head: string;
}

/** A claim frame as text (see ClaimFrame). */
export function claimFrameText(frame: ClaimFrame): string {
  const t = frame.tally;
  // The row as claimsCsvRow writes it without cross-claim findings; its tail is ASCII (one byte a character).
  const tail = rowTail(t, 0);
  const providerBytes = Buffer.byteLength(frame.provider, 'utf8');
  const headBytes = Buffer.byteLength(frame.head, 'utf8');
  const [f, j, r] = frame.bytes;
  return `${String(frame.order)} ${String(f)} ${String(j)} ${String(r)} ${t.status} ${String(t.errors)} ${String(t.warnings)} ${String(t.info)} ${String(t.notChecked)} ${String(providerBytes)} ${String(headBytes + tail.length)} ${String(headBytes)}\n${frame.provider}${frame.head}${tail}`;
}

/** The cells of a claim frame's header line, in order (`FRAME.status` read as its index in CLAIM_STATUSES). */
export const FRAME = {
  order: 0,
  findingsCsv: 1,
  findingsNdjson: 2,
  rejected: 3,
  status: 4,
  errors: 5,
  warnings: 6,
  info: 7,
  notChecked: 8,
  providerBytes: 9,
  rowBytes: 10,
  headBytes: 11,
} as const;
/** How many cells a frame header has. */
export const FRAME_CELLS = Object.keys(FRAME).length;
/** Longest header line a frame can have (its cells of at most 16 characters and their spaces). */
export const FRAME_HEADER_MAX = FRAME_CELLS * 17;

/** The statuses as a frame header's status cell is compared with, by their index in CLAIM_STATUSES. */
const STATUS_BYTES = CLAIM_STATUSES.map((s) => Buffer.from(s, 'latin1'));

/** The CLAIM_STATUSES index of the word `bytes[start, end)`, or -1. */
function statusAt(bytes: Uint8Array, start: number, end: number): number {
  for (let s = 0; s < STATUS_BYTES.length; s++) {
    const word = STATUS_BYTES[s] as Buffer;
    if (word.length === end - start && word.compare(bytes, start, end) === 0) {
      return s;
    }
  }
  return -1;
}

/**
 * Reads a claim frame's header line, `bytes[start, end)` without its newline, into `cells` (FRAME order, the status
 * as its CLAIM_STATUSES index), without making a string: the end of a run reads one per claim.
 * @returns false when the line is no frame header (the cells are then undefined)
 */
export function readFrameHeader(bytes: Uint8Array, start: number, end: number, cells: Float64Array): boolean {
  let cell = 0;
  let at = start;
  while (at < end && cell < FRAME_CELLS) {
    let stop = at;
    while (stop < end && bytes[stop] !== 32) {
      stop++;
    }
    if (stop === at) {
      return false;
    }
    if (cell === FRAME.status) {
      const status = statusAt(bytes, at, stop);
      if (status < 0) {
        return false;
      }
      cells[cell] = status;
    } else {
      if (stop - at > 16) {
        return false;
      }
      let n = 0;
      for (let i = at; i < stop; i++) {
        const digit = (bytes[i] as number) - 48;
        if (digit < 0 || digit > 9) {
          return false;
        }
        n = n * 10 + digit;
      }
      cells[cell] = n;
    }
    cell++;
    at = stop + 1;
  }
  // Every cell, each ended by a space but the last; the head lies within the row.
  return cell === FRAME_CELLS && at === end + 1 && (cells[FRAME.headBytes] as number) <= (cells[FRAME.rowBytes] as number);
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

/** A shard-index.csv row: the part, the claim's position in the run, and the bytes it wrote to each report. */
export function shardIndexRow(part: 'claim' | 'batch', claimOrder: number, bytes: readonly number[]): string {
  return `${part},${String(claimOrder)},${bytes.join(',')}\n`;
}
