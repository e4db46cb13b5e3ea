// Rule 4, NCCI procedure-to-procedure edits (domain.md section 9): two lines of the claim on the same date of
// service whose codes form a column 1 / column 2 pair of the setting's table (practitioner; outpatient hospital for
// hospital claims) in force on the date. DME supplier claims are not subject to PTP edits (domain.md section 9 names
// the practitioner and outpatient hospital tables only; NCCI edits DME suppliers by MUE alone): no check, and nothing
// listed as not checked.
// Modifier indicator 0: the column 2 line is denied, whatever the modifiers. 1: denied unless an NCCI-associated
// modifier shows a distinct service, then reported as resolved (info). 9: no edit. A date without a loaded table is
// `notChecked`, never a pass.
//
// Cost: one pair lookup per ordered pair of distinct codes of a date, remembered (ncci-edits.ts). Not one
// `ptpForColumn1` per code with the pairs matched in memory: with official-size tables a column 1 code has a few
// hundred column 2 rows, and reading them costs ~600 us a code (measured on a synthetic 2.1M-row table) against
// ~4 us a pair lookup, so pairs win for any claim of fewer than ~150 distinct codes on a date.
import type { PtpRow } from '../../../reference/queries/edits.js';
import { PtpSetting } from '../../../schemas/edits.js';
import { isIcdCodedLine, type LineView, type NcciSetting } from '../context.js';
import type { FindingSink, Rule } from '../rule.js';
import { editReleaseOn, ptpPairOf } from './edit-answers.js';

const PTP_SETTING: Readonly<Record<NcciSetting, PtpSetting | undefined>> = {
  practitioner: PtpSetting.practitioner,
  hospital: PtpSetting.hospital,
  dme: undefined,
};

// NCCI Policy Manual for Medicare Services, Chapter I, section E ("Modifiers and Modifier Indicators"): the
// NCCI-associated modifiers that may bypass an edit of indicator 1, appended to either code of the pair.
/** Anatomic modifiers: they show a distinct site only when the two lines do not name the same one. */
const ANATOMIC = new Set([
  ...['E1', 'E2', 'E3', 'E4', 'FA', 'TA', 'LT', 'RT', 'LC', 'LD', 'RC', 'LM', 'RI'],
  ...['1', '2', '3', '4', '5', '6', '7', '8', '9'].flatMap((d) => [`F${d}`, `T${d}`]),
]);
/** Distinct procedural service (59 and its X{EPSU} subsets): never on an E&M service (Chapter I, E.1: use 25). */
const DISTINCT = new Set(['59', 'XE', 'XP', 'XS', 'XU']);
/** Global surgery modifiers of an E&M service: 24, 25 (significant, separately identifiable E&M), 57. */
const EM_ONLY = new Set(['24', '25', '57']);
/** Global surgery 58, 78, 79 and the repeat clinical laboratory test 91: on any line. */
const ANY_LINE = new Set(['58', '78', '79', '91']);
/** Modifier 27, multiple outpatient hospital E&M encounters on one date: hospital claims only. */
const HOSPITAL_ONLY = new Set(['27']);

/** E&M services: CPT 99202-99499 and the eye examinations 92002-92014 that modifier 25 also applies to. */
const isEm = (code: string): boolean => /^99[2-4]\d\d$/.test(code) || /^9200[24]$|^9201[24]$/.test(code);

/** The modifiers of a pair's lines that bypass an indicator-1 edit, in the order found. */
function bypassModifiers(a: LineView, b: LineView, hospital: boolean): string[] {
  const found: string[] = [];
  const anatomicA = a.line.modifiers.filter((m) => ANATOMIC.has(m));
  const anatomicB = b.line.modifiers.filter((m) => ANATOMIC.has(m));
  const sameSite =
    anatomicA.length === anatomicB.length && anatomicA.every((m) => anatomicB.includes(m)) && anatomicA.length > 0;
  for (const l of [a, b]) {
    const em = isEm(l.norm);
    for (const m of l.line.modifiers) {
      const bypasses =
        ANY_LINE.has(m) ||
        (DISTINCT.has(m) && !em) ||
        (EM_ONLY.has(m) && em) ||
        (HOSPITAL_ONLY.has(m) && hospital && em) ||
        (ANATOMIC.has(m) && !sameSite);
      if (bypasses && !found.includes(m)) {
        found.push(m);
      }
    }
  }
  return found;
}

/**
 * Reports one edit against one column 2 line (the line that would be denied); `col1s` are the lines of the column 1
 * code on the date (the first that, with the column 2 line, carries a bypass modifier resolves an indicator-1 edit).
 */
