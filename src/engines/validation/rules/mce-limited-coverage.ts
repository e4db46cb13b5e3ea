// Rule 2, MCE edit 17 "Limited coverage": procedures (transplants, heart assist revisions) whose complexity and cost
// lead Medicare to limit coverage to a portion of the cost. List 17A applies to every ICD-10-PCS procedure of an
// inpatient claim; 17B (with Z00.6) is discontinued since 2022-04-01 and is not read.
import type { Rule } from '../rule.js';
import { described, proceduresOnList } from './mce-version.js';

export const mceLimitedCoverage: Rule = {
  id: 'mce.limited-coverage',
  checks: 'Flags the ICD-10-PCS procedures of an inpatient claim that Medicare covers only in part (MCE list 17A).',
  datasets: ['mce', 'mce-v37-derived'],
  codes: ['MCE_LIMITED_COVERAGE'],
  run(view, out) {
    const listed = proceduresOnList(view, 'limited-coverage', 'limited-coverage-a', out);
    if (!listed) {
      return;
    }
    const { on, index, lines } = listed;
    for (const l of lines) {
      const m = index.members.get(l.norm);
      out.report({
        code: 'MCE_LIMITED_COVERAGE',
        lines: [l.line.lineNumber],
        codes: [l.line.procedureCode],
        source: on.source,
        message: `Line ${String(l.line.lineNumber)}: procedure ${described(l.line.procedureCode, m)} has limited Medicare coverage (MCE edit 17): payment covers only a portion of its cost.`,
        fix: 'Check the coverage conditions (approved transplant or device center, documentation) before billing.',
      });
    }
  },
};
