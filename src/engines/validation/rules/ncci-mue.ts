// Rule 5, Medically Unlikely Edits (domain.md section 10): the units of a code against the MUE value of the
// claim's setting table (practitioner, outpatient hospital, DME supplier) in force on the date of service. The MUE
// adjudication indicator (MAI) says what is counted: 1 each line alone; 2 the units summed per code and date across
// the claim (policy: not payable above it even on appeal); 3 the same sum, payable on appeal with documentation.
// A code with no row while the table is loaded is `notChecked` (some MUE values are confidential and unpublished),
// and so is a date no table covers: never a pass. Cross-claim sums for MAI 2/3 are the batch scrubber's job.
import type { MueRow } from '../../../reference/queries/edits.js';
import { MUE_DATASET, MueSetting } from '../../../schemas/edits.js';
import type { FindingSource } from '../../../schemas/findings.js';
import { isIcdCodedLine, type LineView, type NcciSetting } from '../context.js';
import type { FindingSink, Rule } from '../rule.js';
import { editReleaseOn, lineMueOf, maiTextOf } from './edit-answers.js';

/** The `mue.setting` of a claim's NCCI setting. */
export const MUE_SETTING: Readonly<Record<NcciSetting, MueSetting>> = {
  practitioner: MueSetting.practitioner,
  hospital: MueSetting.outpatientHospital,
  dme: MueSetting.dme,
};

/**
 * Units summed as the claim writes them (decimals): binary floating point makes 0.1 + 2.7 + 0.2 a little over 3, which
 * must not exceed an MUE of 3. Rounded to nine decimals, far below any unit a claim reports.
 */
function addUnits(a: number, b: number): number {
  return Math.round((a + b) * 1e9) / 1e9;
}

/** One code on one date: its lines and units. */
interface CodeOnDate {
  readonly date: string;
  readonly code: string;
  readonly lines: LineView[];
  units: number;
}

/** Claims of more lines group them through a map. */
const MAX_SCANNED_LINES = 32;

const plural = (n: number, word: string): string => `${String(n)} ${word}${n === 1 ? '' : 's'}`;
/** "1 unit … exceeds", "2 units … exceed". */
const exceed = (n: number): string => (n === 1 ? 'exceeds' : 'exceed');

/** The group of a line's code and date among those so far. */
function groupOf(groups: readonly CodeOnDate[], l: LineView): CodeOnDate | undefined {
  for (const g of groups) {
    if (g.code === l.norm && g.date === l.date) {
      return g;
    }
  }
  return undefined;
}

