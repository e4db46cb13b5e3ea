// The batch checks across claims (issue 12 §5), pure side: what one claim contributes to them ("facts": per service
// line the patient, date, code, modifiers and units, the MUE of the code when it is a date-of-service edit, and the
// policy-pack frequency limits that apply), and how a cross-claim answer reads as a Finding. The answers themselves
// need every claim of the run and a history file: src/pipeline/cross-claim-store.ts keeps the facts in a temporary
// SQLite file and asks the questions in SQL.
//
//   worker: viewClaim ─→ runRules, then crossClaimFacts(view, order) ─→ plain data ─→ rows (FactsBatchWriter) ─→
//   main thread: CrossClaimStore.addBatch
//   end of run: CrossClaimStore.findings() ─→ rows ─→ duplicateFinding / mueFinding / frequencyFinding
import type { RuleId } from '../../findings/codes.js';
import type { PolicyPackPeriod, PolicyPackType } from '../../schemas/policy-pack.js';
import type { Finding, FindingSource, NotChecked } from '../../schemas/findings.js';
import {
  isIcdCodedLine,
  type ClaimView,
  type LineView,
  type NcciSetting,
  type ValidationOptions,
  type ValidationReference,
} from './context.js';
import { resolveContractor } from './contractor.js';
import type { Rule } from './rule.js';
import { lineMueOf, maiTextOf } from './rules/edit-answers.js';
import { MUE_DATASET, MueSetting } from '../../schemas/edits.js';
import { FactMemo } from './code-facts.js';
import { MUE_SETTING } from './rules/ncci-mue.js';
import { describeFrequency } from './rules/policy-packs.js';

/** A batch check: declared like a claim rule (the docs' rule table lists both), run by the scrubber over a run. */
export type BatchRule = Omit<Rule, 'run'>;

/** The batch checks, in the order their findings are written for a line. */
export const BATCH_RULES: readonly BatchRule[] = [
  {
    id: 'batch.duplicate',
    checks:
      'Across the claims of a run: a line with the same patient id, date of service, code and modifiers (in the same NCCI setting) as a line of an earlier claim.',
    datasets: [],
    codes: ['BATCH_DUPLICATE_LINE'],
  },
  {
    id: 'batch.mue',
    checks:
      "Across the claims of a run: units of an MAI 2 or 3 code summed over the patient's claims for one date of service (same setting table) within the MUE value.",
    datasets: ['mue-practitioner', 'mue-outpatient-hospital', 'mue-dme'],
    codes: ['BATCH_MUE_EXCEEDED', 'BATCH_MUE_EXCEEDED_CLINICAL'],
  },
  {
    id: 'batch.frequency',
    checks:
      "Across the claims of a run and a history file of earlier services: a policy pack's frequency limits (per lifetime, calendar year or N months).",
    datasets: ['policy-pack'],
    codes: ['BATCH_FREQUENCY_EXCEEDED'],
  },
];

/** The MUE of a line's code when it is a date-of-service edit (MAI 2 or 3); MAI 1 edits are per line, not summed. */
export interface CrossClaimMue {
  readonly value: number;
  readonly mai: 2 | 3;
  /** `mue-practitioner`, `mue-outpatient-hospital` or `mue-dme`. */
  readonly dataset: string;
  readonly release: string;
  /** The indicator's text without its digit (`Date of Service Edit: Policy`). */
  readonly maiText: string;
}

/** What tells two MUE edits apart: the fields of {@link CrossClaimMue}. */
export const mueKey = (m: CrossClaimMue): string =>
  `${m.dataset}\t${m.release}\t${String(m.value)}\t${String(m.mai)}\t${m.maiText}`;

