// Rule 2, MCE edit 2 "External causes of morbidity codes as principal diagnosis": an ICD-10-CM external-cause code
// (V00-Y99, "V, W, X or Y codes") describes the circumstance of an injury, not its nature, and cannot be principal.
// The edit has no list: the chapter is read from the code. Inpatient claims only; an external-cause principal on
// a date whose loaded version does not describe the edit (the derived v37 table) is `notChecked`.
import type { Rule } from '../rule.js';
import { mceEditOn } from './mce-version.js';

const EXTERNAL_CAUSE = /^[VWXY]/;

export const mceECodeAsPdx: Rule = {
  id: 'mce.e-code-as-pdx',
  checks: 'The principal diagnosis of an inpatient claim is not an external-cause code (V00-Y99).',
  datasets: ['mce'],
  codes: ['MCE_E_CODE_AS_PDX'],
  run(view, out) {
    const pdx = view.dx[0];
    if (!view.inpatient || !pdx) {
      return;
    }
    // An invalid code gets the invalid-code finding (code.validity) only, as MCE edit 1 preempts the others. The
    // version is looked up only for an external-cause principal: no other code can fail the edit in any version.
    if (pdx.detail.codeType !== 'ICD-10 CM' || !pdx.detail.isValid || !EXTERNAL_CAUSE.test(pdx.norm)) {
      return;
    }
    const on = mceEditOn(view, 'external-cause-as-principal-dx', out);
    if (!on) {
      return;
    }
    out.report({
      code: 'MCE_E_CODE_AS_PDX',
      lines: [],
      codes: [pdx.code],
      diagnoses: [1],
      source: on.source,
      message: `Principal diagnosis ${pdx.code} is an external-cause code (V00-Y99): it says how an injury happened, not what it is, and cannot be the principal diagnosis (MCE edit 2).`,
      fix: 'Report the injury or condition treated as principal diagnosis and the external-cause code as a secondary diagnosis.',
    });
  },
};
