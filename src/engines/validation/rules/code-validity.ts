// Rule 1, code validity on the date of service (CodeDetail, operations.md "Code sets and dates, everywhere"): every
// diagnosis and every line's procedure code must exist and be billable on its date in its code set. The code
// engine decides and words it; this rule turns its reason codes into findings, and a date no loaded release covers
// into a `notChecked` entry (never a pass). A diagnosis code on a procedure line is reported as the wrong code set.
import type { FindingCode } from '../../../findings/codes.js';
import { CodeReasonCode, type CodeDetail } from '../../../schemas/codes.js';
import type { FindingSource } from '../../../schemas/findings.js';
import { linesOfDx } from '../context.js';
import type { FindingSink, Rule } from '../rule.js';

/** The dataset a code set's validity is read from. */
function sourceOf(detail: CodeDetail): FindingSource | undefined {
  if (detail.release === undefined) {
    return undefined;
  }
  const dataset =
    detail.codeType === 'ICD-10 CM'
      ? 'icd10cm-order'
      : detail.codeType === 'ICD-10 PCS'
        ? 'icd10pcs-order'
        : detail.codeType === 'ICD-9 CM'
          ? 'icd9cm'
          : detail.codeType === 'HCPCS'
            ? 'hcpcs'
            : 'opps-addendum-b';
  return { dataset, release: detail.release };
}

/** Reports one code's CodeDetail; returns nothing when the code is valid. */
function reportDetail(
  out: FindingSink,
  code: string,
  detail: CodeDetail,
  lines: readonly number[],
  what: string,
  diagnoses?: readonly number[],
): void {
  if (detail.isValid) {
    return;
  }
  if (detail.noData === true || detail.reasonCode === 'CODE_NO_DATA') {
    out.notChecked({
      lines,
      reason: detail.message ?? `No loaded release covers the date of ${what} ${code}.`,
      missing: `${detail.codeType ?? 'code set'} release for the date of service`,
      ...(diagnoses === undefined ? {} : { diagnoses }),
    });
    return;
  }
  const reason: FindingCode = detail.reasonCode ?? 'CODE_NOT_FOUND';
  const fix =
    detail.suggestions && detail.suggestions.length > 0
      ? `Use ${detail.suggestions.length === 1 ? '' : 'one of '}${detail.suggestions.slice(0, 10).join(', ')}.`
      : undefined;
  out.report({
    code: reason,
    lines,
    codes: [code],
    diagnoses,
    source: sourceOf(detail),
    message: `${what[0]?.toUpperCase() ?? ''}${what.slice(1)} ${code}: ${detail.message ?? `${code} is not valid on the date of service.`}`,
    fix,
  });
}

/**
 * The code as an answer shows it (operations.md: dotted for ICD-10-CM and ICD-9-CM diagnoses, undotted for the
 * rest, upper case): the CodeDetail's form once its code set is settled, else the string as sent.
 */
export function shownCode(detail: CodeDetail, sent: string): string {
  return detail.codeType === undefined ? sent : detail.code;
}

/** Whether a code is known not to be valid on its date (deleted, header, malformed...), not merely undecided for lack of data. */
export function isDecidedInvalid(detail: CodeDetail): boolean {
  return !detail.isValid && detail.invalidReason !== undefined;
}

/** Whether a line's code is an ICD-10-CM diagnosis code (CODE_WRONG_SET): valid as a diagnosis, not as a procedure. */
export function isDiagnosisOnLine(detail: CodeDetail): boolean {
  return detail.codeType === 'ICD-10 CM';
}

export const codeValidity: Rule = {
  id: 'code.validity',
  checks:
    'Every diagnosis and procedure code exists and is billable on its date of service in its code set (deleted, header, 7th character, placeholder, ICD-9/ICD-10 dates).',
  datasets: ['icd10cm-order', 'icd10pcs-order', 'icd9cm-dx', 'hcpcs', 'opps-addendum-b', 'icd10cm-tabular'],
  // Every reason the code engine gives, but "no data" (a not-checked entry here), and the wrong code set.
  codes: [...CodeReasonCode.options.filter((c) => c !== 'CODE_NO_DATA'), 'CODE_WRONG_SET'],
  run(view, out) {
    for (const d of view.dx) {
      if (d.detail.isValid) {
        continue;
      }
      const what = d.index === 0 ? 'principal diagnosis' : 'diagnosis';
      reportDetail(out, d.code, d.detail, linesOfDx(view, d.index), what, [d.index + 1]);
    }
    for (const l of view.lines) {
      if (isDiagnosisOnLine(l.detail)) {
        out.report({
          code: 'CODE_WRONG_SET',
          lines: [l.line.lineNumber],
          codes: [l.line.procedureCode],
          message: `Line ${l.line.lineNumber}: ${l.line.procedureCode} is an ICD-10-CM diagnosis code, not a procedure code.`,
          fix: 'Report the procedure (CPT/HCPCS) on the line and the diagnosis in the claim diagnoses.',
        });
        continue;
      }
      // ICD-10-PCS codes the inpatient procedures of a hospital stay; every other claim reports CPT/HCPCS.
      if (l.detail.codeType === 'ICD-10 PCS' && !view.inpatient && l.detail.isValid) {
        out.report({
          code: 'CODE_WRONG_SET',
          lines: [l.line.lineNumber],
          codes: [l.line.procedureCode],
          message: `Line ${l.line.lineNumber}: ${l.line.procedureCode} is an ICD-10-PCS code, which only an inpatient claim reports; a ${view.claim.claimType === 'institutional' ? 'claim with an outpatient type of bill' : `${view.claim.claimType} claim`} reports procedures in CPT/HCPCS.`,
          fix: 'Report the procedure with its CPT/HCPCS code.',
        });
        continue;
      }
      reportDetail(out, l.line.procedureCode, l.detail, [l.line.lineNumber], `line ${l.line.lineNumber} procedure`);
    }
  },
};
