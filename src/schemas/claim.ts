// The claim model (issue 11 §1): one shape for a claim whatever it came from (a CodeValidate request, a CSV row
// group, an NDJSON line, an 837 transaction). The validation engine reads only this; readers and the HTTP shim
// build it at the edge. Codes are kept as submitted (dotted or not); the engine normalises them.
import { z } from 'zod';
import { compileAcceptance } from './accept.js';

/** A calendar date, ISO `YYYY-MM-DD`. */
export const IsoDate = z.iso.date();
export type IsoDate = z.infer<typeof IsoDate>;

/** The claim form: 837P / CMS-1500, 837I / UB-04, or a DME supplier claim. */
export const ClaimType = z.enum(['professional', 'institutional', 'dme']).meta({ id: 'ClaimType' });
export type ClaimType = z.infer<typeof ClaimType>;

/**
 * Who bills, as the spec's `providerType` names it: it picks the NCCI table (practitioner, outpatient hospital, DME)
 * and the contractor type (Part B, Part A, DME MAC, HH+H MAC).
 */
export const ProviderType = z.enum(['Physician', 'Facility', 'DME', 'HomeHealth']).meta({ id: 'ProviderType' });
export type ProviderType = z.infer<typeof ProviderType>;

/** Sex as a claim carries it: `U` unknown. */
export const Sex = z.enum(['M', 'F', 'U']);
export type Sex = z.infer<typeof Sex>;

/** The diagnosis code set of a claim (`icdType`). */
export const IcdType = z.enum(['ICD-10 CM', 'ICD-9 CM']);
export type IcdType = z.infer<typeof IcdType>;

const ICD_TYPES = new Map(IcdType.options.map((t) => [t.toLowerCase().replace(/[^a-z0-9]/g, ''), t]));

/**
 * Reads an `icdType` as a file or a request may spell it: any case, with or without spaces, hyphens or other
 * punctuation (`ICD-10 CM`, `ICD-10-CM`, `icd10cm`, `ICD_9_CM`); `undefined` for anything else.
 */
export function parseIcdType(value: string): IcdType | undefined {
  return ICD_TYPES.get(value.toLowerCase().replace(/[^a-z0-9]/g, ''));
}

/** `providerType` spellings (operations.md) → the claim model's provider type. */
const PROVIDER_TYPES: Readonly<Record<string, ProviderType>> = {
  h: 'Facility',
  hospital: 'Facility',
  facility: 'Facility',
  institutional: 'Facility',
  p: 'Physician',
  physician: 'Physician',
  professional: 'Physician',
  dme: 'DME',
  homehealth: 'HomeHealth',
  hhh: 'HomeHealth',
};

/** Reads a `providerType` as the request spells it; `undefined` for a spelling no type has. */
export function parseProviderType(value: string): ProviderType | undefined {
  return PROVIDER_TYPES[
    value
      .trim()
      .toLowerCase()
      .replace(/[\s_-]/g, '')
  ];
}

/** Reads a PatientProfile `gender` (domain.md section 13: `fale` is the spec's typo for male). */
export function parseGender(value: string): 'M' | 'F' | undefined {
  const v = value.trim().toLowerCase();
  return v === 'm' || v === 'male' || v === 'fale' ? 'M' : v === 'f' || v === 'female' ? 'F' : undefined;
}

/** Present-on-admission indicator (UB-04 FL 67): Y, N, U, W, or 1 (exempt, blank on 5010 claims). */
export const PoaIndicator = z.enum(['Y', 'N', 'U', 'W', '1']);
export type PoaIndicator = z.infer<typeof PoaIndicator>;

/** The patient, as far as the claim says; every field optional (a missing field makes its checks `notChecked`). */
export const ClaimPatient = z.object({
  id: z.string().optional(),
  birthDate: IsoDate.optional(),
  /** Age in years; `birthDate` wins when both are given (age on the date of service). */
  age: z.int().min(0).max(150).optional(),
  sex: Sex.optional(),
});
export type ClaimPatient = z.infer<typeof ClaimPatient>;

/**
 * USPS codes of the states, DC, the territories and freely associated states, and the armed forces' addresses: what
 * an 837 N402 or a claim's state may hold (`ZZ` is two letters, and no state).
 */
const US_STATE_CODES = [
  'AL', 'AK', 'AZ', 'AR', 'CA', 'CO', 'CT', 'DE', 'FL', 'GA', 'HI', 'ID', 'IL', 'IN', 'IA', 'KS', 'KY', 'LA', 'ME',
  'MD', 'MA', 'MI', 'MN', 'MS', 'MO', 'MT', 'NE', 'NV', 'NH', 'NJ', 'NM', 'NY', 'NC', 'ND', 'OH', 'OK', 'OR', 'PA',
  'RI', 'SC', 'SD', 'TN', 'TX', 'UT', 'VT', 'VA', 'WA', 'WV', 'WI', 'WY', 'DC',
  'AS', 'GU', 'MP', 'PR', 'VI', 'UM', 'FM', 'MH', 'PW', 'AA', 'AE', 'AP',
] as const;
/** A USPS state or territory code, upper-case (`VA`): a pattern of the codes, so its type stays a string. */
export const UsState = z
  .string()
  .regex(new RegExp(`^(?:${US_STATE_CODES.join('|')})$`), { error: 'not a USPS state or territory code' });