/** Each distinct MUE edit's one object (the rows of many codes carry the same edit). */
const MUE_EDITS = new Map<string, CrossClaimMue>();
/** A line code's batch MUE per setting table, kept on its facts (read once per code and date). */
const CROSS_MUES: Readonly<Record<MueSetting, FactMemo<CrossClaimMue | null>>> = {
  [MueSetting.practitioner]: new FactMemo(),
  [MueSetting.outpatientHospital]: new FactMemo(),
  [MueSetting.dme]: new FactMemo(),
};

/**
 * A line's date-of-service MUE (MAI 2 or 3) as the batch checks read it: one object per distinct edit, so a chunk's
 * facts name each edit by the same object (the worker lists each once per chunk, by identity, without building its
 * key per line).
 */
function crossMueOf(edits: ValidationReference['edits'], l: LineView, setting: MueSetting): CrossClaimMue | undefined {
  const memo = CROSS_MUES[setting];
  const known = memo.of(l.facts);
  if (known !== undefined) {
    return known ?? undefined;
  }
  const row = lineMueOf(edits, l, setting);
  if (row === undefined || row.mai === 1) {
    memo.keep(l.facts, null);
    return undefined;
  }
  const made: CrossClaimMue = {
    value: row.value,
    mai: row.mai,
    dataset: MUE_DATASET[setting],
    release: row.release,
    maiText: maiTextOf(row),
  };
  const key = mueKey(made);
  const mue = MUE_EDITS.get(key) ?? made;
  MUE_EDITS.set(key, mue);
  memo.keep(l.facts, mue);
  return mue;
}

/** One frequency limit of a policy-pack rule in force on a line, for a patient of the line's age. */
export interface CrossClaimLimit {
  /** `packId|ruleId`: services count toward a rule whatever the pack version. */
  readonly ruleKey: string;
  readonly packId: string;
  readonly packVersion: string;
  readonly packType: PolicyPackType;
  readonly packTitle: string;
  readonly ruleTitle: string;
  /** The rule's procedure codes and ranges (`G0101-G0105`): which history services count toward it. */
  readonly procedures: readonly string[];
  readonly count: number;
  /** "once per 12 months". */
  readonly text: string;
  /** Earlier services count when their date is after this one: '' (lifetime), the last day of the previous year, or the line's date N months back. */
  readonly after: string;
  readonly note?: string | undefined;
}

/** What one service line contributes to the batch checks. Plain data: it crosses from a worker thread. */
export interface CrossClaimLineFact {
  readonly lineNumber: number;
  /** The line's date of service (the claim's from-date when the line has none). */
  readonly date: string;
  /** Upper-case, undotted. */
  readonly code: string;
  /** As submitted (findings name codes as submitted). */
  readonly submittedCode: string;
  /** Sorted, joined by a space ('' for none). */
  readonly modifiers: string;
  readonly units: number;
  readonly mue?: CrossClaimMue | undefined;
  readonly limits: readonly CrossClaimLimit[];
}

/** What one claim contributes to the batch checks. */
export interface CrossClaimFacts {
  /** The claim's position in the run (0-based input order): findings come back in this order. */
  readonly claimOrder: number;
  readonly claimId: string;
  /** The claim's patient id, trimmed; `undefined` when the claim has none (its lines are then not checked). */
  readonly patientKey: string | undefined;
  readonly setting: NcciSetting;
  /** Empty when `patientKey` is undefined. */
  readonly lines: readonly CrossClaimLineFact[];
  /** The batch checks the claim could not take part in (no patient id): report them with the claim's result. */
  readonly notChecked: readonly NotChecked[];
}

const within = (age: number, a: { readonly min?: number | undefined; readonly max?: number | undefined }): boolean =>
  (a.min === undefined || age >= a.min) && (a.max === undefined || age <= a.max);

const enabled = (options: ValidationOptions, id: RuleId): boolean =>
  options.checks === undefined || options.checks.includes(id);

/**
 * An ISO date N months back, the day clamped to the month's end (2026-03-31 less one month is 2026-02-28).
 * @param date - ISO `YYYY-MM-DD`
 * @param months - a positive whole number
 */
