// Rule 2, MCE edit 20 "Unspecified code" (from 2022-04-01): a diagnosis on the list of unspecified codes whose code
// family has codes for the side (right, left, bilateral); in the inpatient setting the side should rarely be
// undocumented. The definitions restrict it to no position, so every diagnosis is read. CMS lets a claim bypass the
// edit with a remark saying why laterality could not be documented (CR 12471); the claim model carries no remarks,
// so the finding is a warning that says so. Inpatient claims only.
import type { Rule } from '../rule.js';
import { described, mceEditOn, mceListsOn } from './mce-version.js';

export const mceUnspecifiedCode: Rule = {
  id: 'mce.unspecified-code',
  checks:
    'No diagnosis of an inpatient claim is an unspecified-laterality code on the MCE unspecified-code list when a code for the side exists.',
  datasets: ['mce'],
  codes: ['MCE_UNSPECIFIED_CODE'],
  run(view, out) {
    if (!view.inpatient || view.dx.length === 0) {
      return;
    }
    const on = mceEditOn(view, 'unspecified-code', out);
    const [list] = (on && mceListsOn(on, ['unspecified-code'], out)) ?? [];
    if (!on || !list) {
      return;
    }
    for (const d of view.dx) {
      const m = list.members.get(d.norm);
      if (!m) {
        continue;
      }
      out.report({
        code: 'MCE_UNSPECIFIED_CODE',
        lines: [],
        codes: [d.code],
        diagnoses: [d.index + 1],
        source: on.source,
        message: `${d.index === 0 ? 'Principal diagnosis' : 'Diagnosis'} ${described(d.code, m)} does not say the side, and its code family has codes for right, left or bilateral (MCE edit 20).`,
        fix: 'Report the code for the documented side; if the record cannot document it, add the claim remark that bypasses MCE edit 20 (CR 12471).',
      });
    }
  },
};
