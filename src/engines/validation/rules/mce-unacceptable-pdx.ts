// Rule 2, MCE edit 9 "Unacceptable principal diagnosis": a code of the list (health-status circumstances, codes that
// are not specific manifestations) reported as principal. The code the manual marks with an asterisk (Z51.89 in
// v43.1) is acceptable when a secondary diagnosis is coded: it is left to mce.requires-sdx. The list applies to the
// principal diagnosis only. Inpatient claims only.
import type { Rule } from '../rule.js';
import { described, principalOnList } from './mce-version.js';

export const mceUnacceptablePdx: Rule = {
  id: 'mce.unacceptable-pdx',
  checks: 'The principal diagnosis of an inpatient claim is not on the MCE unacceptable-principal-diagnosis list.',
  datasets: ['mce', 'mce-v37-derived'],
  codes: ['MCE_UNACCEPTABLE_PDX'],
  run(view, out) {
    const hit = principalOnList(view, 'unacceptable-principal-dx', 'unacceptable-principal-dx', out);
    // The asterisked code is acceptable with a secondary diagnosis (REQUIRES SECONDARY DX otherwise: its own rule).
    if (
      !hit ||
      hit.member.marked ||
      hit.on.list('unacceptable-principal-dx-requires-secondary-dx')?.members.has(hit.pdx.norm)
    ) {
      return;
    }
    const { on, pdx, member: m } = hit;
    out.report({
      code: 'MCE_UNACCEPTABLE_PDX',
      lines: [],
      codes: [pdx.code],
      diagnoses: [1],
      source: on.source,
      message: `Principal diagnosis ${described(pdx.code, m)} is unacceptable as principal diagnosis (MCE edit 9): it describes a circumstance or status, not the condition that occasioned the admission.`,
      fix: 'Report the condition chiefly responsible for the admission as principal diagnosis; keep this code as a secondary diagnosis if it applies.',
    });
  },
};
