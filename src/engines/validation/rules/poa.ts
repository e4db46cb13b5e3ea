// Rule 12, present on admission (issue 11 §2): on an inpatient claim every ICD-10-CM diagnosis carries a POA
// indicator (Y, N, U, W) unless it is on the POA exempt list in force on the discharge date, which is reported blank
// (or 1 on pre-5010 forms). An exempt code with Y/N/U/W, and a non-exempt one without an indicator (or with the
// exempt value 1), are warnings. A date no loaded exempt list covers is `notChecked`.
import { memoryPerOwner } from '../../answer-memory.js';
import { fiscalYearOf } from '../../../schemas/validity.js';
import type { ValidationReference } from '../context.js';
import type { Rule } from '../rule.js';

type Mapping = ValidationReference['mapping'];
type PoaAnswer = ReturnType<Mapping['poaExempt']>;

/** Exempt-list answers per connection (two SQL lookups each), by date and code. */
const remembered = memoryPerOwner<PoaAnswer | null>(50_000);

function poaExemptOf(mapping: Mapping, code: string, date: string): PoaAnswer {
  return remembered(mapping).recall(date, code, () => mapping.poaExempt(code, date) ?? null) ?? undefined;
}

export const poa: Rule = {
  id: 'poa',
  checks:
    'Every diagnosis of an inpatient claim carries a POA indicator unless it is on the POA exempt list, and no exempt diagnosis carries Y/N/U/W.',
  datasets: ['icd10cm-poa-exempt'],
  codes: ['POA_MISSING', 'POA_EXEMPT_REPORTED'],
  run(view, out) {
    if (!view.inpatient) {
      return;
    }
    // The exempt list is of ICD-10-CM codes; codes proven invalid are left to code.validity (a code no loaded release
    // covers is still read against the exempt list).
    const dx = view.dx.filter(
      (d) => d.detail.codeType === 'ICD-10 CM' && (d.detail.isValid || d.detail.noData === true),
    );
    if (dx.length === 0) {
      return;
    }
    const date = view.dxDate;
    for (const d of dx) {
      const answer = poaExemptOf(view.ref.mapping, d.norm, date);
      if (!answer) {
        out.notChecked({
          lines: [],
          reason: `No loaded POA exempt list covers ${date}.`,
          missing: `ICD-10-CM POA exempt list FY${String(fiscalYearOf(date))}`,
        });
        return;
      }
      const source = { dataset: 'icd10cm-poa-exempt', release: answer.release };
      const what = d.index === 0 ? 'Principal diagnosis' : 'Diagnosis';
      if (answer.exempt && d.poa !== undefined && d.poa !== '1') {
        out.report({
          code: 'POA_EXEMPT_REPORTED',
          lines: [],
          codes: [d.code],
          diagnoses: [d.index + 1],
          source,
          message: `${what} ${d.code} is on the ${answer.release} POA exempt list but is reported with POA indicator ${d.poa}.`,
          fix: 'Leave the POA indicator blank for this code.',
        });
      } else if (!answer.exempt && (d.poa === undefined || d.poa === '1')) {
        out.report({
          code: 'POA_MISSING',
          lines: [],
          codes: [d.code],
          diagnoses: [d.index + 1],
          source,
          message:
            d.poa === undefined
              ? `${what} ${d.code} needs a present-on-admission indicator and has none.`
              : `${what} ${d.code} is reported as POA exempt (1), but it is not on the ${answer.release} POA exempt list.`,
          fix: 'Report Y (present at admission), N (not present), U (documentation insufficient) or W (clinically undetermined).',
        });
      }
    }
  },
};
