// Rule 6, NCCI add-on code edits: an add-on code is paid only with a primary procedure on the same date of service.
// The AOC file lists, per add-on code, its primary codes and an edit type: 1 only the listed primaries; 2 no list,
// the contractor defines the primaries (`CCCCC`); 3 the listed primaries, to which the contractor may add. Without
// any listed primary on the date, an add-on whose edits are all type 1 is an error; one with a type 2 or 3 edit is a
// warning (a contractor-defined primary may be on the claim). A date no AOC release covers is `notChecked`.
//
// Cost: the add-on edits of each distinct code and date and the release of each date, remembered (ncci-edits.ts).
import type { AocRow } from '../../../reference/queries/edits.js';
import { isIcdCodedLine, type LineView } from '../context.js';
import type { FindingSink, Rule } from '../rule.js';
import { editReleaseOn, lineAddOnEditsOf } from './edit-answers.js';

const DATASET = 'ncci-aoc';
/** The primary code of a type 2 edit: the contractor defines the primaries. */
const CONTRACTOR_DEFINED = 'CCCCC';
/** Primary codes named in a fix, at most. */
const MAX_LISTED = 10;

/** Reports one add-on line whose listed primaries are all missing from its date. */
function reportMissingPrimary(out: FindingSink, l: LineView, edits: readonly AocRow[], othersOnDate: boolean): void {
  const listed = [...new Set(edits.filter((e) => e.primaryCode !== CONTRACTOR_DEFINED).map((e) => e.primaryCode))];
  const types = [...new Set(edits.map((e) => e.editType))].sort();
  const code = l.line.procedureCode;
  const source = { dataset: DATASET, release: (edits[0] as AocRow).release };
  const head = `Line ${String(l.line.lineNumber)}: ${code} is an add-on code (AOC edit type ${types.join('/')}, ${DATASET} ${source.release})`;
  const shown = `${listed.slice(0, MAX_LISTED).join(', ')}${listed.length > MAX_LISTED ? `, … (${String(listed.length)} in all)` : ''}`;
  if (types.every((t) => t === 1)) {
    out.report({
      code: 'AOC_NO_PRIMARY',
      lines: [l.line.lineNumber],
      codes: [code],
      source,
      message: `${head} reported without any of its primary codes on ${l.date}.`,
      fix: `Report its primary procedure (${shown}) on the same date, or remove ${code}.`,
    });
    return;
  }
  const contractor =
    listed.length === 0 ? 'the contractor defines its primary codes' : 'the contractor may accept other primaries';
  out.report({
    code: 'AOC_NO_LISTED_PRIMARY',
    lines: [l.line.lineNumber],
    codes: [code],
    source,
    message:
      listed.length === 0
        ? `${head} ${othersOnDate ? 'reported' : 'reported with no other procedure'} on ${l.date}: ${contractor}.`
        : `${head} reported without a listed primary code on ${l.date}; ${contractor}.`,
    fix:
      listed.length === 0
        ? `Check that the contractor accepts the date's other procedure as the primary of ${code}.`
        : `Report a listed primary (${shown}) on the same date, or check that the contractor accepts the one billed.`,
  });
}

/** Whether one of an add-on line's listed primaries (other than the add-on itself) is billed on its date. */
function hasPrimaryOnDate(edits: readonly AocRow[], addOn: LineView, lines: readonly LineView[]): boolean {
  for (const e of edits) {
    if (e.primaryCode === addOn.norm) {
      continue;
    }
    for (const l of lines) {
      if (l.date === addOn.date && l.norm === e.primaryCode) {
        return true;
      }
    }
  }
  return false;
}

/** Whether another code than a line's is billed on its date. */
function hasOtherCodeOnDate(line: LineView, lines: readonly LineView[]): boolean {
  for (const l of lines) {
    if (l.date === line.date && l.norm !== line.norm) {
      return true;
    }
  }
  return false;
}

export const ncciAddOn: Rule = {
  id: 'ncci.add-on',
  checks:
    'Every NCCI add-on code has one of its primary codes on the same date of service (type 1: listed primaries only; types 2 and 3: the contractor may define others).',
  datasets: [DATASET],
  codes: ['AOC_NO_PRIMARY', 'AOC_NO_LISTED_PRIMARY'],
  run(view, out) {
    // Lines on a date no AOC release covers, by date. The other lines' codes are scanned for primaries: a claim has a
    // few lines, and few are add-on codes.
    if (!view.ncciEdits) {
      return;
    }
    let noRelease: Map<string, number[]> | undefined;
    for (const l of view.lines) {
      if (isIcdCodedLine(l)) {
        continue;
      }
      if (editReleaseOn(view.ref.edits, DATASET, l.date) === undefined) {
        noRelease ??= new Map();
        const lines = noRelease.get(l.date);
        if (lines === undefined) {
          noRelease.set(l.date, [l.line.lineNumber]);
        } else {
          lines.push(l.line.lineNumber);
        }
        continue;
      }
      const edits = lineAddOnEditsOf(view.ref.edits, l);
      if (edits.length > 0 && !hasPrimaryOnDate(edits, l, view.lines)) {
        reportMissingPrimary(out, l, edits, hasOtherCodeOnDate(l, view.lines));
      }
    }
    for (const [date, lines] of noRelease ?? []) {
      out.notChecked({
        lines,
        reason: `No NCCI add-on code edits (${DATASET}) are loaded for ${date}: add-on codes were not checked.`,
        missing: `${DATASET} for ${date}`,
      });
    }
  },
};