export function monthsBefore(date: string, months: number): string {
  const total = Number(date.slice(0, 4)) * 12 + Number(date.slice(5, 7)) - 1 - months;
  const year = Math.floor(total / 12);
  const month = (total % 12) + 1;
  const lastDay = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const day = Math.min(Number(date.slice(8, 10)), lastDay);
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/**
 * Where a frequency limit's period starts for a service on `date`: earlier services count when dated after it.
 * A period of N months takes the services of the N months before the date, so one exactly N months earlier is
 * outside it (a service on 2026-04-01 and one on 2027-04-01 keep "once per 12 months").
 */
function periodAfter(per: CrossClaimLimitPeriod, date: string): string {
  if (per === 'lifetime') {
    return '';
  }
  if (per === 'calendar-year') {
    return `${String(Number(date.slice(0, 4)) - 1).padStart(4, '0')}-12-31`;
  }
  if ('months' in per) {
    return monthsBefore(date, per.months);
  }
  // N full months after the month of an earlier service: it counts when in the date's month or the N months before,
  // so the period starts after the last day of the month N + 1 months back (2026-05-11, 11: after 2025-05-31).
  const firstCounted = monthsBefore(`${date.slice(0, 8)}01`, per.monthsAfterMonth);
  return new Date(Date.parse(`${firstCounted}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
}

type CrossClaimLimitPeriod = PolicyPackPeriod;

/**
 * What a claim contributes to the batch checks: one fact per HCPCS/CPT service line, with the MUE of its code when that is a
 * date-of-service edit (read as the ncci.mue rule reads it) and the frequency limits of the policy-pack rules in
 * force on its date (as the policy.pack rule finds them). A claim without a patient id contributes no lines and
 * gets a not-checked entry per batch check it would have taken part in.
 * @param view - the claim as the rules saw it (viewClaim): its lines' codes, dates and MUE rows are read once
 * @param claimOrder - its 0-based position in the run
 * @returns plain data, safe to post between threads
 */
export function crossClaimFacts(view: ClaimView, claimOrder: number): CrossClaimFacts {
  const { ref, claim, options, setting } = view;
  const patientId = claim.patient?.id?.trim();
  const patientKey = patientId === undefined || patientId === '' ? undefined : patientId;
  const mueSetting = MUE_SETTING[setting];
  const byContractor = ref.policyPacks.packs().some((p) => p.scope.kind === 'contractors');
  const scope = {
    contractorNumber: byContractor ? resolveContractor(ref, claim)?.contractorNumber : undefined,
    payerCode: claim.payerCode,
  };
  // An ICD-coded line (an inpatient ICD-10-PCS procedure) takes part in no batch check: MUEs and pack limits list
  // HCPCS/CPT codes, and a duplicate's fix (modifiers 76, 77, 91, 59) has no meaning for it.
  const lines = view.lines.filter((l) => !isIcdCodedLine(l)).map((l): CrossClaimLineFact => {
    const { line, date, norm: code } = l;
    const mue = view.ncciEdits && enabled(options, 'batch.mue') ? crossMueOf(ref.edits, l, mueSetting) : undefined;
    const limits: CrossClaimLimit[] = [];
    if (enabled(options, 'batch.frequency')) {
      const age = view.ageOn(date);
      for (const e of ref.policyPacks.rulesFor(code, date, scope)) {
        for (const f of e.rule.frequency ?? []) {
          // A limit for other ages does not concern this patient; without an age every limit may (as policy.pack).
          if (f.ages !== undefined && age !== undefined && !within(age, f.ages)) {
            continue;
          }
          limits.push({
            ruleKey: `${e.pack.id}|${e.rule.id}`,
            packId: e.pack.id,
            packVersion: e.pack.version,
            packType: e.pack.type,
            packTitle: e.pack.title,
            ruleTitle: e.rule.title,
            procedures: e.rule.procedures,
            count: f.count,
            text: describeFrequency(f),
            after: periodAfter(f.per, date),
            note: f.note,
          });
        }
      }
    }
    return {
      lineNumber: line.lineNumber,
      date,
      code,
      submittedCode: line.procedureCode,
      modifiers: [...line.modifiers].sort().join(' '),
      units: line.units,
      mue,
      limits,
    };
  });
  if (patientKey !== undefined) {
    return { claimOrder, claimId: claim.claimId, patientKey, setting, lines, notChecked: [] };
  }
  // Step 2 (no patient id): the checks this claim would have taken part in are not checked, never passed.
  const notChecked: NotChecked[] = [];
  const skip = (rule: RuleId, what: readonly CrossClaimLineFact[], checks: string): void => {
    if (what.length > 0 && enabled(options, rule)) {
      notChecked.push({
        rule,
        claimId: claim.claimId,
        lines: what.map((l) => l.lineNumber),
        reason: `The claim has no patient id: ${checks} across the run's claims were not checked.`,
        missing: 'patient id',
      });
    }
  };
  skip('batch.duplicate', lines, 'duplicate lines');
  skip(
    'batch.mue',
    lines.filter((l) => l.mue !== undefined),
    'MUE units per date of service',
  );
  skip(
    'batch.frequency',
    lines.filter((l) => l.limits.length > 0),
    'policy-pack frequency limits',
  );
  return { claimOrder, claimId: claim.claimId, patientKey: undefined, setting, lines: [], notChecked };
}

