// Rule 2, MCE edit 18 "Wrong procedure performed": an external-cause code of the list (Y65.51 wrong procedure on the
// correct patient, Y65.52 procedure on a patient not scheduled for surgery, Y65.53 correct procedure on the wrong side
// or body part) anywhere on the record says the wrong procedure was performed. Inpatient claims only; the finding
// names the diagnosis and the claim's ICD-10-PCS procedure lines.
import type { Rule } from '../rule.js';
import { described, mceEditOn, mceListsOn, pcsLines } from './mce-version.js';

export const mceWrongProcedure: Rule = {
  id: 'mce.wrong-procedure',
  checks: 'No diagnosis of an inpatient claim says the wrong procedure was performed (MCE list 18).',
  datasets: ['mce', 'mce-v37-derived'],
  codes: ['MCE_WRONG_PROCEDURE'],
  run(view, out) {
    if (!view.inpatient || view.dx.length === 0) {
      return;
    }
    const on = mceEditOn(view, 'wrong-procedure-performed', out);
    const [list] = (on && mceListsOn(on, ['wrong-procedure-performed'], out)) ?? [];
    if (!on || !list) {
      return;
    }
    const lines = pcsLines(view).map((l) => l.line.lineNumber);
    for (const d of view.dx) {
      const m = list.members.get(d.norm);
      if (!m) {
        continue;
      }
      out.report({
        code: 'MCE_WRONG_PROCEDURE',
        lines,
        codes: [d.code],
        diagnoses: [d.index + 1],
        source: on.source,
        message: `Diagnosis ${described(d.code, m)} says the wrong procedure was performed (MCE edit 18): Medicare does not pay for the erroneous surgery.`,
        fix: 'Bill the erroneous surgery and its related services on a separate no-pay claim (type of bill 0110), as the wrong-surgery NCDs 140.6-140.8 require; keep the covered services on this claim.',
      });
    }
  },
};
