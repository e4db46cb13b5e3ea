// Claim structure: what the claim says about itself must hold together before any edit can be trusted. A line that
// points to a diagnosis the claim does not have (the 837's SV107 / the CSV's diagnosisPointers beyond the claim's
// diagnoses) is reported, not silently dropped; two lines with one line number make every finding about "line N"
// ambiguous. A pointer given twice adds no diagnosis (the engine reads it once); an empty list points to none. A line
// dated outside the claim's dates (an 837I statement period) is the claim's fault. A patient born after the date of
// service has no age to check (the MCE calls it an invalid age, edit 14). A professional or DME claim carries at most
// 12 diagnoses (837P HI01-HI12, CMS-1500 item 21 A-L; an 837I the principal and 24 others, the model's bound): more
// cannot be sent, and a line pointing past the 12th points nowhere a payer sees.
import type { Rule } from '../rule.js';

/** The most diagnoses a professional or DME claim carries (837P HI01-HI12, CMS-1500 item 21 A-L). */
const MAX_PROFESSIONAL_DIAGNOSES = 12;

export const claimStructure: Rule = {
  id: 'claim.structure',
  checks:
    "Every diagnosis pointer of a line names a diagnosis of the claim, once, a line given pointers has at least one, line numbers are unique, each line's date is within the claim's dates, the patient is born by the claim's first date of service, and a professional or DME claim has at most 12 diagnoses.",
  datasets: [],
  codes: [
    'CLAIM_POINTER_INVALID',
    'CLAIM_POINTER_REPEATED',
    'CLAIM_DUPLICATE_LINE',
    'CLAIM_LINE_DATE_OUTSIDE',
    'CLAIM_BIRTH_AFTER_SERVICE',
    'CLAIM_TOO_MANY_DIAGNOSES',
  ],
  run(view, out) {
    const diagnoses = view.claim.diagnoses.length;
    if (view.claim.claimType !== 'institutional' && diagnoses > MAX_PROFESSIONAL_DIAGNOSES) {
      out.report({
        code: 'CLAIM_TOO_MANY_DIAGNOSES',
        lines: [],
        codes: view.claim.diagnoses.slice(MAX_PROFESSIONAL_DIAGNOSES).map((d) => d.code),
        diagnoses: view.claim.diagnoses.slice(MAX_PROFESSIONAL_DIAGNOSES).map((_, i) => MAX_PROFESSIONAL_DIAGNOSES + i + 1),
        message: `The ${view.claim.claimType} claim has ${diagnoses} diagnoses; an 837P or CMS-1500 carries at most ${MAX_PROFESSIONAL_DIAGNOSES} (the codes past the 12th are not sent).`,
        fix: 'Keep the 12 diagnoses that support the claim\'s lines (point the lines to them), or split the claim.',
      });
    }
    const born = view.claim.patient?.birthDate;
    if (born !== undefined && born > view.claim.dateOfServiceFrom) {
      // No birth date is quoted: it is patient data (the finding says which field to correct).
      out.report({
        code: 'CLAIM_BIRTH_AFTER_SERVICE',
        lines: [],
        codes: [],
        message: `The patient's birth date is after the claim's first date of service (${view.claim.dateOfServiceFrom}): no age-based edit can be checked.`,
        fix: "Correct the patient's birth date (or the dates of service).",
      });
    }
    const count = view.dx.length;
    const seen = new Set<number>();
    for (const l of view.lines) {
      const n = l.line.lineNumber;
      const pointers = l.line.diagnosisPointers ?? [];
      const bad = pointers.filter((p) => p > count);
      const fix = 'Point the line to the diagnoses that justify it (1-based positions in the claim diagnoses).';
      if (bad.length > 0) {
        out.report({
          code: 'CLAIM_POINTER_INVALID',
          lines: [n],
          codes: [l.line.procedureCode],
          message: `Line ${n} points to diagnosis ${bad.join(', ')}, but the claim has ${count} diagnos${count === 1 ? 'is' : 'es'}.`,
          fix,
        });
      } else if (l.line.diagnosisPointers !== undefined && pointers.length === 0) {
        out.report({
          code: 'CLAIM_POINTER_INVALID',
          lines: [n],
          codes: [l.line.procedureCode],
          message: `Line ${n} points to no diagnosis (its list of pointers is empty): no diagnosis supports it.`,
          fix,
        });
      }
      const repeated = pointers.filter((p, k) => pointers.indexOf(p) !== k);
      if (repeated.length > 0) {
        out.report({
          code: 'CLAIM_POINTER_REPEATED',
          lines: [n],
          codes: [l.line.procedureCode],
          message: `Line ${n} points to diagnosis ${[...new Set(repeated)].join(', ')} more than once: a pointer given again names no other diagnosis.`,
          fix: 'Give each diagnosis pointer of the line once.',
        });
      }
      const day = l.line.dateOfService;
      const through = view.claim.dateOfServiceTo ?? view.claim.dateOfServiceFrom;
      if (day !== undefined && (day < view.claim.dateOfServiceFrom || day > through)) {
        out.report({
          code: 'CLAIM_LINE_DATE_OUTSIDE',
          lines: [n],
          codes: [l.line.procedureCode],
          message: `Line ${n} is dated ${day}, outside the claim's dates (${view.claim.dateOfServiceFrom} to ${through}).`,
          fix: "Correct the line's date of service or the claim's dates.",
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
