// CciMueCheck (ext) as a thin shell over the engine: the items become the lines of one claim of the provider type,
// the code-validity and NCCI rules (PTP, MUE, add-on) run on it, and each item gets its validity, its MUE value and
// adjudication indicator, its modifiers' standing and the issues that name its line, in request order.
import type { CciMueCheck, CciMueIssue, CciMueResultItem } from '../../schemas/cci-mue-check.js';
import { parseProviderType, type Claim } from '../../schemas/claim.js';
import type { Finding } from '../../schemas/findings.js';
import { releaseOn } from '../codes/index.js';
import { claimTypeOf } from './code-validate.js';
import { viewClaim, type ValidationReference } from './context.js';
import { isDiagnosisOnLine, shownCode } from './rules/code-validity.js';
import { editReleaseOn, mueOf } from './rules/edit-answers.js';
import { MUE_DATASET } from '../../schemas/edits.js';
import { MUE_SETTING } from './rules/ncci-mue.js';
import { runRules } from './validate-claim.js';

const CHECKS = ['code.validity', 'ncci.ptp', 'ncci.mue', 'ncci.add-on'] as const;

/** Issue status numbers of the CCI API: 1 OK, 2 Warning, 3 Error, 4 resolved by a modifier. */
function issueStatus(f: Finding): CciMueIssue['status'] {
  if (f.code === 'PTP_BYPASSED') {
    return 4;
  }
  return f.severity === 'error' ? 3 : f.severity === 'warning' ? 2 : 1;
}

/**
 * Checks procedure items against code validity and the NCCI edits.
 * @param ref - the reference port
 * @param request - the parsed request (modifiers upper-cased and two characters each: the caller checks them)
 * @returns one result item per request item, in order
 */
export function cciMueCheck(ref: ValidationReference, request: CciMueCheck): CciMueResultItem[] {
  // `P`, `H`, `DME` are spellings CodeValidate's providerType accepts too.
  const providerType = parseProviderType(request.providerType) ?? 'Physician';
  const claim: Claim = {
    claimId: 'CciMueCheck',
    claimType: claimTypeOf(providerType),
    provider: { type: providerType },
    dateOfServiceFrom: request.effectiveDate,
    diagnoses: [],
    lines: request.items.map((item, i) => ({
      lineNumber: i + 1,
      procedureCode: item.code,
      modifiers: (item.modifiers ?? []).map((m) => m.trim().toUpperCase()),
      units: item.units ?? 1,
    })),
  };
  const view = viewClaim(ref, claim, { checks: CHECKS });
  const { findings, notChecked } = runRules(view);
  const date = request.effectiveDate;
  const setting = MUE_SETTING[view.setting];
  const mueLoaded = editReleaseOn(ref.edits, MUE_DATASET[setting], date) !== undefined;
  // HCPCS Level II modifiers come from the HCPCS file: past the newest one's period, one missing from it may have been
  // added since (JZ, 2023) and one in it may have ended, so neither is judged.
  const hcpcsReleases = ref.codes.releases('HCPCS');
  const modifiersCovered = releaseOn(hcpcsReleases, date) !== undefined;
  const newestHcpcs = hcpcsReleases.at(-1)?.release ?? 'none';
  return view.lines.map((l) => {
    const mine = findings.filter((f) => f.lines.includes(l.line.lineNumber));
    const issues: CciMueIssue[] = mine.map((f) => {
      const other = f.rule === 'ncci.ptp' ? f.codes.find((c) => c !== l.line.procedureCode) : undefined;
      return {
        status: issueStatus(f),
        message: f.message,
        ruleId: f.rule,
        ...(other !== undefined ? { otherCode: other } : {}),
      };
    });
    // A check that could not run for the item (no table for the date, no MUE row) is a warning, never a pass.
    for (const n of notChecked) {
      if (n.lines.length === 0 || n.lines.includes(l.line.lineNumber)) {
        issues.push({ status: 2, message: `Not checked: ${n.reason}`, ruleId: n.rule });
      }
    }
    const mue = mueLoaded ? mueOf(ref.edits, l.norm, date, setting) : undefined;
    const modifiers = l.line.modifiers.map((m) => {
      // Two-digit modifiers are CPT modifiers (AMA content): no list of them is loaded, so they are not judged.
      if (/^\d\d$/.test(m)) {
        return {
          modCode: m,
          status: 'Warning' as const,
          message: `${m} is a CPT modifier: no CPT modifier list is loaded, so it was not checked.`,
        };
      }
      const known = ref.procedures.hcpcsModifier(m, date);
      if (!modifiersCovered) {
        const listed = known === undefined ? 'is in no loaded HCPCS file' : `(${known.shortDescription ?? known.longDescription ?? m}) is in the ${newestHcpcs} HCPCS file`;
        return {
          modCode: m,
          status: 'Warning' as const,
          message: `${m} ${listed}; no loaded HCPCS file covers ${date} (the newest is ${newestHcpcs}), so it was not checked.`,
        };
      }
      return known === undefined
        ? { modCode: m, status: 'Error' as const, message: `${m} is not a HCPCS modifier in force on ${date}.` }
        : { modCode: m, status: 'OK' as const, message: known.longDescription ?? known.shortDescription ?? m };
    });
    const worst = Math.max(1, ...issues.map((i) => (i.status === 4 ? 1 : i.status)));
    const modifierError = modifiers.some((m) => m.status === 'Error');
    // A code whose validity is unknown (no release covers the date) is not invalid: its not-checked issue warns.
    // A diagnosis code is valid as a diagnosis, not as the procedure the item is (its issue says so).
    const wrongSet = isDiagnosisOnLine(l.detail);
    const invalid = wrongSet || (!l.detail.isValid && l.detail.noData !== true);
    const status = worst === 3 || modifierError || invalid ? 'Error' : worst === 2 ? 'Warning' : 'OK';
    return {
      code: shownCode(l.detail, l.line.procedureCode),
      status,
      isValid: l.detail.isValid && !wrongSet,
      // The code's own reason first (a deleted diagnosis code is Deleted, as CodeValidate's DeletedCode says).
      ...(l.detail.invalidReason !== undefined
        ? { invalidReason: l.detail.invalidReason }
        : wrongSet
          ? { invalidReason: 'Invalid' as const }
          : {}),
      ...(l.detail.statusIndicator !== undefined ? { statusIndicator: l.detail.statusIndicator } : {}),
      ...(l.detail.derived === true ? { derived: true } : {}),
      ...(mue !== undefined ? { mueValue: mue.value, mueAdjudicationIndicator: mue.maiText } : {}),
      modifiers,
      issues,
    };
  });
}
