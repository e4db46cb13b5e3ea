// Rule 2, MCE edit 6 "Manifestation code as principal diagnosis": a code of the manifestation list (the "in diseases
// classified elsewhere" codes) describes a manifestation of an underlying disease, not the disease, so it cannot be
// the principal diagnosis. The list applies to the principal diagnosis only. Inpatient claims only.
import type { Rule } from '../rule.js';
import { described, principalOnList } from './mce-version.js';

export const mceManifestationAsPdx: Rule = {
  id: 'mce.manifestation-as-pdx',
  checks: 'The principal diagnosis of an inpatient claim is not on the MCE manifestation-code list.',
  datasets: ['mce', 'mce-v37-derived'],
  codes: ['MCE_MANIFESTATION_AS_PDX'],
  run(view, out) {
    const hit = principalOnList(view, 'manifestation-as-principal-dx', 'manifestation-as-principal-dx', out);
    if (!hit) {
      return;
    }
    const { on, pdx, member: m } = hit;
    out.report({
      code: 'MCE_MANIFESTATION_AS_PDX',
      lines: [],
      codes: [pdx.code],
      diagnoses: [1],
      source: on.source,
      message: `Principal diagnosis ${described(pdx.code, m)} is a manifestation code and cannot be the principal diagnosis (MCE edit 6).`,
      fix: 'Report the etiology (underlying disease) code first, as principal diagnosis, and this manifestation code as a secondary diagnosis.',
    });
  },
};
