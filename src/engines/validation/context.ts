// What every rule reads about one claim, computed once per claim before the rules run: each diagnosis and each
// line's procedure code as CodeDetail on its date of service (one batch call to the code engine per date), the
// diagnoses each line points to, the patient's age on a date and sex, and the NCCI/MUE setting the claim bills in.
// Rules never look a code's validity up again; they read it from here.
import { codeDetails, codeTypeOf, parseCode, shapeSystems, type CodesReference } from '../codes/index.js';
import type { Reference } from '../../reference/index.js';
import type { Claim, ClaimLine } from '../../schemas/claim.js';
import type { CodeDetail } from '../../schemas/codes.js';
import { normaliseCode } from '../../schemas/code-systems.js';
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
}

/** One service line with its date and code read on it. */
export interface LineView {
  readonly line: ClaimLine;
  /** The line's date of service (the claim's from-date when the line has none). */
  readonly date: string;
  /** The procedure code upper-case, undotted. */
  readonly norm: string;
  readonly detail: CodeDetail;
  /** Indexes into `ClaimView.dx` of the diagnoses the line points to (every diagnosis when it has no pointers). */
  readonly dx: readonly number[];
}

/** NCCI table setting (domain.md section 9/10): practitioner, outpatient hospital, or DME supplier (MUE only). */
export type NcciSetting = 'practitioner' | 'hospital' | 'dme';

/** One claim as the rules see it. */
export interface ClaimView {
  readonly ref: ValidationReference;
  readonly claim: Claim;
  readonly options: ValidationOptions;
  readonly dx: readonly DxView[];
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

/** CodeDetail of each line's procedure code on the line's date, one codeDetails batch per date and code set. */
function procedureDetails(ref: ValidationReference, lines: readonly ClaimLine[], from: string): CodeDetail[] {
  const first = lines[0];
  if (first === undefined) {
    return [];
  }
  const date0 = first.dateOfService ?? from;
  const set0 = procedureCodeSet(first.procedureCode, date0);
  let same = true;
  for (let i = 1; i < lines.length && same; i++) {
    const l = lines[i] as ClaimLine;
    const date = l.dateOfService ?? from;
    same = date === date0 && procedureCodeSet(l.procedureCode, date) === set0;
  }
  if (same) {
    return codeDetails(
      ref,
      lines.map((l) => l.procedureCode),
      date0,
      set0,
    );
  }
  const groups = new Map<string, { date: string; codeSet: string | undefined; lines: number[] }>();
  lines.forEach((l, i) => {
    const date = l.dateOfService ?? from;
    const codeSet = procedureCodeSet(l.procedureCode, date);
    const key = `${date}|${codeSet ?? ''}`;
    const group = groups.get(key);
    if (group) {
      group.lines.push(i);
    } else {
      groups.set(key, { date, codeSet, lines: [i] });
    }
  });
  const details: CodeDetail[] = new Array<CodeDetail>(lines.length);
  for (const { date, codeSet, lines: indexes } of groups.values()) {
    const answers = codeDetails(
      ref,
      indexes.map((i) => (lines[i] as ClaimLine).procedureCode),
      date,
      codeSet,
    );
    indexes.forEach((lineIndex, k) => {
      details[lineIndex] = answers[k] as CodeDetail;
    });
  }
  return details;
}

/** The diagnosis code set a claim names, else the one in force on its date. */
function dxCodeSet(claim: Claim, date: string): string {
  return claim.icdType ?? (date < '2015-10-01' ? 'ICD-9 CM' : 'ICD-10 CM');
}

/**
 * The procedure code set a line's code has the shape of, when exactly one fits: `G0439` is read as HCPCS, not as
 * the ICD-10-CM shape G04.39. `undefined` lets the code engine detect (and report a diagnosis code on a line).
 */
function procedureCodeSet(code: string, date: string): string | undefined {
  // ICD-9-CM procedures count only before 2015-10-01: the answer depends on the side of that date.
  const key = date < '2015-10-01' ? `9|${code}` : code;
  let answer = codeSets.get(key);
  if (answer === undefined) {
    const procedures = shapeSystems(parseCode(code)).filter(
      (s) => s === 'CPT' || s === 'HCPCS' || s === 'ICD10PCS' || (s === 'ICD9CM_PROC' && date < '2015-10-01'),
    );
    answer = procedures.length === 1 && procedures[0] !== undefined ? codeTypeOf(procedures[0]) : null;
    if (codeSets.size >= MAX_CODE_SETS) {
      codeSets.clear();
    }
    codeSets.set(key, answer);
  }
  return answer ?? undefined;
}

/** Procedure code strings as submitted → their code set (`null`: let the engine detect), for every claim. */
const codeSets = new Map<string, string | null>();
const MAX_CODE_SETS = 100_000;

/**
 * Reads a claim's codes on their dates once, for every rule.
 * @param ref - the reference port
 * @param claim - the claim, already checked against the Claim schema
 * @param options - the run's options
 */
export function viewClaim(ref: ValidationReference, claim: Claim, options: ValidationOptions): ClaimView {
  const from = claim.dateOfServiceFrom;
  // Inpatient stays are coded on the discharge (through) date (domain.md section 8); the claim model cannot tell
  // inpatient from outpatient institutional claims, so every institutional claim with a through date uses it.
  const dxDate = claim.claimType === 'institutional' ? (claim.dateOfServiceTo ?? from) : from;
  const dxDetails = codeDetails(
    ref,
    claim.diagnoses.map((d) => d.code),
    dxDate,
    dxCodeSet(claim, dxDate),
  );
  const dx: DxView[] = claim.diagnoses.map((d, index) => ({
    index,
    code: d.code,
    norm: normaliseCode(d.code),
    detail: dxDetails[index] as CodeDetail,
    poa: d.poa,
  }));
  // Procedure codes: one batch per distinct date of service and procedure code set (one batch for most claims).
  const procDetails: CodeDetail[] = procedureDetails(ref, claim.lines, from);
  const every = dx.map((d) => d.index);
  const lines: LineView[] = claim.lines.map((line, i) => ({
    line,
    date: line.dateOfService ?? from,
    norm: normaliseCode(line.procedureCode),
    detail: procDetails[i] as CodeDetail,
    dx:
      line.diagnosisPointers === undefined
        ? every
        : line.diagnosisPointers.filter((p) => p <= dx.length).map((p) => p - 1),
  }));
  const patient = claim.patient;
  const sex = patient?.sex === 'M' || patient?.sex === 'F' ? patient.sex : undefined;
  return {
    ref,
    claim,
    options,
    dx,
    lines,
    setting: settingOf(claim),
    sex,
    ageOn: (date) => (patient?.birthDate !== undefined ? ageInYears(patient.birthDate, date) : patient?.age),
  };
}
