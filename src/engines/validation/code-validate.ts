// CodeValidate as a thin shell over the engine (operations.md "Claim validation"): the request becomes a claim
// (every procedure a line, every diagnosis paired with every line unless cptIcdMapping says otherwise), the claim
// is validated by the same rules the scrubber runs, and the findings are laid out as the spec's answer: one
// ResultItem per procedure, one ResultSubItem per diagnosis in each, statuses rolled up, Age/Gender exceptions
// from the codes' own MCE limits, and every check that lacked data in `messages`. Pure; the HTTP operation only
// checks the request's conditional fields and calls this.
import {
  parseBillType,
  parseIcdType,
  UsState,
  ZipCode,
  type Claim,
  type ClaimType,
  type ProviderType,
} from '../../schemas/claim.js';
import type {
  CodeCheckType,
  CodeValidate,
  CodeValidateResult,
  IssueStatus,
  PolicySummary,
  ResultItem,
  ResultItemException,
  ResultItemIssue,
  ResultStatus,
  ResultSubItem,
} from '../../schemas/code-validate.js';
import type { CodeDetail } from '../../schemas/codes.js';
import { setOwn } from '../../schemas/records.js';
import type { Finding, Severity } from '../../schemas/findings.js';
import { FindingCodes, type FindingCode, type RuleId } from '../../findings/codes.js';
import { RULES } from './catalogue.js';
import { viewClaim, type ClaimView, type ValidationReference } from './context.js';
import { packInScope } from '../../schemas/policy-pack.js';
import { inForce } from '../../schemas/validity.js';
import { resolveContractor } from './contractor.js';
import { isDecidedInvalid, isDiagnosisOnLine, shownCode } from './rules/code-validity.js';
import { runRules } from './validate-claim.js';

/** The claim form a provider type bills on: facilities institutional, DME suppliers DME, the rest professional. */
export function claimTypeOf(providerType: ProviderType | undefined): ClaimType {
  return providerType === 'Facility' ? 'institutional' : providerType === 'DME' ? 'dme' : 'professional';
}

/** The label of the claim-level CMS edits and the codes' own edits. */
const CMS = 'CMS';
const CMS_POLICY: PolicySummary = {
  policyType: 'C',
  title: 'CMS claim edits: NCCI PTP, MUE and add-on edits, Medicare Code Editor, ICD-10-CM instructional notes',
  isInLibrary: false,
};

/** The generic labels of checks that could not run (no specific policy can be named). */
const GENERIC_POLICIES: Readonly<Record<string, PolicySummary>> = {
  NCD: { policyType: 'N', title: 'National Coverage Determinations (the lab NCD lists)', isInLibrary: false },
  LCD: {
    policyType: 'L',
    title: "Local Coverage Determinations and billing Articles of the claim's contractor",
    isInLibrary: false,
  },
  Transmittal: { policyType: 'T', title: 'CMS manual and transmittal policy packs', isInLibrary: false },
  MLM: { policyType: 'M', title: 'MLN Matters policy packs', isInLibrary: false },
  Commercial: { policyType: 'P', title: "Policy packs of the claim's payer", isInLibrary: false },
};

/**
 * Diagnosis findings a supporting diagnosis downgrades to `info` on the line (the scrubber's view: the line is
 * payable); CodeValidate judges each pairing on its own (operations.md step 4), so these keep their code's severity.
 */
const PAIRING_CODES: ReadonlySet<FindingCode> = new Set<FindingCode>([
  'NCD_DENIED',
  'NCD_NOT_SUPPORTING',
  'NCD_NOT_LISTED',
  'LCD_NON_COVERED',
  'LCD_NOT_LISTED',
  'POLICY_DX_NOT_COVERED',
  'POLICY_DX_NOT_LISTED',
]);

/**
 * The rules CodeValidate runs: all but POA, which needs indicators the request cannot carry and applies to inpatient
 * claims only (an inpatient claim's answer says POA was not checked).
 */
