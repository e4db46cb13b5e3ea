// Rules 10 and 11, policy packs and the exceptions they drive (operations.md "Claim validation" step 5; format in
// docs/policy-packs.md): for each line, the pack rules in force on its date that list its procedure, of the packs
// whose scope takes the claim (national packs always; contractor packs when the claim resolves to one of their
// contractors; payer packs when the claim's payerCode is one of theirs). Age and sex limits: error when the patient
// data breaks them, warning when the claim lacks the data, info when it fits. Frequency limits: always a warning (one
// claim cannot show the patient's history; the batch scrubber checks across claims). Diagnosis lists as for the
// NCDs: non-covered is an error, and with a covered list the line needs at least one diagnosis on it.
import type { FindingSource } from '../../../schemas/findings.js';
import { inSpan, spanOf, type PolicyPackFrequency, type PolicyPackRule } from '../../../schemas/policy-pack.js';
import type { PolicyPackRuleInForce } from '../../../reference/index.js';
import type { ClaimView, DxView, LineView } from '../context.js';
import { resolveContractor } from '../contractor.js';
import type { FindingSink, Rule } from '../rule.js';

const DATASET = 'policy-pack';

/** "once per 12 months", "twice per lifetime", "once per calendar year". */
export function describeFrequency(f: PolicyPackFrequency): string {
  const times = f.count === 1 ? 'once' : f.count === 2 ? 'twice' : `${f.count} times`;
  const per =
    f.per === 'lifetime'
      ? 'per lifetime'
      : f.per === 'calendar-year'
        ? 'per calendar year'
        : // CMS's words for N full months after the month of the last one: once every N + 1 months (the note says how).
          `per ${'months' in f.per ? f.per.months : f.per.monthsAfterMonth + 1} months`;
  const ages = f.ages === undefined ? '' : ` at ${describeAges(f.ages)}`;
  return `${times} ${per}${ages}`;
}

/** "ages 40 and over", "ages 35 to 39", "ages up to 85". */
function describeAges(a: { readonly min?: number | undefined; readonly max?: number | undefined }): string {
  return a.max === undefined
    ? `ages ${a.min ?? 0} and over`
    : a.min === undefined
      ? `ages up to ${a.max}`
      : `ages ${a.min} to ${a.max}`;
}

const within = (age: number, a: { readonly min?: number | undefined; readonly max?: number | undefined }): boolean =>
  (a.min === undefined || age >= a.min) && (a.max === undefined || age <= a.max);

const listed = (code: string, list: readonly string[] | undefined): boolean =>
  list !== undefined && list.some((entry) => inSpan(code, spanOf(entry)));

/** The citation a message names: its section, else its title. */
function citationOf(rule: PolicyPackRule): string {
  const c = rule.citations[0];
  return c === undefined ? '' : `, ${c.section ?? c.title}`;
}

function sourceOf(e: PolicyPackRuleInForce): FindingSource {
  return {
    dataset: DATASET,
    release: e.pack.version,
    policyId: e.pack.id,
    policyType: e.pack.type,
    policyTitle: e.pack.title,
    policyVersion: e.pack.version,
  };
}

/** Age and sex limits of one rule on one line (rule 11). */
function checkPatient(view: ClaimView, l: LineView, e: PolicyPackRuleInForce, out: FindingSink): void {
  const { rule } = e;
  const code = l.line.procedureCode;
  const base = { lines: [l.line.lineNumber], codes: [code], source: sourceOf(e) };
  const cite = citationOf(rule);
  if (rule.ages !== undefined) {
    const range = describeAges(rule.ages);
    const age = view.ageOn(l.date);
    if (age === undefined) {
      out.report({
        ...base,
        code: 'POLICY_AGE',
        severity: 'warning',
        message: `${code} is covered for ${range} under ${e.pack.id}${cite}: the patient's age is not given.`,
      });
    } else if (within(age, rule.ages)) {
      out.report({
        ...base,
        code: 'POLICY_AGE',
        severity: 'info',
        message: `Age ${age} fits ${range} for ${code} under ${e.pack.id}.`,
      });
    } else {
      out.report({
        ...base,
        code: 'POLICY_AGE',
        message: `${code} is covered for ${range} under ${e.pack.id}${cite}; the patient is ${age}.`,
        fix: 'Check the birth date; outside these ages the service is not covered (obtain an ABN before the service).',
      });
    }
  }
  if (rule.sex !== undefined) {
    const who = rule.sex === 'F' ? 'female' : 'male';
    if (view.sex === undefined) {
      out.report({
        ...base,
        code: 'POLICY_SEX',
        severity: 'warning',
        message: `${code} is covered for ${who} patients under ${e.pack.id}${cite}: the patient's sex is not given.`,
      });
    } else if (view.sex === rule.sex) {
      out.report({
        ...base,
        code: 'POLICY_SEX',
        severity: 'info',
        message: `${code} fits the patient's sex under ${e.pack.id}.`,
      });
    } else {
      out.report({
        ...base,
        code: 'POLICY_SEX',
        message: `${code} is covered for ${who} patients only under ${e.pack.id}${cite}.`,
        fix: "Check the patient's sex on the claim.",
      });
    }
  }
}

