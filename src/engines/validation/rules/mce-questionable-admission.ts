// Rule 2, MCE edit 8 "Questionable admission", both parts of the v43.1 definitions:
//   8A  a principal diagnosis on the questionable-admission list (I10, R03.0...): not usually sufficient
//       justification for an acute inpatient admission (the list applies to the principal diagnosis only);
//   8B  a cesarean (8B1) or vaginal delivery (8B2) ICD-10-PCS procedure without a secondary diagnosis describing the
//       outcome of delivery (8B3, Z37.-).
// Inpatient claims only. Findings are warnings: the claim goes to review, it is not rejected.
import type { Rule } from '../rule.js';
import { described, mceEditOn, mceListsOn, pcsLines } from './mce-version.js';

export const mceQuestionableAdmission: Rule = {
  id: 'mce.questionable-admission',
  checks:
    'The principal diagnosis of an inpatient claim justifies an admission (MCE 8A), and a delivery procedure comes with an outcome-of-delivery secondary diagnosis (MCE 8B).',
  datasets: ['mce', 'mce-v37-derived'],
  codes: ['MCE_QUESTIONABLE_ADMISSION'],
  run(view, out) {
    const pdx = view.dx[0];
    if (!view.inpatient) {
      return;
    }
    const on = mceEditOn(view, 'questionable-admission', out);
    const [admission] = (on && mceListsOn(on, ['questionable-admission'], out)) ?? [];
    if (!on || !admission) {
      return;
    }
    const m = pdx && admission.members.get(pdx.norm);
    if (pdx && m) {
      out.report({
        code: 'MCE_QUESTIONABLE_ADMISSION',
        lines: [],
        codes: [pdx.code],
        diagnoses: [1],
        source: on.source,
        message: `Principal diagnosis ${described(pdx.code, m)} is not usually sufficient justification for an inpatient admission (MCE edit 8A).`,
        fix: 'Review the record: report the condition that required the admission as principal diagnosis if there is one.',
      });
    }
    const deliveries = pcsLines(view);
    if (deliveries.length === 0) {
      return;
    }
    const obstetric = mceListsOn(
      on,
      ['questionable-obstetric-cesarean', 'questionable-obstetric-vaginal', 'questionable-obstetric-outcome'],
      out,
    );
    if (!obstetric) {
      return;
    }
    const [cesarean, vaginal, outcome] = obstetric;
    if (view.dx.slice(1).some((d) => outcome?.members.has(d.norm))) {
      return;
    }
    for (const l of deliveries) {
      const p = cesarean?.members.get(l.norm) ?? vaginal?.members.get(l.norm);
      if (!p) {
        continue;
      }
      out.report({
        code: 'MCE_QUESTIONABLE_ADMISSION',
        lines: [l.line.lineNumber],
        codes: [l.line.procedureCode],
        source: on.source,
        message: `Line ${String(l.line.lineNumber)}: delivery procedure ${described(l.line.procedureCode, p)} is reported without a secondary diagnosis for the outcome of delivery (MCE edit 8B).`,
        fix: 'Add the outcome-of-delivery code (Z37.0-Z37.9) as a secondary diagnosis.',
      });
    }
  },
};