const CODE_VALIDATE_CHECKS: readonly RuleId[] = RULES.map((r) => r.id).filter((id) => id !== 'poa');

/** The rules whose not-checked entries stand for a requested policy (the item is then not PolicyNotFound). */
const POLICY_RULES: Readonly<Record<string, 'NCD' | 'LCD' | undefined>> = { 'ncd.lab': 'NCD', 'lcd.coverage': 'LCD' };

/** The codeCheckType that asks for each policy type letter. */
const CHECK_TYPE_OF: Readonly<Record<PolicySummary['policyType'], CodeCheckType>> = {
  L: 'LCD',
  A: 'LCD',
  N: 'NCD',
  C: 'CMS',
  T: 'Transmittal',
  M: 'MLM',
  P: 'Commercial',
};

/** The codeCheckTypes only policy packs answer (Transmittal, MLM, Commercial), with the pack type letter of each. */
const PACK_CHECKS = (['T', 'M', 'P'] as const).map((letter) => [CHECK_TYPE_OF[letter], letter] as const);

/** Whether the request's codeCheckTypes ask for a finding's policy (claim edits without a policy count as CMS). */
function requested(f: Finding, types: ReadonlySet<CodeCheckType>): boolean {
  const letter = f.source?.policyType ?? 'C';
  return types.has(CHECK_TYPE_OF[letter]) || (letter === 'A' && types.has('Article'));
}

const STATUS_OF: Readonly<Record<Severity, IssueStatus>> = { error: 'Error', warning: 'Warning', info: 'OK' };
/** Policy-pack findings that are the spec's exceptions (step 5) rather than issues. */
const EXCEPTION_OF: Readonly<Partial<Record<string, ResultItemException['exception']>>> = {
  POLICY_AGE: 'Age',
  POLICY_SEX: 'Gender',
  POLICY_FREQUENCY: 'Frequency',
};
const RANK: Readonly<Record<ResultStatus, number>> = {
  OK: 0,
  PolicyNotFound: 1,
  Warning: 2,
  Error: 3,
  InvalidCode: 4,
  DeletedCode: 4,
};
/** The worse of two statuses (the first on a tie). */
const worse = (a: ResultStatus, b: ResultStatus): ResultStatus => (RANK[b] > RANK[a] ? b : a);

/** The worst status among entries, starting from `from`. */
function worstOf(entries: readonly { readonly status: ResultStatus }[], from: ResultStatus): ResultStatus {
  let status = from;
  for (const e of entries) {
    status = worse(status, e.status);
  }
  return status;
}

/** Adds each entry's policy to `out` once, in the entries' order. */
function addPolicies(out: string[], entries: readonly { readonly policy: string }[]): void {
  for (const e of entries) {
    if (!out.includes(e.policy)) {
      out.push(e.policy);
    }
  }
}

/** Whether an entry cites a policy other than the CMS claim edits. */
function citesPolicy(entries: readonly { readonly policy: string }[]): boolean {
  for (const e of entries) {
    if (e.policy !== CMS) {
      return true;
    }
  }
  return false;
}

/** InvalidCode / DeletedCode for a code that is not valid on the date (undecided validity stays open). */
function codeStatus(detail: CodeDetail): ResultStatus | undefined {
  if (!isDecidedInvalid(detail)) {
    return undefined;
  }
  return detail.invalidReason === 'Deleted' ? 'DeletedCode' : 'InvalidCode';
}

/** Whether a policy pack of a type is in force on the claim's date and takes the claim (national, its contractor or payer). */
function packsInScope(
  ref: ValidationReference,
  letter: 'T' | 'M' | 'P',
  claim: Claim,
  contractorNumber: string | undefined,
): boolean {
  const scope = { contractorNumber, payerCode: claim.payerCode };
  return ref.policyPacks
    .packs()
    .some((p) => p.type === letter && inForce(p, claim.dateOfServiceFrom) && packInScope(p.scope, scope));
}

