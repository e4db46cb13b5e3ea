// What every rule reads about one claim, computed once per claim before the rules run: each diagnosis and each
// line's procedure code as CodeDetail on its date of service (from the codes' shared facts, code-facts.ts), the
// diagnoses each line points to, the patient's age on a date and sex, and the NCCI/MUE setting the claim bills in.
// Rules never look a code's validity up again; they read it from here, and memoise per-code lookups on its facts.
import type { CodesReference } from '../codes/index.js';
import type { Reference } from '../../reference/index.js';
import { isInpatientBill, type Claim, type ClaimLine } from '../../schemas/claim.js';
import type { CodeDetail } from '../../schemas/codes.js';
import { CodeSystem, ICD10_START } from '../../schemas/code-systems.js';
import { dxFacts, lineDateOf, lineFacts, type CodeFacts } from './code-facts.js';
import type { RuleId } from '../../findings/codes.js';

/** The parts of the Reference port the validation engine reads. */
export type ValidationReference = CodesReference & Pick<Reference, 'edits' | 'policyPacks'>;

/** Options of a validation run. */
export interface ValidationOptions {
  /** Run only these rules (all when absent). */
  readonly checks?: readonly RuleId[] | undefined;
  /**
   * Severity of Excludes1 conflicts (domain.md section 13: guideline I.A.12.a allows both codes when the conditions
   * are unrelated, so a warning by default).
   * @default 'warning'
   */
  readonly excludes1Severity?: 'warning' | 'error' | undefined;
}

/** One diagnosis of the claim, as read on the claim's first date of service. */
export interface DxView {
  /** 0-based position in claim order (0 = principal / first-listed). */
  readonly index: number;
  /** As submitted. */
  readonly code: string;
  /** Upper-case, undotted. */
  readonly norm: string;
  readonly detail: CodeDetail;
  readonly poa: Claim['diagnoses'][number]['poa'];
  /** The code's facts on the date, shared with every claim that carries it (per-code lookups are memoised there). */
  readonly facts: CodeFacts;
}

/** One service line with its date and code read on it. */
export interface LineView {
  readonly line: ClaimLine;
  /**
   * The date its code is read on: the line's date of service (the claim's from-date when the line has none), an ICD
   * procedure of an inpatient claim the discharge date (lineDateOf).
   */
  readonly date: string;
  /** The procedure code upper-case, undotted. */
  readonly norm: string;
  readonly detail: CodeDetail;
  /** Indexes into `ClaimView.dx` of the diagnoses the line points to (every diagnosis when it has no pointers). */
  readonly dx: readonly number[];
  /** The procedure code's facts on the line's date, shared with every claim that carries it. */
  readonly facts: CodeFacts;
}

/**
 * Whether a line carries an ICD code (an ICD-10-PCS or ICD-9-CM inpatient procedure, or a diagnosis code put there
 * by mistake) rather than a HCPCS/CPT one: the NCCI tables and lab NCD lists hold only HCPCS/CPT codes, so such a
 * line is neither checked nor "not checked" by them (code.validity and the MCE read it).
 */
export function isIcdCodedLine(l: LineView): boolean {
  const t = l.detail.codeType;
  return t === 'ICD-10 PCS' || t === 'ICD-10 CM' || t === 'ICD-9 CM';
}

/** NCCI table setting (domain.md section 9/10): practitioner, outpatient hospital, or DME supplier (MUE only). */
export type NcciSetting = 'practitioner' | 'hospital' | 'dme';

/** One claim as the rules see it. */
export interface ClaimView {
  readonly ref: ValidationReference;
  readonly claim: Claim;
  readonly options: ValidationOptions;
  readonly dx: readonly DxView[];
  /**
   * An inpatient claim, the one the MCE's admission and procedure edits and the POA rule are written for: an
   * institutional claim whose type of bill is an inpatient one, or that gives no type of bill.
   */
  readonly inpatient: boolean;
  /**
   * Whether NCCI's edits (PTP, MUE, add-on) apply: CMS writes them for practitioner, outpatient hospital and DME
   * supplier claims; an institutional claim whose type of bill is an inpatient one is paid per stay and gets none.
   * An institutional claim without a type of bill gets them (read as outpatient by NCCI, as inpatient by the MCE: each
   * set of edits runs where it may apply).
   */
  readonly ncciEdits: boolean;
  /**
   * The date the diagnoses are read on, and the MCE version chosen by: the discharge (through) date of an inpatient
   * claim, else the from-date.
   */
  readonly dxDate: string;
  readonly lines: readonly LineView[];
  readonly setting: NcciSetting;
  /** The patient's sex when the claim says M or F. */
  readonly sex: 'M' | 'F' | undefined;
  /** The patient's age in full years on a date: from the birth date when given, else the stated age. */
  ageOn(date: string): number | undefined;
}

