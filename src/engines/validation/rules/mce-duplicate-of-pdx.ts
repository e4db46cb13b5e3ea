// Rule 2, MCE edit 3 "Duplicate of PDX": whenever a secondary diagnosis is coded the same as the principal diagnosis,
// the secondary diagnosis is a duplicate of it. The edit has no list (codes compare undotted, in upper case).
// Inpatient claims only; runs when the version in force describes the edit.
import type { Rule } from '../rule.js';
import { mceEditOn } from './mce-version.js';

export const mceDuplicateOfPdx: Rule = {
  id: 'mce.duplicate-of-pdx',
  checks: 'No secondary diagnosis of an inpatient claim repeats the principal diagnosis.',
  datasets: ['mce'],
  codes: ['MCE_DUPLICATE_OF_PDX'],
  run(view, out) {
    const [pdx, ...secondary] = view.dx;
    if (!view.inpatient || !pdx || !secondary.some((d) => d.norm === pdx.norm)) {
      return;
    }
    const on = mceEditOn(view, 'duplicate-of-pdx', out);
    if (!on) {
      return;
    }
    for (const d of secondary) {
      if (d.norm === pdx.norm) {
        out.report({
          code: 'MCE_DUPLICATE_OF_PDX',
          lines: [],
          codes: [d.code],
          diagnoses: [d.index + 1],
          source: on.source,
          message: `Secondary diagnosis ${d.code} (position ${String(d.index + 1)}) repeats the principal diagnosis ${pdx.code} (MCE edit 3).`,
          fix: 'Remove the repeated diagnosis.',
        });
      }
    }
  },
};
