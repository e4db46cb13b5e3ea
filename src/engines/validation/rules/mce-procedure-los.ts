// Rule 2, MCE edit 19 "Procedure inconsistent with LOS": 5A1955Z (respiratory ventilation, greater than 96
// consecutive hours) is coded only when the ventilation lasted more than four consecutive days of the stay. A stay
// whose length (days from admission to discharge) is under 4 cannot hold more than 96 hours: admitted one minute past
// midnight and discharged three days later one minute before midnight is 96 hours less two minutes. The claim's from
// and through dates stand for admission and discharge (the claim has no admission date of its own); without a
// through date the length of stay is unknown and the edit is not checked.
import type { Rule } from '../rule.js';
import { described, proceduresOnList } from './mce-version.js';

/** The fewest days from admission to discharge that can hold more than 96 consecutive hours. */
const MIN_DAYS = 4;

/** Whole days from one ISO date to a later one. */
function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

export const mceProcedureLos: Rule = {
  id: 'mce.procedure-los',
  checks:
    'An inpatient claim reports a procedure the MCE ties to a length of stay (list 19: ventilation over 96 consecutive hours) only on a stay long enough to hold it.',
  datasets: ['mce', 'mce-v37-derived'],
  codes: ['MCE_PROCEDURE_LOS'],
  run(view, out) {
    const onList = proceduresOnList(view, 'procedure-inconsistent-with-los', 'procedure-inconsistent-with-los', out);
    if (!onList) {
      return;
    }
    const { on, index, lines: listed } = onList;
    const { dateOfServiceFrom: from, dateOfServiceTo: to } = view.claim;
    if (to === undefined) {
      out.notChecked({
        lines: listed.map((l) => l.line.lineNumber),
        reason: `The claim gives no through (discharge) date: the length of stay MCE edit 19 needs for ${listed[0]?.line.procedureCode ?? ''} is unknown.`,
        missing: 'discharge date (dateOfServiceTo)',
      });
      return;
    }
    const days = daysBetween(from, to);
    if (days >= MIN_DAYS) {
      return;
    }
    for (const l of listed) {
      out.report({
        code: 'MCE_PROCEDURE_LOS',
        lines: [l.line.lineNumber],
        codes: [l.line.procedureCode],
        source: on.source,
        message: `Line ${String(l.line.lineNumber)}: procedure ${described(l.line.procedureCode, index.members.get(l.norm))} is inconsistent with a length of stay of ${String(days)} day${days === 1 ? '' : 's'} (${from} to ${to}; MCE edit 19): more than 96 consecutive hours need a stay of ${String(MIN_DAYS)} days or more.`,
        fix: 'Code the ventilation by its documented duration (5A1945Z for 24-96 consecutive hours, 5A1935Z for less than 24), or correct the admission and discharge dates.',
      });
    }
  },
};
