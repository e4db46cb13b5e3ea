// Rule 9, contractor resolution (see ../contractor.ts): reports what a biller must fix for the claim to reach a
// contractor the data can prove: a ZIP split between carrier localities, a location that resolves to nothing, or one
// that resolves to an A/B or HH+H MAC's jurisdiction but not to a contractor number (California Part B without a ZIP:
// 01112 or 01182, domain.md section 12; the LCD rule still reads the jurisdiction's policies). A DME MAC is named by its
// jurisdiction, so that resolution is complete.
import { resolveContractor, unresolvedReason } from '../contractor.js';
import type { Rule } from '../rule.js';

export const contractor: Rule = {
  id: 'contractor',
  checks:
    'The claim resolves to a Medicare contractor: contractor number, else the ZIP (ZIP5 carrier file), else the state.',
  datasets: ['zip5-locality', 'medicare-contractors'],
  codes: ['CONTRACTOR_ZIP9_NEEDED', 'CONTRACTOR_UNKNOWN'],
  run(view, out) {
    const provider = view.claim.provider;
    if (provider?.zip === undefined && provider?.state === undefined && provider?.contractorNumber === undefined) {
      return;
    }
    const found = resolveContractor(view.ref, view.claim);
    const fix =
      provider.zip === undefined
        ? 'Give the contractor number or the ZIP on the claim.'
        : 'Give the contractor number on the claim.';
    if (found === undefined) {
      out.report({
        code: 'CONTRACTOR_UNKNOWN',
        lines: [],
        codes: [],
        message: `No Medicare contractor resolved: ${unresolvedReason(view.ref, view.claim)}.`,
        fix,
      });
    } else if (found.contractorNumber === undefined && found.part !== 'DME') {
      out.report({
        code: 'CONTRACTOR_UNKNOWN',
        lines: [],
        codes: [],
        message: `No Medicare contractor number resolved, only the MAC: ${found.text}.`,
        fix,
      });
    } else if (found.zip9Needed) {
      out.report({
        code: 'CONTRACTOR_ZIP9_NEEDED',
        lines: [],
        codes: [],
        source: found.source,
        message: `ZIP ${provider.zip ?? ''} is split between carrier localities: the ZIP+4 decides the locality (${found.text}).`,
        fix: 'Report the 9-digit ZIP code of the service location.',
      });
    }
  },
};