/** A ZIP code, 5 digits or ZIP+4 with or without the hyphen. */
export const ZipCode = z.string().regex(/^\d{5}(-?\d{4})?$/);
/** A Medicare contractor number: 5 digits (`01112`). */
export const ContractorNumber = z.string().regex(/^\d{5}$/);

/** The billing provider. */
export const ClaimProvider = z.object({
  type: ProviderType.optional(),
  state: UsState.optional(),
  zip: ZipCode.optional(),
  contractorNumber: ContractorNumber.optional(),
});
export type ClaimProvider = z.infer<typeof ClaimProvider>;

/** One diagnosis, in claim order: the first is the principal (institutional) or first-listed diagnosis. */
export const ClaimDiagnosis = z.object({
  code: z.string().min(1),
  poa: PoaIndicator.optional(),
});
export type ClaimDiagnosis = z.infer<typeof ClaimDiagnosis>;

/** The most units a line holds: 15 digits, as X12's SV104/SV205 (R, 15 characters) and a claim CSV's cell. */
export const MAX_UNITS = 999_999_999_999_999;

/** A UB-04 revenue code: four digits (0120 room and board, 0250 pharmacy). */
export const REVENUE_CODE = /^\d{4}$/;

/** One service line. */
export const ClaimLine = z.object({
  /** 1-based line number as submitted (LX / the CSV's `lineNumber`): findings name lines by it. */
  lineNumber: z.int().min(1),
  procedureCode: z.string().min(1),
  modifiers: z.array(z.string().regex(/^[A-Z0-9]{2}$/)).max(4),
  units: z.number().positive().max(MAX_UNITS),
  /** The line's date of service; the claim's `dateOfServiceFrom` when absent. */
  dateOfService: IsoDate.optional(),
  /** 1-based pointers into the claim's diagnoses; absent = every diagnosis applies to the line. */
  diagnosisPointers: z.array(z.int().min(1)).max(12).optional(),
  placeOfService: z
    .string()
    .regex(/^\d{2}$/)
    .optional(),
  /** UB-04 revenue code (institutional lines). */
  revenueCode: z.string().regex(REVENUE_CODE).optional(),
});
export type ClaimLine = z.infer<typeof ClaimLine>;

/**
 * An institutional revenue-only line as a claim file gives it (a revenue code, no procedure code: room and board,
 * pharmacy): checked as any line is, then left out of the claim (the readers count it, ReadClaim.revenueOnlyLines).
 */
export const RevenueOnlyLine = ClaimLine.omit({ procedureCode: true }).required({ revenueCode: true });

/**
 * A UB-04 type of bill without its leading 0: the two digits of the 837I facility type code, then the claim
 * frequency code (a digit or a letter) when it is known.
 */
export const BillType = z.string().regex(/^[1-9]\d[0-9A-Z]?$/);

/**
 * Reads a type of bill as a claim file or request writes it: with or without its leading 0, in any case (`0111`,
 * `131`, `013`); `undefined` for a string that is no type of bill.
 */
export function parseBillType(value: string): string | undefined {
  const bill = value
    .trim()
    .toUpperCase()
    .replace(/^0(?=\d\d[0-9A-Z]?$)/, '');
  return BillType.safeParse(bill).success ? bill : undefined;
}

/**
 * Whether a type of bill is an inpatient one, the claims the MCE's admission edits are written for: a hospital,
 * SNF or religious non-medical facility (first digit 1, 2, 4) billing inpatient Part A or swing bed (second digit 1
 * or 8). Inpatient Part B (12x, 22x), outpatient (13x), other Part B (14x), clinic (7x) and special-facility (8x)
 * bills go through the outpatient edits.
 */
export function isInpatientBill(billType: string): boolean {
  return '124'.includes(billType[0] ?? '') && '18'.includes(billType[1] ?? '');
}

/** A claim: the engine's one input. */
export const Claim = z
  .object({
    claimId: z.string().min(1),
    claimType: ClaimType,
    patient: ClaimPatient.optional(),
    provider: ClaimProvider.optional(),
    payerCode: z.string().optional(),
    dateOfServiceFrom: IsoDate,
    dateOfServiceTo: IsoDate.optional(),
    /**
     * UB-04 type of bill without its leading 0, institutional claims: facility type, bill classification, frequency
     * (`111` hospital inpatient admit through discharge, `131` hospital outpatient). 837I CLM05-1 and CLM05-3.
     */
    billType: BillType.optional(),
    icdType: IcdType.optional(),
    diagnoses: z.array(ClaimDiagnosis).max(25),
    lines: z.array(ClaimLine),
  })
  .meta({ id: 'Claim' });
export type Claim = z.infer<typeof Claim>;

const claimAcceptance = compileAcceptance(Claim);

/**
 * `Claim.safeParse`, with a fast yes for a claim already in the model's shape: the claim readers build each claim in
 * the schema's member order, and such a claim is returned as it is, not walked and copied by zod. Anything else
 * (an invalid value, an unknown member, another order) goes through zod, which decides and words the error.
 */
export function parseClaim(value: unknown): z.ZodSafeParseResult<Claim> {
  return claimAcceptance.accepts(value) ? { success: true, data: value as Claim } : Claim.safeParse(value);
}

/** The parts of the claim schema the fast yes does not understand (none: a test keeps it so). */
export const claimAcceptanceGaps: readonly string[] = claimAcceptance.gaps;