const plural = (n: number, word: string): string => `${String(n)} ${word}${n === 1 ? '' : 's'}`;

/** A line of an earlier claim, as a cross-claim finding names it. */
export interface OtherLine {
  readonly claimId: string;
  readonly lineNumber: number;
}

/** A line repeating a line of an earlier claim (same patient, setting, date, code, modifiers). */
export interface DuplicateAnswer {
  readonly claimId: string;
  readonly lineNumber: number;
  readonly submittedCode: string;
  readonly date: string;
  readonly modifiers: string;
  /** The first earlier line it repeats. */
  readonly first: OtherLine;
  /** How many earlier claims carry the same line. */
  readonly earlierClaims: number;
}

/** @returns the BATCH_DUPLICATE_LINE finding of a duplicate answer */
export function duplicateFinding(a: DuplicateAnswer): Finding {
  const mods = a.modifiers === '' ? 'no modifiers' : `modifiers ${a.modifiers.replace(/ /g, ', ')}`;
  const more = a.earlierClaims > 1 ? ` (and ${plural(a.earlierClaims - 1, 'other earlier claim')})` : '';
  return {
    rule: 'batch.duplicate',
    code: 'BATCH_DUPLICATE_LINE',
    severity: 'warning',
    claimId: a.claimId,
    lines: [a.lineNumber],
    codes: [a.submittedCode],
    message: `Line ${String(a.lineNumber)}: ${a.submittedCode} on ${a.date} with ${mods} is a possible duplicate of claim ${a.first.claimId} line ${String(a.first.lineNumber)}${more} for the same patient.`,
    fix: 'Check whether the service was billed twice; a repeated service on the same date needs modifier 76, 77, 91 or 59 as applicable.',
  };
}

/** A claim whose units of an MAI 2/3 code, added to the patient's earlier claims for the date, exceed the MUE. */
export interface MueAnswer {
  readonly claimId: string;
  /** The claim's lines with the code on the date. */
  readonly lines: readonly number[];
  readonly submittedCode: string;
  readonly date: string;
  /** Units on this claim. */
  readonly units: number;
  /** Units on this claim and the earlier ones. */
  readonly total: number;
  readonly mue: CrossClaimMue;
  /** The earlier claims of the patient with the code on the date (at most a few) and their units. */
  readonly earlier: readonly { readonly claimId: string; readonly units: number }[];
  readonly earlierClaims: number;
}

