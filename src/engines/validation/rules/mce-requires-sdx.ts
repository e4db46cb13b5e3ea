// Rule 2, MCE edit 9, its "REQUIRES SECONDARY DX" case: the unacceptable principal diagnosis the manual marks with an
// asterisk (Z51.89 in v43.1, the requires-secondary-dx list) is acceptable as principal only when a secondary
// diagnosis is also coded on the record. Inpatient claims only.
import type { Rule } from '../rule.js';
import { described, principalOnList } from './mce-version.js';

export const mceRequiresSdx: Rule = {
  id: 'mce.requires-sdx',
  checks:
    'A principal diagnosis the MCE accepts only with a secondary diagnosis (REQUIRES SECONDARY DX) has one on the inpatient claim.',
  datasets: ['mce'],
  codes: ['MCE_REQUIRES_SDX'],
  run(view, out) {
    const hit = principalOnList(
      view,
      'unacceptable-principal-dx',
      'unacceptable-principal-dx-requires-secondary-dx',
      out,
    );
    if (!hit || view.dx.length > 1) {
      return;
    }
    const { on, pdx, member: m } = hit;
    out.report({
      code: 'MCE_REQUIRES_SDX',
      lines: [],
      codes: [pdx.code],
      diagnoses: [1],
      source: on.source,
      message: `Principal diagnosis ${described(pdx.code, m)} is acceptable only with a secondary diagnosis, and the claim has none (MCE edit 9: REQUIRES SECONDARY DX).`,
      fix: 'Add the secondary diagnosis that explains the aftercare, or report the condition treated as principal diagnosis.',
    });
  },
};