/**
 * The claim a CodeValidate request describes. The caller has checked the request's conditional fields and that
 * every `cptIcdMapping` code is one of the request's codes.
 * @param request - the parsed request
 * @param providerType - its `providerType`, read by parseProviderType
 * @param sex - its patient gender, read by parseGender
 */
export function claimOfCodeValidate(
  request: CodeValidate,
  providerType: ProviderType | undefined,
  sex: 'M' | 'F' | undefined,
): Claim {
  const icd = request.icdCodes ?? [];
  const map = request.cptIcdMapping;
  const claimType = claimTypeOf(providerType);
  const state = request.state?.trim().toUpperCase();
  const zip = request.postalCode?.trim();
  const patient = request.patient;
  const icdType = request.icdType === undefined ? undefined : parseIcdType(request.icdType);
  const billType =
    request.billType === undefined || claimType !== 'institutional' ? undefined : parseBillType(request.billType);
  return {
    claimId: 'CodeValidate',
    claimType,
    ...(billType !== undefined ? { billType } : {}),
    patient: {
      ...(patient?.birthdate !== undefined ? { birthDate: patient.birthdate } : {}),
      ...(patient?.age !== undefined ? { age: patient.age } : {}),
      ...(sex !== undefined ? { sex } : {}),
    },
    provider: {
      ...(providerType !== undefined ? { type: providerType } : {}),
      ...(state !== undefined && UsState.safeParse(state).success ? { state } : {}),
      ...(zip !== undefined && ZipCode.safeParse(zip).success ? { zip } : {}),
      ...(request.contractorNumber !== undefined ? { contractorNumber: request.contractorNumber.trim() } : {}),
    },
    ...(request.payerCode !== undefined ? { payerCode: request.payerCode } : {}),
    dateOfServiceFrom: request.effectiveDate,
    ...(icdType !== undefined ? { icdType } : {}),
    diagnoses: icd.map((code) => ({ code })),
    lines: (request.cptCodes ?? []).map((code, i) => {
      // An own key only: a code named like an Object.prototype member (`__proto__`, `constructor`) maps nothing.
      const mapped = map !== undefined && Object.hasOwn(map, code) ? map[code] : undefined;
      return {
        lineNumber: i + 1,
        procedureCode: code,
        modifiers: [],
        units: 1,
        ...(mapped !== undefined ? { diagnosisPointers: mapped.map((dx) => icd.indexOf(dx) + 1) } : {}),
      };
    }),
  };
}

/** Age and Gender exceptions of a diagnosis from its own MCE limits (CodeDetail minAge/maxAge/reqGender). */
function exceptionsOf(detail: CodeDetail, view: ClaimView, date: string): ResultItemException[] {
  const out: ResultItemException[] = [];
  const age = view.ageOn(date);
  if (age !== undefined && (age < 0 || age > 124)) {
    // MCE edit 14 (invalid age): an age outside 0-124 cannot be judged against any limit.
    out.push({
      policy: CMS,
      exception: 'Age',
      status: 'Warning',
      message: `The patient's age on ${date} (${age}) is not a valid age (0-124): age limits not checked.`,
    });
    return out;
  }
  if (detail.minAge !== 0 || detail.maxAge !== 124) {
    const range = `ages ${detail.minAge} to ${detail.maxAge}`;
    out.push(
      age === undefined
        ? {
            policy: CMS,
            exception: 'Age',
            status: 'Warning',
            message: `${detail.code} is for ${range}: the patient's age is not given.`,
          }
        : age >= detail.minAge && age <= detail.maxAge
          ? {
              policy: CMS,
              exception: 'Age',
              status: 'OK',
              message: `Age ${age} is within ${range} for ${detail.code}.`,
            }
          : {
              policy: CMS,
              exception: 'Age',
              status: 'Error',
              message: `${detail.code} is for ${range}; the patient is ${age}.`,
            },
    );
  }
  if (detail.reqGender !== undefined) {
    const need = detail.reqGender === 'male' ? 'M' : 'F';
    out.push(
      view.sex === undefined
        ? {
            policy: CMS,
            exception: 'Gender',
            status: 'Warning',
            message: `${detail.code} is for ${detail.reqGender} patients: the patient's gender is not given.`,
          }
        : view.sex === need
          ? { policy: CMS, exception: 'Gender', status: 'OK', message: `${detail.code} fits the patient's gender.` }
          : {
              policy: CMS,
              exception: 'Gender',
              status: 'Error',
              message: `${detail.code} is for ${detail.reqGender} patients only.`,
            },
    );
  }
  return out;
}