/** @returns the BATCH_MUE_EXCEEDED (MAI 2) or BATCH_MUE_EXCEEDED_CLINICAL (MAI 3) finding of an MUE answer */
export function mueFinding(a: MueAnswer): Finding {
  const clinical = a.mue.mai === 3;
  const where = a.lines.length === 1 ? `Line ${String(a.lines[0])}` : `Lines ${a.lines.join(', ')}`;
  const named = a.earlier.map((c) => `${c.claimId} (${plural(c.units, 'unit')})`).join(', ');
  const more = a.earlierClaims > a.earlier.length ? ` and ${String(a.earlierClaims - a.earlier.length)} more` : '';
  const source: FindingSource = { dataset: a.mue.dataset, release: a.mue.release };
  return {
    rule: 'batch.mue',
    code: clinical ? 'BATCH_MUE_EXCEEDED_CLINICAL' : 'BATCH_MUE_EXCEEDED',
    severity: clinical ? 'warning' : 'error',
    claimId: a.claimId,
    lines: [...a.lines],
    codes: [a.submittedCode],
    source,
    message: `${where}: ${plural(a.units, 'unit')} of ${a.submittedCode} on ${a.date} ${a.units === 1 ? 'brings' : 'bring'} the patient's units for the date to ${String(a.total)} with claims ${named}${more}, over the MUE of ${String(a.mue.value)} per date of service (MAI ${String(a.mue.mai)}${a.mue.maiText === '' ? '' : ` ${a.mue.maiText}`}, ${a.mue.dataset} ${a.mue.release}).`,
    fix: clinical
      ? `Bill at most ${String(a.mue.value)} units for the date across the claims; units above it are denied but may be paid on appeal with documentation of medical necessity.`
      : `Bill at most ${String(a.mue.value)} units for the date across the claims: units above a policy MUE are not payable, even on appeal.`,
  };
}

/** An earlier service counted toward a frequency limit: of a claim of the run, or of the history file. */
export interface EarlierService {
  readonly date: string;
  /** `undefined` for a history service. */
  readonly claim?: OtherLine | undefined;
}

/** A line whose service is over a frequency limit with the patient's earlier services. */
export interface FrequencyAnswer {
  readonly claimId: string;
  readonly lineNumber: number;
  readonly submittedCode: string;
  readonly date: string;
  readonly limit: CrossClaimLimit;
  /** The latest earlier services in the period (at most a few), latest first. */
  readonly earlier: readonly EarlierService[];
  /** How many earlier services the period holds. */
  readonly earlierCount: number;
}

/** @returns the BATCH_FREQUENCY_EXCEEDED finding of a frequency answer */
export function frequencyFinding(a: FrequencyAnswer): Finding {
  const { limit } = a;
  const dates = a.earlier
    .map((s) =>
      s.claim === undefined
        ? `${s.date} (history)`
        : `${s.date} (claim ${s.claim.claimId} line ${String(s.claim.lineNumber)})`,
    )
    .join(', ');
  const more = a.earlierCount > a.earlier.length ? ` and ${String(a.earlierCount - a.earlier.length)} more` : '';
  const note = limit.note === undefined ? '' : ` ${limit.note}.`;
  return {
    rule: 'batch.frequency',
    code: 'BATCH_FREQUENCY_EXCEEDED',
    severity: 'warning',
    claimId: a.claimId,
    lines: [a.lineNumber],
    codes: [a.submittedCode],
    source: {
      dataset: 'policy-pack',
      release: limit.packVersion,
      policyId: limit.packId,
      policyType: limit.packType,
      policyTitle: limit.packTitle,
      policyVersion: limit.packVersion,
    },
    message: `Line ${String(a.lineNumber)}: ${a.submittedCode} on ${a.date} exceeds ${limit.text} (${limit.packId}, ${limit.ruleTitle}): the patient had it on ${dates}${more}.${note}`,
    fix: 'Check the earlier services: a service over the limit is not covered (obtain an ABN before the service).',
  };
}