/** Frequency limits of one rule on one line: always a warning on a single claim (operations.md step 5). */
function checkFrequency(view: ClaimView, l: LineView, e: PolicyPackRuleInForce, out: FindingSink): void {
  const age = view.ageOn(l.date);
  // A limit for other ages does not concern this patient; without an age every limit may.
  const limits = (e.rule.frequency ?? []).filter(
    (f) => f.ages === undefined || age === undefined || within(age, f.ages),
  );
  if (limits.length === 0) {
    return;
  }
  const code = l.line.procedureCode;
  const text = limits.map(describeFrequency).join('; ');
  const notes = limits.flatMap((f) => (f.note !== undefined ? [` ${f.note}.`] : [])).join('');
  out.report({
    code: 'POLICY_FREQUENCY',
    lines: [l.line.lineNumber],
    codes: [code],
    source: sourceOf(e),
    message: `${code} ${text}: check the patient's history (${e.pack.id}${citationOf(e.rule)}).${notes}`,
  });
}

/** Covered and non-covered diagnosis lists of one rule on one line. */
function checkDiagnoses(view: ClaimView, l: LineView, e: PolicyPackRuleInForce, out: FindingSink): void {
  const lists = e.rule.diagnoses;
  if (lists === undefined) {
    return;
  }
  const code = l.line.procedureCode;
  const source = sourceOf(e);
  const dx = l.dx.flatMap((i): DxView[] => {
    const d = view.dx[i];
    return d !== undefined && d.detail.codeType === 'ICD-10 CM' ? [d] : [];
  });
  if (dx.length === 0) {
    if (lists.covered !== undefined) {
      out.report({
        code: 'POLICY_DX_NOT_LISTED',
        lines: [l.line.lineNumber],
        codes: [code],
        source,
        message: `${code} needs a diagnosis covered by ${e.pack.id} (${e.rule.title}) but the line points to no ICD-10-CM diagnosis.`,
        fix: 'Point the line to the diagnosis that justifies the service.',
      });
    }
    return;
  }
  const supporting = lists.covered === undefined ? undefined : dx.find((d) => listed(d.norm, lists.covered));
  for (const d of dx) {
    const codes = [code, d.code];
    const diagnoses = [d.index + 1];
    if (listed(d.norm, lists.nonCovered)) {
      out.report({
        code: 'POLICY_DX_NOT_COVERED',
        lines: [l.line.lineNumber],
        codes,
        diagnoses,
        source,
        message: `${d.code} is not covered for ${code} by ${e.pack.id} (${e.rule.title}).`,
      });
    } else if (lists.covered === undefined) {
      continue;
    } else if (d === supporting || listed(d.norm, lists.covered)) {
      out.report({
        code: 'POLICY_DX_COVERED',
        lines: [l.line.lineNumber],
        codes,
        diagnoses,
        source,
        message: `${d.code} supports ${code} under ${e.pack.id} (${e.rule.title}).`,
      });
    } else {
      out.report({
        code: 'POLICY_DX_NOT_LISTED',
        severity: supporting ? 'info' : undefined,
        lines: [l.line.lineNumber],
        codes,
        diagnoses,
        source,
        message:
          `${d.code} is not listed as covered for ${code} by ${e.pack.id} (${e.rule.title})` +
          (supporting ? `; the line is supported by ${supporting.code}.` : '.'),
        fix: supporting ? undefined : `Add the documented diagnosis that ${e.pack.id} covers for ${code}.`,
      });
    }
  }
}

export const policyPacks: Rule = {
  id: 'policy.pack',
  checks:
    "A procedure a policy pack in scope lists fits the pack's age and sex limits and diagnosis lists; its frequency limits are flagged for a history check.",
  datasets: [DATASET],
  codes: [
    'POLICY_AGE',
    'POLICY_SEX',
    'POLICY_FREQUENCY',
    'POLICY_DX_COVERED',
    'POLICY_DX_NOT_COVERED',
    'POLICY_DX_NOT_LISTED',
  ],
  run(view, out) {
    // Resolving the contractor costs lookups: only when a loaded pack is scoped to contractors.
    const byContractor = view.ref.policyPacks.packs().some((p) => p.scope.kind === 'contractors');
    const scope = {
      contractorNumber: byContractor ? resolveContractor(view.ref, view.claim)?.contractorNumber : undefined,
      payerCode: view.claim.payerCode,
    };
    for (const l of view.lines) {
      for (const e of view.ref.policyPacks.rulesFor(l.norm, l.date, scope)) {
        checkPatient(view, l, e, out);
        checkFrequency(view, l, e, out);
        checkDiagnoses(view, l, e, out);
      }
    }
  },
};
