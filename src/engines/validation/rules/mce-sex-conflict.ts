// Rule 2, MCE edit 5 "Sex conflict": any diagnosis or ICD-10-PCS procedure on a female-only or male-only list of the
// version in force, on a claim of the other sex. CMS deactivated the edit on 2024-10-01 (v42 onwards, v43.1 too):
// the version's edit table says so and the rule then reports nothing. The lists are loaded only from the derived v37
// table (FY2020). Run on every claim type (domain.md section 13); no sex on the claim → `notChecked` ('patient sex').
import { linesOfDx } from '../context.js';
import type { FindingSink, Rule } from '../rule.js';
import { described, mceEditOn, mceListsOn, pcsLines, type MceEditOn } from './mce-version.js';

const SEX_LISTS = ['sex-female-diagnoses', 'sex-female-procedures', 'sex-male-diagnoses', 'sex-male-procedures'];
/** CMS deactivated the edit from this date (MCE v42 on): a date after it needs no version loaded to find nothing. */
const DEACTIVATED_SINCE = '2024-10-01';

/** Reports one listed code whose sex differs from the patient's. */
function conflict(
  out: FindingSink,
  on: MceEditOn,
  what: string,
  code: string,
  title: string,
  only: 'F' | 'M',
  lines: readonly number[],
  diagnoses?: readonly number[],
): void {
  const sex = only === 'F' ? 'female' : 'male';
  out.report({
    code: 'MCE_SEX_CONFLICT',
    lines,
    codes: [code],
    diagnoses,
    source: on.source,
    message: `${what} ${title} is on the MCE ${on.version} ${sex}-only list, but the patient is ${only === 'F' ? 'male' : 'female'}.`,
    fix: "Check the patient's sex on the claim; if it is right, review the code.",
  });
}

export const mceSexConflict: Rule = {
  id: 'mce.sex-conflict',
  checks:
    "No diagnosis or ICD-10-PCS procedure is on an active MCE sex list of the other sex than the patient's (edit deactivated since 2024-10-01).",
  datasets: ['mce', 'mce-v37-derived'],
  codes: ['MCE_SEX_CONFLICT'],
  run(view, out) {
    const on = mceEditOn(view, 'sex-conflict', out, DEACTIVATED_SINCE);
    const lists = on && mceListsOn(on, SEX_LISTS, out);
    if (!on || !lists) {
      return;
    }
    const dxLists = lists.filter((l) => l.list.codeType === 'D');
    const procLists = lists.filter((l) => l.list.codeType === 'P');
    const dxHits = view.dx.flatMap((d) =>
      dxLists.flatMap((l) => {
        const m = l.members.get(d.norm);
        return m ? [{ d, only: m.sex ?? l.list.sex, m }] : [];
      }),
    );
    const procHits = pcsLines(view).flatMap((line) =>
      procLists.flatMap((l) => {
        const m = l.members.get(line.norm);
        return m ? [{ line, only: m.sex ?? l.list.sex, m }] : [];
      }),
    );
    if (dxHits.length + procHits.length === 0) {
      return;
    }
    const sex = view.sex;
    if (sex === undefined) {
      const codes = [...dxHits.map((h) => h.d.code), ...procHits.map((h) => h.line.line.procedureCode)];
      out.notChecked({
        lines: [],
        reason: `${codes.join(', ')} ${codes.length === 1 ? 'is' : 'are'} on MCE ${on.version} sex lists, and the claim gives no patient sex (M or F).`,
        missing: 'patient sex',
      });
      return;
    }
    for (const { d, only, m } of dxHits) {
      if (only !== null && only !== sex) {
        conflict(out, on, 'Diagnosis', d.code, described(d.code, m), only, linesOfDx(view, d.index), [d.index + 1]);
      }
    }
    for (const { line, only, m } of procHits) {
      if (only !== null && only !== sex) {
        const code = line.line.procedureCode;
        conflict(out, on, `Line ${String(line.line.lineNumber)}: procedure`, code, described(code, m), only, [
          line.line.lineNumber,
        ]);
      }
    }
  },
};
