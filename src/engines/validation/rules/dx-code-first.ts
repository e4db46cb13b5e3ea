// Rule 3b, code first (domain.md section 13): a manifestation code must be reported with, and after, a code of the
// etiology its "code first" note names. Manifestation codes are those of the MCE manifestation list in force (F02.80
// "Dementia in other diseases classified elsewhere", D63.1 "Anemia in chronic kidney disease") and any title "in
// diseases classified elsewhere" (the list's own definition, for dates no loaded MCE version covers). Warning when none of the note's codes
// is on the claim, or when the etiology is sequenced after the manifestation. Notes that name no code range ("code
// first underlying disease") cannot be checked from codes and are left alone. Notes that list examples ("such as")
// are read as their list: an etiology outside it gets the warning, which a coder can dismiss with the record.
import { FactMemo } from '../code-facts.js';
import { linesOfDx, type ClaimView, type DxView } from '../context.js';
import type { FindingSink, Rule } from '../rule.js';
import { mceMemberOn } from './mce-version.js';
import { coveringRange, dxNotesOf, noTabularOn, tabularOn } from './tabular-notes.js';

const MANIFESTATION = /in diseases classified elsewhere/i;
const MANIFESTATIONS = new FactMemo<boolean>();

/** An ICD-10-CM manifestation code, read once per code and date (the MCE version follows the date). */
function isManifestation(view: ClaimView, d: DxView): boolean {
  return (
    MANIFESTATIONS.of(d.facts) ??
    MANIFESTATIONS.keep(
      d.facts,
      d.detail.codeType === 'ICD-10 CM' &&
        (MANIFESTATION.test(d.detail.longDescription ?? '') ||
          mceMemberOn(view, 'manifestation-as-principal-dx', d.norm) !== undefined),
    )
  );
}

export const dxCodeFirst: Rule = {
  id: 'dx.code-first',
  checks: 'A manifestation code is reported with, and after, a code of the etiology its "code first" note names.',
  datasets: ['icd10cm-tabular', 'icd10cm-order', 'mce'],
  codes: ['DX_CODE_FIRST'],
  run(view, out) {
    for (const m of view.dx) {
      if (isManifestation(view, m)) {
        checkManifestation(view, m, out);
      }
    }
  },
};

/** A manifestation code against its "code first" notes (a function of its own: see `linesOfDx`). */
function checkManifestation(view: ClaimView, m: DxView, out: FindingSink): void {
  const found = dxNotesOf(view.ref, m, 'codeFirst', view.dxDate);
  if (found === undefined && !tabularOn(view.ref, view.dxDate)) {
    out.notChecked(noTabularOn(view.dxDate, 'code-first'));
    return;
  }
  const notes = found?.notes.filter((n) => n.ranges.length > 0) ?? [];
  if (found === undefined || notes.length === 0) {
    return;
  }
  const etiology = view.dx.find((d) => d !== m && notes.some((n) => coveringRange(n, d.norm) !== undefined));
  const lines = linesOfDx(view, m.index);
  const named = notes.map((n) => `"${n.text}" (at ${n.at})`).join('; ');
  if (etiology === undefined) {
    out.report({
      code: 'DX_CODE_FIRST',
      lines,
      codes: [m.code],
      diagnoses: [m.index + 1],
      source: { dataset: 'icd10cm-tabular', release: found.release },
      message: `${m.code} is a manifestation code reported without any etiology its note lists: code first ${named} (${found.release} Tabular List).`,
      fix: 'Report the underlying condition first, then the manifestation code.',
    });
  } else if (etiology.index > m.index) {
    out.report({
      code: 'DX_CODE_FIRST',
      lines,
      codes: [m.code, etiology.code],
      diagnoses: [m.index + 1, etiology.index + 1],
      source: { dataset: 'icd10cm-tabular', release: found.release },
      message: `${m.code} is a manifestation code sequenced before its etiology ${etiology.code}.`,
      fix: `Sequence ${etiology.code} before ${m.code}.`,
    });
  }
}