function reportEdit(out: FindingSink, edit: PtpRow, col1s: readonly LineView[], col2: LineView, dataset: string): void {
  const hospital = edit.setting === PtpSetting.hospital;
  let col1 = col1s[0] as LineView;
  let bypass: string[] = [];
  if (edit.modifierIndicator === 1) {
    for (const l of col1s) {
      bypass = bypassModifiers(l, col2, hospital);
      if (bypass.length > 0) {
        col1 = l;
        break;
      }
    }
  }
  const source = { dataset, release: edit.release };
  const c1 = col1.line.procedureCode;
  const c2 = col2.line.procedureCode;
  const lines = [col2.line.lineNumber];
  const pair = `Line ${String(col2.line.lineNumber)}: ${c2} is a column 2 code of ${c1} (line ${String(col1.line.lineNumber)}) in ${dataset} ${edit.release}, modifier indicator ${String(edit.modifierIndicator)}`;
  const why = edit.rationale === null ? '' : ` (${edit.rationale})`;
  if (edit.modifierIndicator === 0) {
    out.report({
      code: 'PTP_CONFLICT',
      lines,
      codes: [c2, c1],
      source,
      message: `${pair}: ${c2} is not paid with ${c1} on the same date, whatever the modifiers${why}.`,
      fix: `Remove ${c2}: no modifier bypasses this edit.`,
    });
  } else if (bypass.length > 0) {
    out.report({
      code: 'PTP_BYPASSED',
      lines,
      codes: [c2, c1],
      source,
      message: `${pair}: resolved by modifier ${bypass.join(', ')}.`,
      fix: 'Keep the documentation that shows the services were distinct.',
    });
  } else {
    out.report({
      code: 'PTP_CONFLICT',
      lines,
      codes: [c2, c1],
      source,
      message: `${pair}: ${c2} is denied as submitted${why}.`,
      fix: isEm(col2.norm)
        ? `Add modifier 25 to ${c2} if it was a significant, separately identifiable E&M service.`
        : `Add modifier 59 or XU (or XE, XP, XS, an anatomic modifier) to ${c2} if the services were distinct.`,
    });
  }
}

export const ncciPtp: Rule = {
  id: 'ncci.ptp',
  checks:
    'Pairs of lines on the same date of service that an NCCI procedure-to-procedure edit of the setting (practitioner or outpatient hospital; not DME supplier claims) does not pay together, unless a modifier the edit allows bypasses it.',
  datasets: ['ncci-ptp-practitioner', 'ncci-ptp-hospital'],
  codes: ['PTP_CONFLICT', 'PTP_BYPASSED'],
  run(view, out) {
    if (!view.ncciEdits || view.lines.length < 2) {
      return;
    }
    const setting = PTP_SETTING[view.setting];
    if (setting === undefined) {
      return;
    }
    const dataset = `ncci-ptp-${setting}`;
    // Step 1: the lines of each date, by code.
    const byDate = new Map<string, Map<string, LineView[]>>();
    for (const l of view.lines) {
      if (isIcdCodedLine(l)) {
        continue;
      }
      let codes = byDate.get(l.date);
      if (codes === undefined) {
        codes = new Map();
        byDate.set(l.date, codes);
      }
      const same = codes.get(l.norm);
      if (same) {
        same.push(l);
      } else {
        codes.set(l.norm, [l]);
      }
    }
    // Step 2: per date with two codes or more, each pair of distinct codes in both orders.
    for (const [date, codes] of byDate) {
      if (codes.size < 2) {
        continue;
      }
      if (editReleaseOn(view.ref.edits, dataset, date) === undefined) {
        out.notChecked({
          lines: [...codes.values()].flat().map((l) => l.line.lineNumber),
          reason: `No NCCI PTP table (${dataset}) is loaded for ${date}: pairs of lines on that date were not checked.`,
          missing: `${dataset} for ${date}`,
        });
        continue;
      }
      const distinct = [...codes.keys()];
      distinct.forEach((a, i) => {
        for (const b of distinct.slice(i + 1)) {
          for (const [code1, code2] of [
            [a, b],
            [b, a],
          ] as const) {
            const edit = ptpPairOf(view.ref.edits, code1, code2, date, setting);
            if (edit === undefined || edit.modifierIndicator === 9) {
              continue;
            }
            for (const col2 of codes.get(code2) as LineView[]) {
              reportEdit(out, edit, codes.get(code1) as LineView[], col2, dataset);
            }
          }
        }
      });
    }
  },
};
