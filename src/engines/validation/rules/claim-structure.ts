// Claim structure: what the claim says about itself must hold together before any edit can be trusted. A line that
// points to a diagnosis the claim does not have (the 837's SV107 / the CSV's diagnosisPointers beyond the claim's
// diagnoses) is reported, not silently dropped; two lines with one line number make every finding about "line N"
// ambiguous.
import type { Rule } from '../rule.js';

export const claimStructure: Rule = {
  id: 'claim.structure',
  checks: 'Every diagnosis pointer of a line names a diagnosis of the claim, and line numbers are unique.',
  datasets: [],
  codes: ['CLAIM_POINTER_INVALID', 'CLAIM_DUPLICATE_LINE'],
  run(view, out) {
    const count = view.dx.length;
    const seen = new Set<number>();
    for (const l of view.lines) {
      const n = l.line.lineNumber;
      const bad = (l.line.diagnosisPointers ?? []).filter((p) => p > count);
      if (bad.length > 0) {
        out.report({
          code: 'CLAIM_POINTER_INVALID',
          lines: [n],
          codes: [l.line.procedureCode],
          message: `Line ${n} points to diagnosis ${bad.join(', ')}, but the claim has ${count} diagnos${count === 1 ? 'is' : 'es'}.`,
          fix: 'Point the line to the diagnoses that justify it (1-based positions in the claim diagnoses).',
        });
      }
      if (seen.has(n)) {
        out.report({
          code: 'CLAIM_DUPLICATE_LINE',
          lines: [n],
          codes: [l.line.procedureCode],
          message: `Line number ${n} is used by more than one service line.`,
          fix: 'Number the service lines 1, 2, 3... once each.',
        });
      }
      seen.add(n);
    }
  },
};
