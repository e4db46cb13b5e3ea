// Rule 3a, Excludes1 (domain.md section 13; ICD-10-CM guideline I.A.12.a): two diagnoses of a claim that an
// Excludes1 note says are never coded together. A note on a category, section or chapter applies to every code under
// it; the codes a note names may be a code, a subtree (`K50.-`) or a range, and a range may name only some 7th
// characters (`S92.- with 7th character B`: open fractures; see IndexedNote.ranges). The notes are the Tabular XML's
// with the Tabular List addenda in force on the claim's date applied (TabularQueries.noteIndex). A warning by default,
// since the guideline allows both codes when the conditions are unrelated (option `excludes1Severity`). Each pair is
// reported once.
import { linesOfDx, type DxView } from '../context.js';
import type { Rule } from '../rule.js';
import { dxNotesOf, firstNaming, letterBit, noTabularOn, tabularOn } from './tabular-notes.js';

/** The diagnoses' letter bits of the claim being checked (reused claim after claim). */
let bits = new Int32Array(16);

export const dxExcludes1: Rule = {
  id: 'dx.excludes1',
  checks: 'No two diagnoses on the claim are excluded from each other by an Excludes1 note (own or inherited).',
  datasets: ['icd10cm-tabular', 'icd10cm-tabular-addenda'],
  codes: ['DX_EXCLUDES1'],
  run(view, out) {
    const dx = view.dx.filter((d) => d.detail.codeType === 'ICD-10 CM');
    if (dx.length < 2) {
      return;
    }
    if (!tabularOn(view.ref, view.dxDate)) {
      out.notChecked(noTabularOn(view.dxDate, 'Excludes1'));
      return;
    }
    // Each diagnosis's first-letter bit (as CodeNotes.letters has them): a code whose notes name no letter the
    // claim's other diagnoses start with, and no range across letters, names none of them.
    if (bits.length < dx.length) {
      bits = new Int32Array(dx.length * 2);
    }
    for (let i = 0; i < dx.length; i++) {
      bits[i] = letterBit((dx[i] as DxView).norm.charCodeAt(0));
    }
    // Pairs already reported (few: made on the first one).
    let reported: Set<number> | undefined;
    for (let i = 0; i < dx.length; i++) {
      const a = dx[i] as DxView;
      const own = dxNotesOf(view.ref, a, 'excludes1', view.dxDate);
      if (own === undefined) {
        out.notChecked({
          lines: [],
          reason: `No loaded ICD-10-CM Tabular List places ${a.code}: its Excludes1 notes are unknown.`,
          missing: 'icd10cm-tabular',
        });
        continue;
      }
      if (own.wide.length === 0) {
        let others = 0;
        for (let j = 0; j < dx.length; j++) {
          others |= j === i ? 0 : (bits[j] as number);
        }
        if ((own.letters & others) === 0) {
          continue;
        }
      }
      for (const b of dx) {
        if (b === a || b.norm === a.norm) {
          continue;
        }
        const named = firstNaming(own, b.norm);
        if (named === undefined) {
          continue;
        }
        const pair = a.index < b.index ? a.index * 64 + b.index : b.index * 64 + a.index;
        if (reported?.has(pair) === true) {
          continue;
        }
        const { note } = named;
        (reported ??= new Set()).add(pair);
        out.report({
          code: 'DX_EXCLUDES1',
          severity: view.options.excludes1Severity ?? 'warning',
          lines: linesOfDx(view, a.index, b.index),
          codes: [a.code, b.code],
          diagnoses: [a.index + 1, b.index + 1],
          source: { dataset: 'icd10cm-tabular', release: own.release },
          message: `${a.code} and ${b.code} are not coded together: the Excludes1 note at ${note.at} names "${note.text}" (Tabular List ${own.release}).`,
          fix: `Report only the condition the record supports; keep both only if the conditions are unrelated (guideline I.A.12.a) and the record says so.`,
        });
      }
    }
  },
};