export const ncciMue: Rule = {
  id: 'ncci.mue',
  checks:
    "Units of each procedure code within the MUE value of the claim's setting table: per line (MAI 1) or summed per code and date of service (MAI 2 policy, MAI 3 clinical).",
  datasets: ['mue-practitioner', 'mue-outpatient-hospital', 'mue-dme'],
  codes: ['MUE_EXCEEDED', 'MUE_EXCEEDED_CLINICAL'],
  run(view, out) {
    if (!view.ncciEdits || view.lines.length === 0) {
      return;
    }
    const setting = MUE_SETTING[view.setting];
    const dataset = MUE_DATASET[setting];
    // Step 1: group the lines by date and code, summing units (one MUE lookup per group). A claim has a few lines: a
    // scan of the groups so far costs less than a map keyed by a string built per line (kept for long claims).
    const groups: CodeOnDate[] = [];
    const index = view.lines.length > MAX_SCANNED_LINES ? new Map<string, CodeOnDate>() : undefined;
    for (const l of view.lines) {
      // MUEs are HCPCS/CPT units: an ICD-coded line has none.
      if (isIcdCodedLine(l)) {
        continue;
      }
      const key = index === undefined ? '' : `${l.date}|${l.norm}`;
      const group = index === undefined ? groupOf(groups, l) : index.get(key);
      if (group) {
        group.lines.push(l);
        group.units = addUnits(group.units, l.line.units);
      } else {
        const created = { date: l.date, code: l.norm, lines: [l], units: l.line.units };
        groups.push(created);
        index?.set(key, created);
      }
    }
    // Step 2: each group against its MUE row. Without one, `releaseOn` tells a code with no (published) MUE from a
    // date no table covers; the latter is one entry per date.
    // Made on the first code without a row.
    let noTable: Map<string, number[]> | undefined;
    for (const g of groups) {
      const mue = lineMueOf(view.ref.edits, g.lines[0] as LineView, setting);
      if (mue === undefined) {
        const release = editReleaseOn(view.ref.edits, dataset, g.date)?.release;
        if (release === undefined) {
          noTable ??= new Map();
          const lines = noTable.get(g.date) ?? [];
          lines.push(...g.lines.map((l) => l.line.lineNumber));
          noTable.set(g.date, lines);
        } else {
          reportNoRow(g, dataset, release, out);
        }
        continue;
      }
      // The row's texts only for a finding (most groups are within their MUE).
      if (mue.mai === 1) {
        for (const l of g.lines) {
          if (l.line.units > mue.value) {
            const { source, described } = textsOf(mue, dataset);
            out.report({
              code: 'MUE_EXCEEDED',
              lines: [l.line.lineNumber],
              codes: [l.line.procedureCode],
              source,
              message: `Line ${String(l.line.lineNumber)}: ${plural(l.line.units, 'unit')} of ${l.line.procedureCode} ${exceed(l.line.units)} the MUE of ${String(mue.value)} per line (${described}).`,
              fix: `Report at most ${String(mue.value)} on the line; units above it that were separately performed go on another line with modifier 59, 76, 77 or an anatomic modifier.`,
            });
          }
        }
      } else if (g.units > mue.value) {
        const { source, described } = textsOf(mue, dataset);
        const clinical = mue.mai === 3;
        const lineNumbers = g.lines.map((l) => l.line.lineNumber);
        const where =
          lineNumbers.length === 1 ? `Line ${String(lineNumbers[0])}` : `Lines ${lineNumbers.join(', ')} (summed)`;
        out.report({
          code: clinical ? 'MUE_EXCEEDED_CLINICAL' : 'MUE_EXCEEDED',
          lines: lineNumbers,
          codes: [g.lines[0]?.line.procedureCode ?? g.code],
          source,
          message: `${where}: ${plural(g.units, 'unit')} of ${g.code} on ${g.date} ${exceed(g.units)} the MUE of ${String(mue.value)} per date of service (${described}).`,
          fix: clinical
            ? `Report at most ${String(mue.value)} units for the date; units above it are denied but may be paid on appeal with documentation of medical necessity.`
            : `Report at most ${String(mue.value)} units for the date: units above a policy MUE are not payable, even on appeal.`,
        });
      }
    }
    for (const [date, lines] of noTable ?? []) {
      out.notChecked({
        lines: lines.sort((a, b) => a - b),
        reason: `No MUE table (${dataset}) is loaded for ${date}: units were not checked.`,
        missing: `${dataset} for ${date}`,
      });
    }
  },
};

/** A row's finding source and its description, made once per row (a night's claims meet the same rows). */
const rowTexts = new WeakMap<MueRow, { readonly source: FindingSource; readonly described: string }>();

/** The source and "MAI 2 Date of Service Edit: Policy, mue-practitioner 2026Q2" of a row of `dataset`. */
function textsOf(mue: MueRow, dataset: string): { readonly source: FindingSource; readonly described: string } {
  let texts = rowTexts.get(mue);
  if (texts === undefined) {
    const text = maiTextOf(mue);
    texts = {
      source: Object.freeze({ dataset, release: mue.release }),
      described: `MAI ${String(mue.mai)}${text === '' ? '' : ` ${text}`}, ${dataset} ${mue.release}`,
    };
    rowTexts.set(mue, texts);
  }
  return texts;
}

/** A code without an MUE row in a loaded table: unpublished (confidential) or none, so not checked. */
function reportNoRow(g: CodeOnDate, dataset: string, release: string, out: FindingSink): void {
  // A code the code set does not know has no MUE either; code.validity reports the code itself.
  const detail = g.lines[0]?.detail;
  if (detail !== undefined && !detail.isValid && detail.noData !== true) {
    return;
  }
  out.notChecked({
    lines: g.lines.map((l) => l.line.lineNumber),
    reason: `${g.code} has no row in ${dataset} ${release}: its MUE is unpublished or there is none.`,
    missing: `MUE value (unpublished or none) of ${g.code} in ${dataset} ${release}`,
  });
}
