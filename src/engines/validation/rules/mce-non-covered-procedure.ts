// Rule 2, MCE edit 11 "Non-covered procedure", the active sections of the v43.1 definitions, each an ICD-10-PCS
// procedure list with its own condition (C and E are discontinued and not read):
//   11A  always non-covered;
//   11B  pancreas transplant (0FYG0Z0, 0FYG0Z1) without a kidney transplant (0TY00Z0-0TY10Z2), unless a principal or
//        secondary diagnosis is on the 11B diagnoses list (type 1 diabetes...);
//   11D  autologous bone marrow / stem cell transfusions when any diagnosis is on the 11D list (acute leukemias not
//        in remission...);
//   11F  lumbar disc replacement when the beneficiary is over 60 (the list's ages 61-124);
//   11G  sterilization procedures when Z30.2 (encounter for sterilization) is the principal or a secondary diagnosis.
// Inpatient claims only. 11F without a patient age is `notChecked` ('patient age').
import type { LineView } from '../context.js';
import type { Rule } from '../rule.js';
import { described, mceEditOn, mceListsOn, pcsLines, type MceListIndex } from './mce-version.js';

/** Whether any diagnosis of the claim is on a list. */
const anyDx = (dx: readonly { norm: string }[], list: MceListIndex): boolean =>
  dx.some((d) => list.members.has(d.norm));

/** The lines whose procedure code is on a list. */
const onList = (lines: readonly LineView[], list: MceListIndex): LineView[] =>
  lines.filter((l) => list.members.has(l.norm));

export const mceNonCoveredProcedure: Rule = {
  id: 'mce.non-covered-procedure',
  checks:
    'No ICD-10-PCS procedure of an inpatient claim is one Medicare does not cover, always or in the circumstances the claim shows (MCE lists 11A, 11B, 11D, 11F, 11G).',
  datasets: ['mce', 'mce-v37-derived'],
  codes: ['MCE_NON_COVERED'],
  run(view, out) {
    const procedures = view.inpatient ? pcsLines(view) : [];
    if (procedures.length === 0) {
      return;
    }
    const on = mceEditOn(view, 'non-covered-procedure', out);
    if (!on) {
      return;
    }
    const report = (l: LineView, list: MceListIndex, why: string, fix: string): void => {
      const code = l.line.procedureCode;
      out.report({
        code: 'MCE_NON_COVERED',
        lines: [l.line.lineNumber],
        codes: [code],
        source: on.source,
        message: `Line ${String(l.line.lineNumber)}: procedure ${described(code, list.members.get(l.norm))} is not covered by Medicare ${why} (MCE edit ${list.list.section}).`,
        fix,
      });
    };

    // A section whose procedures are non-covered when any diagnosis of its list is on the claim (principal or
    // secondary).
    const withListedDx = (procList: string, dxList: string, why: (codes: string) => string, fix: string): void => {
      const [procs, diagnoses] = mceListsOn(on, [procList, dxList], out) ?? [];
      if (!procs || !diagnoses) {
        return;
      }
      const listed = view.dx.filter((x) => diagnoses.members.has(x.norm)).map((x) => x.code);
      for (const l of listed.length > 0 ? onList(procedures, procs) : []) {
        report(l, procs, why(listed.join(', ')), fix);
      }
    };

    // 11A: always.
    const [a] = mceListsOn(on, ['non-covered-a'], out) ?? [];
    for (const l of a ? onList(procedures, a) : []) {
      report(
        l,
        a as MceListIndex,
        'in any circumstance',
        'Remove the procedure from the Medicare claim or bill it as non-covered.',
      );
    }

    // 11B: pancreas transplant alone, without a listed diagnosis.
    const b = mceListsOn(
      on,
      ['non-covered-b-pancreas-procedures', 'non-covered-b-kidney-procedures', 'non-covered-b-diagnoses'],
      out,
    );
    if (b) {
      const [pancreas, kidney, diagnoses] = b as [MceListIndex, MceListIndex, MceListIndex];
      if (onList(procedures, kidney).length === 0 && !anyDx(view.dx, diagnoses)) {
        for (const l of onList(procedures, pancreas)) {
          report(
            l,
            pancreas,
            'as a pancreas transplant alone, without a kidney transplant or a diagnosis of the 11B list',
            'Report the diagnosis that supports the transplant (type 1 diabetes and the others of MCE list 11B), or the kidney transplant done with it.',
          );
        }
      }
    }

    // 11D: with a listed diagnosis.
    withListedDx(
      'non-covered-d-procedures',
      'non-covered-d-diagnoses',
      (codes) => `with diagnosis ${codes}`,
      'Check the diagnosis and the procedure code; Medicare does not pay this procedure for these conditions.',
    );

    // 11F: over age 60.
    const [f] = mceListsOn(on, ['non-covered-f'], out) ?? [];
    const fLines = f ? onList(procedures, f) : [];
    if (f && fLines.length > 0) {
      const date = view.claim.dateOfServiceFrom;
      const age = view.ageOn(date);
      const low = f.list.ageMin ?? 61;
      const high = f.list.ageMax ?? 124;
      if (age === undefined) {
        out.notChecked({
          lines: fLines.map((l) => l.line.lineNumber),
          reason: `${fLines.map((l) => l.line.procedureCode).join(', ')} is not covered for a beneficiary over 60 (MCE 11F), and the claim gives no patient age or birth date.`,
          missing: 'patient age',
        });
      } else if (age >= low && age <= high) {
        for (const l of fLines) {
          report(
            l,
            f,
            `for a beneficiary over 60 (the patient is ${String(age)})`,
            "Check the patient's age and the procedure code.",
          );
        }
      }
    }

    // 11G: with Z30.2 as principal or secondary diagnosis.
    withListedDx(
      'non-covered-g',
      'non-covered-g-diagnoses',
      (codes) => `when the encounter is for sterilization (${codes})`,
      'Remove the sterilization from the Medicare claim or bill it as non-covered.',
    );
  },
};
