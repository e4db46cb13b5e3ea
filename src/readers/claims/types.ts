// What every claim reader yields (issue 12 §2): claims in the claim model, each with where it came from, and the
// claims that could not be read, whole (a claim with one bad row is rejected with all its rows, never half-scrubbed).
import type { Claim } from '../../schemas/claim.js';
import type { RejectedRecord } from '../../schemas/scrub.js';

/** A claim read from a file. */
export interface ReadClaim {
  readonly kind: 'claim';
  readonly claim: Claim;
  readonly file: string;
  /** Where the claim starts: physical line (CSV, NDJSON) or segment number (X12 CLM). */
  readonly line: number;
  /** Input lines the claim covers (CSV records, NDJSON: 1, X12: its service lines; at least 1). */
  readonly inputLines: number;
  /**
   * Revenue-only lines: an institutional line with a revenue code and no procedure code (room and board, pharmacy),
   * an 837I SV2 without HCPCS or a CSV/NDJSON line without procedureCode. Read and counted, not lines of the claim
   * model (the engine has no code to check on them); claims.csv's serviceLines counts them with the model's lines.
   */
  readonly revenueOnlyLines?: number;
}

/** A claim (or an unattributable stretch of input) that could not be read: one record per input line it covers. */
export interface ReadRejected {
  readonly kind: 'rejected';
  readonly file: string;
  /** The claim id when known. */
  readonly claimId: string | undefined;
  /** At least one; their count is the input lines this item covers. */
  readonly records: readonly RejectedRecord[];
  /**
   * Where the claim starts, when that is not its first record's line: an X12 claim's CLM segment (its records are
   * its service lines). claims.csv and the 277CA name a claim by it, rejected or not.
   */
  readonly line?: number | undefined;
  /**
   * A fault of the file's structure, not a claim (a wrong SE/GE/IEA count, a segment outside any transaction): its
   * record goes to rejected.csv, but it is no claim in claims.csv, the 277CA or the claim counts.
   */
  readonly structural?: true | undefined;
}

/** A rejected record, with the claim id only when there is one (the schema's field is optional, not blank). */
export function rejectedRecord(file: string, line: number, claimId: string | undefined, reason: string): RejectedRecord {
  return claimId === undefined ? { file, line, reason } : { file, line, claimId, reason };
}

/** The rejected item of one input line: a line that is no claim, or a claim of one line that cannot be read. */
export function rejectedLine(file: string, line: number, claimId: string | undefined, reason: string): ReadRejected {
  return { kind: 'rejected', file, claimId, records: [rejectedRecord(file, line, claimId, reason)] };
}

/** One item of a claim reader's output, in input order. */
export type ReadItem = ReadClaim | ReadRejected;

/** Whether an item is a fault of its file's structure: no claim and no input line (see ReadRejected.structural). */
export const isStructural = (item: ReadItem): boolean => item.kind === 'rejected' && item.structural === true;

/**
 * Why a claim read whole has nothing to check: no diagnosis and no line with a procedure code (only revenue-only
 * lines). A UB-04 always names a principal diagnosis; in a CSV file such a claim is most often a claim's stray row
 * away from its others. `undefined` when the claim has something to check.
 */
export function nothingToCheck(claim: { readonly diagnoses: readonly unknown[]; readonly lines: readonly unknown[] }): string | undefined {
  return claim.diagnoses.length === 0 && claim.lines.length === 0
    ? 'the claim has no diagnosis and no line with a procedure code (only revenue-only lines): nothing to check'
    : undefined;
}