/**
 * Validates a CodeValidate request's claim and lays the answer out as the spec's result.
 * @param ref - the reference port
 * @param request - the parsed request
 * @param claim - claimOfCodeValidate(request, ...)
 */
export function codeValidate(ref: ValidationReference, request: CodeValidate, claim: Claim): CodeValidateResult {
  const view = viewClaim(ref, claim, { checks: CODE_VALIDATE_CHECKS });
  const answered = runRules(view);
  // A request's icdCodes are a list to check (up to 50), not a claim form: the 12 diagnoses an 837P carries do not
  // bound it (a request without providerType is read as professional for the edits, not as a CMS-1500).
  const findings = answered.findings.filter((f) => f.code !== 'CLAIM_TOO_MANY_DIAGNOSES');
  const { notChecked } = answered;
  const types = new Set(request.codeCheckTypes);
  const policies: Record<string, PolicySummary> = {};
  const messages: CodeValidateResult['messages'] = [];
  const contractor = resolveContractor(ref, claim);
  if (contractor !== undefined) {
    messages.push({ policy: CMS, message: `Contractor: ${contractor.text}.` });
  }

  // Keyed by the codes as sent (a code named `__proto__` is a member like any other).
  const codes: Record<string, CodeDetail> = {};
  view.lines.forEach((l) => setOwn(codes, l.line.procedureCode, l.detail));
  view.dx.forEach((d) => setOwn(codes, d.code, d.detail));

  const items: ResultItem[] = view.lines.map((l) => ({
    code: shownCode(l.detail, l.line.procedureCode),
    status: 'OK',
    issues: [],
    exceptions: [],
    messages: [],
    policies: [],
    subItems: view.dx.map((d) => ({
      code: shownCode(d.detail, d.code),
      status: 'OK',
      issues: [],
      exceptions: l.dx.includes(d.index) ? exceptionsOf(d.detail, view, l.date) : [],
      messages: l.dx.includes(d.index)
        ? []
        : [
            {
              policy: CMS,
              message: `${shownCode(d.detail, d.code)} is not checked against ${shownCode(l.detail, l.line.procedureCode)} (cptIcdMapping).`,
            },
          ],
      policies: [],
    })),
  }));
  const dxCodes = new Set(view.dx.map((d) => d.code));
  // Positions (0-based) of the diagnoses some line is checked with (all of them, unless cptIcdMapping leaves one out).
  const paired = new Set<number>();
  for (const l of view.lines) {
    for (const k of l.dx) {
      paired.add(k);
    }
  }
  // The sub-items (0-based) a finding concerns: by the diagnosis positions it names, else by its codes.
  const dxOf = (f: Finding): number[] =>
    f.diagnoses !== undefined
      ? f.diagnoses.map((p) => p - 1)
      : view.dx.filter((d) => f.codes.includes(d.code)).map((d) => d.index);
  const place = (f: Finding): void => {
    // Code validity is the codes' status (but for a diagnosis code sent as a procedure, valid as a diagnosis: its
    // issue says why the item is InvalidCode, whatever was asked for); age and sex conflicts are the Age and Gender
    // exceptions of the pairings, or claim messages for a diagnosis no line is checked with.
    // A code that fits several code sets (CODE_AMBIGUOUS) has no decided validity, so no code status: its Warning is
    // an issue of its item or sub-items, whatever was asked for (never OK on an undecided code).
    const always = f.code === 'CODE_WRONG_SET' || f.code === 'CODE_AMBIGUOUS';
    if (f.rule === 'code.validity' && !always) {
      return;
    }
    // (A procedure's sex conflict concerns no diagnosis: it is a claim message below.)
    const onDx = f.rule === 'mce.age-conflict' || f.rule === 'mce.sex-conflict' ? dxOf(f) : [];
    if (onDx.length > 0 && onDx.every((k) => paired.has(k))) {
      return;
    }
    const policy = f.source?.policyId ?? CMS;
    if (!requested(f, types) && !always) {
      return;
    }
    if (policy === CMS) {
      policies[CMS] = CMS_POLICY;
    } else if (policies[policy] === undefined) {
      policies[policy] = {
        policyType: f.source?.policyType ?? 'C',
        title: f.source?.policyTitle ?? policy,
        isInLibrary: false,
        ...(f.source?.policyVersion !== undefined && /^\d+$/.test(f.source.policyVersion)
          ? { version: Number(f.source.policyVersion) }
          : {}),
        ...(f.source?.release !== undefined ? { release: f.source.release } : {}),
      };
    }
    if (f.rule === 'mce.age-conflict' || f.rule === 'mce.sex-conflict') {
      // Of a diagnosis some line is not checked with (cptIcdMapping): no Age or Gender exception of a pairing carries
      // it there, so it is a claim message and an issue of those unpaired sub-items (the conflict is the diagnosis's
      // with the patient, whatever it is paired with: the answer must not look OK).
      messages.push({ policy, message: f.message });
      const issue: ResultItemIssue = { policy, status: STATUS_OF[f.severity], message: f.message, ruleId: f.rule, code: f.code };
      view.lines.forEach((l, i) => {
        for (const k of onDx) {
          if (!l.dx.includes(k)) {
            items[i]?.subItems[k]?.issues.push(issue);
          }
        }
      });
      return;
    }
    const exception = EXCEPTION_OF[f.code];
    if (exception !== undefined) {
      // A pack's Age, Gender and Frequency limits are exceptions of the pairs the line is checked with (or of the
      // item when the line has no diagnosis), under the pack's id.
      const entry: ResultItemException = { policy, exception, status: STATUS_OF[f.severity], message: f.message };
      for (const n of f.lines) {
        const item = items[n - 1];
        const paired = item?.subItems.filter((_, k) => view.lines[n - 1]?.dx.includes(k)) ?? [];
        (paired.length > 0 ? paired : item ? [item] : []).forEach((x) => x.exceptions.push(entry));
      }
      return;
    }
    const severity = PAIRING_CODES.has(f.code as FindingCode)
      ? FindingCodes[f.code as FindingCode].severity
      : f.severity;
    const issue = {
      policy,
      status: STATUS_OF[severity],
      message: f.message,
      ruleId: f.rule,
      code: f.code,
      ...(f.fix !== undefined ? { fix: f.fix } : {}),
    };
    // A claim-level finding about diagnoses (MCE edits of the principal diagnosis, Excludes1 without lines) concerns
    // every pairing of those diagnoses; one about nothing the items hold (the contractor) is a claim message.
    const lines =
      f.lines.length > 0
        ? f.lines
        : f.codes.some((c) => dxCodes.has(c))
          ? view.lines.map((l) => l.line.lineNumber)
          : [];
    if (lines.length === 0) {
      messages.push({ policy, message: f.message });
      return;
    }
    // A finding about particular diagnoses goes to their sub-items, by position (a code listed twice is two
    // sub-items); a finding about the line's own code to the item.
    const positions = f.diagnoses !== undefined ? dxOf(f) : undefined;
    for (const n of lines) {
      const item = items[n - 1];
      if (item === undefined) {
        continue;
      }
      const sent = view.lines[n - 1]?.line.procedureCode;
      const onDx =
        positions ??
        dxOf(f).filter((k) => {
          const code = view.dx[k]?.code;
          return code !== undefined && code !== sent;
        });
      if (onDx.length === 0) {
        item.issues.push(issue);
      } else {
        for (const k of onDx) {
          item.subItems[k]?.issues.push(issue);
        }
      }
    }
  };
  findings.forEach(place);
  if (view.inpatient && types.has('CMS')) {
    // The POA rule is not run: a request carries no present-on-admission indicators. Said, never a silent pass.
    messages.push({
      policy: CMS,
      message:
        'Not checked: present on admission (rule poa): a CodeValidate request cannot carry POA indicators; scrub the claim as a file (CSV poaIndicators, NDJSON or 837I) to check them.',
    });
  }
  // Checks that could not run: for a requested policy (NCD, LCD) a Warning issue on the line, so that the item is not
  // called PolicyNotFound on data that is not there; for the claim edits a message when CMS was asked for.
  const unchecked = new Set<number>();
  // An entry about particular diagnoses goes to the sub-items that pair them, or (paired with no line) to `messages`.
  const onDiagnoses = (positions: readonly number[], message: string, add: (sub: ResultSubItem) => void): void => {
    const at = positions.map((p) => p - 1);
    if (!at.some((k) => paired.has(k))) {
      messages.push({ policy: CMS, message });
    }
    view.lines.forEach((l, i) => {
      for (const k of at) {
        const sub = l.dx.includes(k) ? items[i]?.subItems[k] : undefined;
        if (sub !== undefined) {
          add(sub);
        }
      }
    });
  };
  for (const n of notChecked) {
    if (n.rule === 'code.validity') {
      // A code whose validity no loaded release can decide is a Warning issue of its item or sub-items, whatever
      // was asked for (it was a message only: the sub-item came back OK and the item PolicyNotFound on no data).
      const issue: ResultItemIssue = {
        policy: CMS,
        status: 'Warning',
        message: `Not checked: ${n.reason}`,
        ruleId: n.rule,
      };
      if (n.diagnoses === undefined) {
        n.lines.forEach((line) => items[line - 1]?.issues.push(issue));
      } else {
        onDiagnoses(n.diagnoses, issue.message, (sub) => sub.issues.push(issue));
      }
      continue;
    }
    if (n.rule === 'mce.age-conflict' && n.diagnoses !== undefined) {
      // An age limit that cannot be read (an MCE list without ages) is a Warning Age exception of the pairings
      // (the spec: Warning when it cannot be determined whether the exception applies), as a missing age is.
      const exception: ResultItemException = {
        policy: CMS,
        exception: 'Age',
        status: 'Warning',
        message: `Not checked: ${n.reason}`,
      };
      onDiagnoses(n.diagnoses, exception.message, (sub) => sub.exceptions.push(exception));
      continue;
    }
    const label = POLICY_RULES[n.rule];
    const asked =
      label === undefined ? types.has('CMS') : types.has(label) || (label === 'LCD' && types.has('Article'));
    if (!asked) {
      continue;
    }
    const policy = label ?? CMS;
    const message = `Not checked: ${n.reason}`;
    if (label !== undefined) {
      const summary = GENERIC_POLICIES[label];
      if (summary !== undefined) {
        policies[label] ??= summary;
      }
      const lines = n.lines.length > 0 ? n.lines : view.lines.map((l) => l.line.lineNumber);
      for (const line of lines) {
        items[line - 1]?.issues.push({ policy, status: 'Warning', message, ruleId: n.rule });
        unchecked.add(line);
      }
      continue;
    }
    if (n.lines.length === 0) {
      messages.push({ policy, message });
    } else {
      n.lines.forEach((line) => items[line - 1]?.messages.push({ policy, message }));
    }
  }

  // A requested source only policy packs answer (Transmittal, MLM, a payer's packs) with no pack of that type in
  // force for the date and the claim's scope: nothing was searched, so each item says so (a Warning, as a requested
  // NCD or LCD list that is not loaded), never PolicyNotFound.
  for (const [check, letter] of PACK_CHECKS) {
    if (!types.has(check) || packsInScope(ref, letter, claim, contractor?.contractorNumber)) {
      continue;
    }
    policies[check] ??= GENERIC_POLICIES[check] as PolicySummary;
    const scope = letter === 'P' ? ` for payer ${claim.payerCode ?? '(none given)'}` : '';
    const message = `Not checked: no ${check} policy pack is loaded in force on ${claim.dateOfServiceFrom}${scope}.`;
    for (const l of view.lines) {
      items[l.line.lineNumber - 1]?.issues.push({ policy: check, status: 'Warning', message, ruleId: 'policy.pack' });
      unchecked.add(l.line.lineNumber);
    }
  }

  // Roll-up (operations.md step 7), in loops: this runs on every CodeValidate call.
  view.lines.forEach((l, i) => {
    const item = items[i] as ResultItem;
    const subs = item.subItems;
    let subsStatus: ResultStatus = 'OK';
    const itemPolicies: string[] = [];
    addPolicies(itemPolicies, item.issues);
    addPolicies(itemPolicies, item.exceptions);
    let listed = unchecked.has(l.line.lineNumber) || citesPolicy(item.issues) || citesPolicy(item.exceptions);
    for (let k = 0; k < subs.length; k++) {
      const sub = subs[k] as ResultSubItem;
      const d = view.dx[k];
      const policies: string[] = [];
      addPolicies(policies, sub.issues);
      addPolicies(policies, sub.exceptions);
      sub.policies = policies;
      sub.status = (d && codeStatus(d.detail)) ?? worse(worstOf(sub.issues, 'OK'), worstOf(sub.exceptions, 'OK'));
      // An invalid diagnosis makes the pairing an error; InvalidCode on the item is about its own code.
      subsStatus = worse(subsStatus, RANK[sub.status] === RANK.InvalidCode ? 'Error' : sub.status);
      listed ||= citesPolicy(sub.issues) || citesPolicy(sub.exceptions);
    }
    for (const sub of subs) {
      for (const policy of sub.policies) {
        if (!itemPolicies.includes(policy)) {
          itemPolicies.push(policy);
        }
      }
    }
    item.policies = itemPolicies;
    const entries = worstOf(item.exceptions, worstOf(item.issues, 'OK'));
    const own = codeStatus(l.detail) ?? (isDiagnosisOnLine(l.detail) ? 'InvalidCode' : undefined);
    item.status = own ?? worse(worse(entries, subsStatus), listed ? 'OK' : 'PolicyNotFound');
    // An item whose own code is not a valid procedure was looked up under no policy.
    if (!listed && own === undefined) {
      item.messages.push({ policy: CMS, message: `No requested policy lists ${item.code} on ${l.date}.` });
    }
  });
  // Every label an item, sub-item or message cites is in the dictionary (Age/Gender exceptions cite CMS).
  const cited = new Set<string>();
  for (const item of items) {
    item.policies.forEach((p) => cited.add(p));
    item.messages.forEach((m) => cited.add(m.policy));
  }
  messages.forEach((m) => cited.add(m.policy));
  for (const label of cited) {
    if (policies[label] === undefined) {
      const summary = label === CMS ? CMS_POLICY : GENERIC_POLICIES[label];
      if (summary !== undefined) {
        policies[label] = summary;
      }
    }
  }
  return { codes, policies, items, messages };
}
