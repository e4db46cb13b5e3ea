// The closed registry of finding codes (style.md guideline 6): every code a claim check can report (the claim rules
// and the batch checks across claims), the rule that reports it, its default severity and what it means. The code
// engine's reason codes (CodeReasonCode, the finer `invalidReason`) are finding codes of the `code.validity` rule
// under the same names, so a code-validity finding and a CodeDetail say the same thing in the same words. The
// README's finding table is generated from this map.
import type { CodeReasonCode } from '../schemas/codes.js';
import type { Severity } from '../schemas/findings.js';

interface FindingCodeEntry {
  /** The rule (src/engines/validation/rules/<rule>.ts) that reports the code. */
  readonly rule: string;
  readonly severity: Severity;
  readonly meaning: string;
}

const codeValidity = (severity: Severity, meaning: string): FindingCodeEntry => ({
  rule: 'code.validity',
  severity,
  meaning,
});

/** Every finding code, its rule, default severity and meaning. */
export const FindingCodes = {
  // code.validity: the code engine's reasons (src/engines/codes/messages.ts renders their messages)
  CODE_NOT_FOUND: codeValidity('error', 'The code is in no loaded release of its code set.'),
  CODE_NOT_YET_VALID: codeValidity('error', 'The code takes effect after the date of service.'),
  CODE_DELETED: codeValidity(
    'error',
    'The code was deleted before the date of service; the message names its replacement.',
  ),
  CODE_ICD9_ENDED: codeValidity('error', 'An ICD-9-CM code on a service from 2015-10-01.'),
  CODE_ICD10_NOT_YET: codeValidity('error', 'An ICD-10 code on a service before 2015-10-01.'),
  CODE_NO_DATA: codeValidity('warning', 'No loaded release covers the date: reported as not checked, never a pass.'),
  CODE_HEADER: codeValidity('error', 'A header (category or subcategory), not a billable code.'),
  CODE_NEEDS_7TH: codeValidity('error', 'The code needs a 7th character.'),
  CODE_PLACEHOLDER_MISSING: codeValidity('error', 'A 7th-character code written without its placeholder X.'),
  CODE_BAD_7TH: codeValidity('error', 'The 7th character is not one the code allows.'),
  CODE_MALFORMED: codeValidity('error', 'The string has the shape of no code of the expected code set.'),
  CODE_AMBIGUOUS: codeValidity('warning', 'The string fits several code sets and the claim does not say which.'),
  CODE_WRONG_SET: codeValidity(
    'error',
    'An ICD-10-CM diagnosis code where a procedure belongs, or an ICD-10-PCS code on a claim that is not inpatient.',
  ),

  // MCE (Definitions of Medicare Code Edits): one rule per edit
  MCE_AGE_CONFLICT: {
    rule: 'mce.age-conflict',
    severity: 'error',
    meaning: "The diagnosis is on an MCE age list that excludes the patient's age.",
  },
  MCE_SEX_CONFLICT: {
    rule: 'mce.sex-conflict',
    severity: 'error',
    meaning: "The code is on an active MCE sex list that excludes the patient's sex.",
  },
  MCE_MANIFESTATION_AS_PDX: {
    rule: 'mce.manifestation-as-pdx',
    severity: 'error',
    meaning: 'A manifestation code reported as principal diagnosis.',
  },
  MCE_E_CODE_AS_PDX: {
    rule: 'mce.e-code-as-pdx',
    severity: 'error',
    meaning: 'An external-cause code (V00-Y99) reported as principal diagnosis.',
  },
  MCE_UNACCEPTABLE_PDX: {
    rule: 'mce.unacceptable-pdx',
    severity: 'error',
    meaning: 'A code on the MCE unacceptable-principal-diagnosis list reported as principal.',
  },
  MCE_REQUIRES_SDX: {
    rule: 'mce.requires-sdx',
    severity: 'error',
    meaning: 'A principal diagnosis acceptable only with a secondary diagnosis, reported without one.',
  },
  MCE_DUPLICATE_OF_PDX: {
    rule: 'mce.duplicate-of-pdx',
    severity: 'error',
    meaning: 'A secondary diagnosis that repeats the principal diagnosis.',
  },
  MCE_QUESTIONABLE_ADMISSION: {
    rule: 'mce.questionable-admission',
    severity: 'warning',
    meaning: 'A principal diagnosis (or delivery procedure) not usually sufficient for an inpatient admission.',
  },
  MCE_UNSPECIFIED_CODE: {
    rule: 'mce.unspecified-code',
    severity: 'warning',
    meaning: 'An unspecified code where the MCE expects a more specific one.',
  },
  MCE_NON_COVERED: {
    rule: 'mce.non-covered-procedure',
    severity: 'error',
    meaning: 'A procedure Medicare never covers, or not in the circumstances the claim shows.',
  },
  MCE_LIMITED_COVERAGE: {
    rule: 'mce.limited-coverage',
    severity: 'warning',
    meaning: 'A procedure Medicare covers only in limited circumstances.',
  },
  MCE_WRONG_PROCEDURE: {
    rule: 'mce.wrong-procedure',
    severity: 'error',
    meaning: 'An external-cause code saying the wrong procedure was performed.',
  },
  MCE_PROCEDURE_LOS: {
    rule: 'mce.procedure-los',
    severity: 'error',
    meaning: 'A procedure the MCE ties to a length of stay (ventilation over 96 hours) on a stay too short for it.',
  },

  // ICD-10-CM instructional notes
  DX_EXCLUDES1: {
    rule: 'dx.excludes1',
    severity: 'warning',
    meaning: 'Two diagnoses an Excludes1 note says are not coded together.',
  },
  DX_CODE_FIRST: {
    rule: 'dx.code-first',
    severity: 'warning',
    meaning: 'A manifestation code reported without any code of the etiology its "code first" note requires.',
  },

  // NCCI
  PTP_CONFLICT: {
    rule: 'ncci.ptp',
    severity: 'error',
    meaning: 'Two procedures on one date that an NCCI PTP edit does not pay together.',
  },
  PTP_BYPASSED: {
    rule: 'ncci.ptp',
    severity: 'info',
    meaning: 'An NCCI PTP edit resolved by a bypass modifier on the line.',
  },
  MUE_EXCEEDED: {
    rule: 'ncci.mue',
    severity: 'error',
    meaning: 'Units over the MUE value (per line for MAI 1, per date for MAI 2).',
  },
  MUE_EXCEEDED_CLINICAL: {
    rule: 'ncci.mue',
    severity: 'warning',
    meaning: 'Units per date over an MAI 3 MUE: payable on appeal with documentation.',
  },
  AOC_NO_PRIMARY: {
    rule: 'ncci.add-on',
    severity: 'error',
    meaning: 'A type 1 add-on code without any of its primary codes on the same date.',
  },
  AOC_NO_LISTED_PRIMARY: {
    rule: 'ncci.add-on',
    severity: 'warning',
    meaning: 'A type 2 or 3 add-on code without a listed primary code (the contractor may accept others).',
  },

  // Medical necessity
  NCD_SUPPORTED: {
    rule: 'ncd.lab',
    severity: 'info',
    meaning: 'A diagnosis the lab NCD lists as covered supports the procedure.',
  },
  NCD_DENIED: { rule: 'ncd.lab', severity: 'error', meaning: 'A diagnosis the lab NCD lists as never covered.' },
  NCD_NOT_SUPPORTING: {
    rule: 'ncd.lab',
    severity: 'error',
    meaning: 'A diagnosis the lab NCD says does not support medical necessity.',
  },
  NCD_NOT_LISTED: { rule: 'ncd.lab', severity: 'error', meaning: 'A diagnosis the lab NCD does not list as covered.' },
  NCD_NOT_NECESSARY: {
    rule: 'ncd.lab',
    severity: 'error',
    meaning: 'No diagnosis on the line supports the procedure under its lab NCD.',
  },
  LCD_COVERED: {
    rule: 'lcd.coverage',
    severity: 'info',
    meaning: "A diagnosis in the LCD/Article's covered list supports the procedure.",
  },
  LCD_NON_COVERED: {
    rule: 'lcd.coverage',
    severity: 'error',
    meaning: "A diagnosis in the LCD/Article's non-covered list.",
  },
  LCD_NOT_LISTED: {
    rule: 'lcd.coverage',
    severity: 'error',
    meaning: 'A diagnosis the LCD/Article does not list as covered.',
  },
  LCD_PAIRING_UNMET: {
    rule: 'lcd.coverage',
    severity: 'error',
    meaning: 'A covered diagnosis whose group must be billed with a code from another group that the line lacks.',
  },
  LCD_SECONDARY_ONLY: {
    rule: 'lcd.coverage',
    severity: 'warning',
    meaning: 'An asterisked (secondary-only) covered diagnosis reported as the primary diagnosis of the line.',
  },
  LCD_CONDITION: {
    rule: 'lcd.coverage',
    severity: 'warning',
    meaning: 'A group paragraph states a condition the codes cannot prove (unparsed rule, frequency): quoted.',
  },

  // Claim structure
  CLAIM_POINTER_INVALID: {
    rule: 'claim.structure',
    severity: 'error',
    meaning: 'A line points to a diagnosis the claim does not have, or to none (an empty pointer list).',
  },
  CLAIM_POINTER_REPEATED: {
    rule: 'claim.structure',
    severity: 'error',
    meaning: 'A line points to one diagnosis more than once (read once: its findings are not doubled).',
  },
  CLAIM_LINE_DATE_OUTSIDE: {
    rule: 'claim.structure',
    severity: 'error',
    meaning: "A service line's date of service is outside the claim's dates (from / through).",
  },
  CLAIM_TOO_MANY_DIAGNOSES: {
    rule: 'claim.structure',
    severity: 'error',
    meaning: 'A professional or DME claim with more than the 12 diagnoses an 837P (HI01-HI12) or CMS-1500 (item 21, A-L) carries.',
  },
  CLAIM_DUPLICATE_LINE: {
    rule: 'claim.structure',
    severity: 'error',
    meaning: 'Two service lines of the claim carry the same line number.',
  },
  CLAIM_BIRTH_AFTER_SERVICE: {
    rule: 'claim.structure',
    severity: 'error',
    meaning: "The patient's birth date is after the claim's first date of service: no age can be checked.",
  },

  // Contractor and POA
  CONTRACTOR_ZIP9_NEEDED: {
    rule: 'contractor',
    severity: 'warning',
    meaning: 'The ZIP is split between localities: the ZIP+4 decides the contractor.',
  },
  CONTRACTOR_UNKNOWN: {
    rule: 'contractor',
    severity: 'warning',
    meaning: 'No contractor could be resolved from the claim.',
  },
  POA_MISSING: {
    rule: 'poa',
    severity: 'warning',
    meaning: 'A diagnosis that needs a present-on-admission indicator has none.',
  },
  POA_EXEMPT_REPORTED: {
    rule: 'poa',
    severity: 'warning',
    meaning: 'A POA-exempt diagnosis reported with a Y/N/U/W indicator instead of blank/1.',
  },

  // Policy packs (CMS manuals, transmittals, MLN Matters, commercial payers): docs/policy-packs.md
  POLICY_AGE: {
    rule: 'policy.pack',
    severity: 'error',
    meaning: "The patient's age is outside the pack rule's ages (warning when the age is not given; info when within).",
  },
  POLICY_SEX: {
    rule: 'policy.pack',
    severity: 'error',
    meaning: "The pack rule covers the other sex (warning when the patient's sex is not given; info when it fits).",
  },
  POLICY_FREQUENCY: {
    rule: 'policy.pack',
    severity: 'warning',
    meaning: "A frequency limit of the pack rule: one claim cannot prove it, check the patient's history.",
  },
  POLICY_DX_COVERED: {
    rule: 'policy.pack',
    severity: 'info',
    meaning: "A diagnosis in the pack rule's covered list supports the procedure.",
  },
  POLICY_DX_NOT_COVERED: {
    rule: 'policy.pack',
    severity: 'error',
    meaning: "A diagnosis in the pack rule's non-covered list.",
  },
  POLICY_DX_NOT_LISTED: {
    rule: 'policy.pack',
    severity: 'error',
    meaning: "No diagnosis on the line is in the pack rule's covered list.",
  },

  // Batch (cross-claim) checks: across the claims of one run and a history of earlier runs (issue 12 §5). The
  // scrubber runs them after the claim rules (src/engines/validation/cross-claim.ts); validateClaims does not.
  BATCH_DUPLICATE_LINE: {
    rule: 'batch.duplicate',
    severity: 'warning',
    meaning:
      'A line with the same patient, date of service, code and modifiers as a line of an earlier claim of the run.',
  },
  BATCH_MUE_EXCEEDED: {
    rule: 'batch.mue',
    severity: 'error',
    meaning: "Units of an MAI 2 (policy) code summed over the patient's claims for one date exceed the MUE value.",
  },
  BATCH_MUE_EXCEEDED_CLINICAL: {
    rule: 'batch.mue',
    severity: 'warning',
    meaning: "Units of an MAI 3 (clinical) code summed over the patient's claims for one date exceed the MUE value.",
  },
  BATCH_FREQUENCY_EXCEEDED: {
    rule: 'batch.frequency',
    severity: 'warning',
    meaning: "A policy pack's frequency limit exceeded by the patient's services in the run and the history file.",
  },
} as const satisfies Readonly<Record<string, FindingCodeEntry>>;

/** A finding code. */
export type FindingCode = keyof typeof FindingCodes;

/** A rule id (`code.validity`, `mce.age-conflict`, `ncci.ptp`...): the rules that report findings. */
export type RuleId = (typeof FindingCodes)[FindingCode]['rule'];

// Every reason code of the code engine is a finding code (checked at compile time).
type MissingReasons = Exclude<CodeReasonCode, FindingCode>;
const everyReasonIsACode: [MissingReasons] extends [never] ? true : MissingReasons = true;
void everyReasonIsACode;
