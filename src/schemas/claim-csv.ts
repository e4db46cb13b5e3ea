// The claim CSV contract (issue 12 §2): one row per service line, the columns below, matched case-insensitively.
// This schema is the contract's one definition: the reader takes its column list and required columns from it and
// docs/scrubber.md's column table is generated from it. Cells are text; the reader turns a claim's rows into a Claim.
import { z } from 'zod';

/** A cell that may be absent or blank. */
const optional = (description: string): z.ZodOptional<z.ZodString> => z.string().optional().describe(description);
/** A cell every row must have. */
const required = (description: string): z.ZodString => z.string().min(1).describe(description);

/** One row of a claim CSV, as text: `level` says whether a column is per claim (same on every row) or per line. */
export const ClaimCsvRow = z.object({
  claimId: required('claim: the claim id; rows of one claim are adjacent'),
  lineNumber: optional('line: 1-based service line number; the row position in its claim when blank'),
  patientId: optional('claim: patient (member) id; the key of cross-claim checks'),
  patientBirthDate: optional('claim: YYYY-MM-DD'),
  patientSex: optional('claim: M, F or U'),
  claimType: required('claim: professional, institutional or dme'),
  providerType: optional('claim: Physician, Facility, DME or HomeHealth'),
  billingProviderState: optional('claim: USPS state code'),
  billingProviderZip: optional('claim: ZIP or ZIP+4'),
  contractorNumber: optional('claim: Medicare contractor number (5 digits)'),
  payerCode: optional('claim: payer code (policy packs scoped to payers)'),
  dateOfServiceFrom: required('line: YYYY-MM-DD, the line date of service'),
  dateOfServiceTo: optional('line: YYYY-MM-DD, last date of service of the line'),
  placeOfService: optional('line: 2-digit CMS place of service'),
  procedureCode: required(
    'line: CPT/HCPCS (or ICD-10-PCS on institutional claims); blank on an institutional revenue-only row (a revenueCode and no procedure: room and board, pharmacy), read as an 837I SV2 without HCPCS: counted in serviceLines, no code to check',
  ),
  modifiers: optional('line: up to 4, `|`-separated'),
  units: optional('line: units of service; 1 when blank'),
  diagnosisCodes: optional('claim: `|`-separated in claim order, dotted or not; the first is principal / first-listed; up to 25 (as an 837I: the principal and 24 others); more than 12 on a professional or DME claim is a claim.structure error (CLAIM_TOO_MANY_DIAGNOSES: an 837P carries 12)'),
  diagnosisPointers: optional(
    'line: `|`-separated 1-based pointers into diagnosisCodes (up to 12); every diagnosis when blank; one past the claim\'s diagnoses is a claim.structure error (CLAIM_POINTER_INVALID), one given twice too (CLAIM_POINTER_REPEATED: its diagnosis is read once)',
  ),
  poaIndicators: optional('claim: `|`-separated, parallel to diagnosisCodes (Y, N, U, W, 1 or blank)'),
  revenueCode: optional('line: 4-digit UB-04 revenue code (institutional)'),
  icdType: optional('claim: ICD-10 CM or ICD-9 CM; ICD-10 CM when blank'),
  billType: optional(
    'claim: UB-04 type of bill with or without its leading 0 (`0111` inpatient, `0131` outpatient; `013` when the frequency is unknown); institutional claims',
  ),
});
export type ClaimCsvRow = z.infer<typeof ClaimCsvRow>;

/** A column of the contract. */
export type ClaimCsvColumn = keyof ClaimCsvRow;

/** The contract's columns in documented order. */
export const CLAIM_CSV_COLUMNS = Object.keys(ClaimCsvRow.shape) as ClaimCsvColumn[];

/** The columns every claim CSV must have in its header. */
export const REQUIRED_CLAIM_CSV_COLUMNS: readonly ClaimCsvColumn[] = CLAIM_CSV_COLUMNS.filter(
  (c) => !ClaimCsvRow.shape[c].safeParse(undefined).success,
);