/**
 * The numbers of the lines that point to a diagnosis, or to either of two (by `DxView.index`). A function rather than
 * a closure in the rules' loops: a closure over a loop's variables makes V8 allocate them a context on every
 * iteration, whether the closure is made or not.
 */
export function linesOfDx(view: ClaimView, a: number, b: number = a): number[] {
  const lines: number[] = [];
  for (const l of view.lines) {
    if (l.dx.includes(a) || (b !== a && l.dx.includes(b))) {
      lines.push(l.line.lineNumber);
    }
  }
  return lines;
}

/** Full years between an ISO birth date and an ISO date. */
export function ageInYears(birthDate: string, date: string): number {
  const years = Number(date.slice(0, 4)) - Number(birthDate.slice(0, 4));
  return date.slice(5) < birthDate.slice(5) ? years - 1 : years;
}

/** The NCCI setting of a claim: DME claims and DME suppliers → dme, institutional or Facility → hospital. */
export function settingOf(claim: Claim): NcciSetting {
  if (claim.claimType === 'dme' || claim.provider?.type === 'DME') {
    return 'dme';
  }
  return claim.claimType === 'institutional' || claim.provider?.type === 'Facility' ? 'hospital' : 'practitioner';
}

/**
 * The diagnosis code set a claim names, else the one in force on its date. Of ICD-9-CM its diagnoses: a diagnosis
 * list holds no procedure, and 4019 read in both halves was ambiguous (401.9 hypertension, procedure 40.19).
 */
function dxCodeSet(claim: Claim, date: string): string {
  const type = claim.icdType ?? (date < ICD10_START ? 'ICD-9 CM' : 'ICD-10 CM');
  return type === 'ICD-9 CM' ? CodeSystem.ICD9CM_DX : type;
}

/**
 * Reads a claim's codes on their dates once, for every rule.
 * @param ref - the reference port
 * @param claim - the claim, already checked against the Claim schema
 * @param options - the run's options
 */
export function viewClaim(ref: ValidationReference, claim: Claim, options: ValidationOptions): ClaimView {
  const from = claim.dateOfServiceFrom;
  // Inpatient stays are coded on the discharge (through) date (domain.md section 8); an institutional claim without a
  // type of bill is read as inpatient.
  const inpatient =
    claim.claimType === 'institutional' && (claim.billType === undefined || isInpatientBill(claim.billType));
  const dxDate = inpatient ? (claim.dateOfServiceTo ?? from) : from;
  const ncciEdits = !inpatient || claim.billType === undefined;
  const dxRead = dxFacts(
    ref,
    claim.diagnoses.map((d) => d.code),
    dxDate,
    dxCodeSet(claim, dxDate),
  );
  const dx: DxView[] = claim.diagnoses.map((d, index) => {
    const facts = dxRead[index] as CodeFacts;
    return { index, code: d.code, norm: facts.norm, detail: facts.detail, poa: d.poa, facts };
  });
  // Procedure codes: each in the code set its shape names, on the line's date (an inpatient claim's ICD procedures
  // on its discharge date).
  const icdDate = inpatient ? dxDate : undefined;
  const lineDates = claim.lines.map((line) => lineDateOf(line, from, icdDate));
  const lineRead = lineFacts(ref, claim.lines, from, icdDate, lineDates);
  const every = dx.map((d) => d.index);
  const lines: LineView[] = claim.lines.map((line, i) => {
    const facts = lineRead[i] as CodeFacts;
    return {
      line,
      date: lineDates[i] as string,
      norm: facts.norm,
      detail: facts.detail,
      dx:
        line.diagnosisPointers === undefined
          ? every
          : // A pointer given twice names its diagnosis once (claim.structure reports it): no finding is doubled.
            line.diagnosisPointers.filter((p, k, all) => p <= dx.length && all.indexOf(p) === k).map((p) => p - 1),
      facts,
    };
  });
  const patient = claim.patient;
  const sex = patient?.sex === 'M' || patient?.sex === 'F' ? patient.sex : undefined;
  return {
    ref,
    claim,
    options,
    dx,
    inpatient,
    ncciEdits,
    dxDate,
    lines,
    setting: settingOf(claim),
    sex,
    ageOn: (date) => (patient?.birthDate !== undefined ? ageInYears(patient.birthDate, date) : patient?.age),
  };
}
