// The edit-table answers the rules ask claim after claim (the release in force on a date, a code's MUE row, an add-on
// code's edits, a PTP pair, the lab NCDs of a procedure and how an NCD reads a diagnosis, a ZIP's locality). The
// release lookups and PTP pairs are remembered here per reference connection (the database is read-only, and each
// SQL lookup costs 1.3-9 us; the release lookup scans the `source` table), bounded by AnswerMemory. PTP answers are
// kept per ordered code pair (most are "no edit"), not per column 1 code: with the official tables a column 1 code
// has a few hundred column 2 rows, too many to read or keep. MUE rows, add-on edits, lab NCDs and ZIP localities are
// kept by the port itself, per period between the dates its rows change (src/reference/queries/periods.ts), and per
// line on the code facts below.
import { keyJoiner, memoryPerOwner } from '../../answer-memory.js';
import type {
  AocRow,
  EditRelease,
  LabNcdForCode,
  MueRow,
  NcdIcd10Resolution,
  PtpRow,
  ZipLocality,
} from '../../../reference/queries/edits.js';
import { MueSetting, type PtpSetting } from '../../../schemas/edits.js';
import { FactMemo } from '../code-facts.js';
import type { LineView, ValidationReference } from '../context.js';

type Edits = ValidationReference['edits'];

/** Releases: datasets × dates; PTP pairs: code pairs × dates × settings. */
const MAX_RELEASES = 4_096;
const MAX_CODE_ANSWERS = 50_000;
const NO_EDITS: readonly AocRow[] = Object.freeze([]);
const NO_NCDS: readonly LabNcdForCode[] = Object.freeze([]);

const ptpKey = keyJoiner();

/**
 * One memory per kind of answer and connection. The hot lookups below probe a memory inline (as
 * `AnswerMemory.recall` does) rather than through `recall`: a closure per ask, claim line after claim line, showed.
 */
const releases = memoryPerOwner<EditRelease | null>(MAX_RELEASES);
const ptpPairs = memoryPerOwner<PtpRow | null>(MAX_CODE_ANSWERS);

/**
 * The release of an edit dataset in force on a date (`edits.releaseOn`, remembered).
 * @param edits - the reference's edit lookups
 * @param dataset - e.g. `mue-practitioner`, `ncci-ptp-hospital`, `ncci-aoc`
 * @param date - ISO date of service
 * @returns `undefined` when no release of the dataset covers the date
 */
export function editReleaseOn(edits: Edits, dataset: string, date: string): EditRelease | undefined {
  const memory = releases(edits);
  const answers = memory.answersFor(dataset);
  let answer = answers.get(date);
  if (answer === undefined) {
    answer = edits.releaseOn(dataset, date) ?? null;
    memory.add(answers, date, answer);
  }
  return answer ?? undefined;
}

/**
 * The MUE row of an undotted, upper-case code (`edits.mue`: the port keeps each answer per period of the table).
 * @returns `undefined` when the table in force has no row, or no table is loaded (tell them apart with
 *   {@link editReleaseOn})
 */
export function mueOf(edits: Edits, code: string, date: string, setting: MueSetting): MueRow | undefined {
  return edits.mue(code, date, setting);
}

/** An MUE row's adjudication indicator text without its leading digit: "Date of Service Edit: Policy". */
export function maiTextOf(mue: MueRow): string {
  return mue.maiText.replace(/^\d\s*/, '');
}

/**
 * The add-on edits of an undotted, upper-case code in force on a date (`edits.aocForAddOn`: the port keeps each
 * answer per period of the table): empty for a code that is not an add-on code. The array is shared: do not change
 * it.
 */
export function addOnEditsOf(edits: Edits, code: string, date: string): readonly AocRow[] {
  const rows = edits.aocForAddOn(code, date);
  return rows.length === 0 ? NO_EDITS : rows;
}

/**
 * The PTP edit of an ordered pair of undotted, upper-case codes in force on a date (`edits.ptpPair`, remembered).
 * @returns `undefined` when the table in force has no such edit, or no table is loaded (see {@link editReleaseOn})
 */
export function ptpPairOf(
  edits: Edits,
  column1: string,
  column2: string,
  date: string,
  setting: PtpSetting,
): PtpRow | undefined {
  const pair = `${column1}|${column2}`;
  return (
    ptpPairs(edits).recall(ptpKey(setting, date), pair, () => edits.ptpPair(column1, column2, date, setting) ?? null) ??
    undefined
  );
}

/**
 * The lab NCDs whose HCPCS list holds an undotted, upper-case code on a date (`edits.labNcdsForHcpcs`: the port keeps
 * each answer per period of the table). The array is shared: do not change it.
 */
export function labNcdsOf(edits: Edits, code: string, date: string): readonly LabNcdForCode[] {
  const rows = edits.labNcdsForHcpcs(code, date);
  return rows.length === 0 ? NO_NCDS : rows;
}

/**
 * How a lab NCD reads an undotted, upper-case ICD-10-CM code on a date (`edits.ncdIcd10Resolution`: the port keeps
 * each NCD's list in memory, so nothing is remembered here).
 */
export function ncdResolutionOf(edits: Edits, ncd: string, code: string, date: string): NcdIcd10Resolution | undefined {
  return edits.ncdIcd10Resolution(ncd, code, date);
}

/** The carrier locality of a ZIP on a date (`edits.zipLocality`: the port keeps each answer per period of the table). */
export function zipLocalityOf(edits: Edits, zip: string, date: string): ZipLocality | undefined {
  return edits.zipLocality(zip, date);
}

// The same lookups for a claim's line, memoised on the line's code facts (one read per code, date and setting).
const MUES: Readonly<Record<MueSetting, FactMemo<MueRow | null>>> = {
  [MueSetting.practitioner]: new FactMemo(),
  [MueSetting.outpatientHospital]: new FactMemo(),
  [MueSetting.dme]: new FactMemo(),
};
const ADD_ON_EDITS = new FactMemo<readonly AocRow[]>();
const LAB_NCDS = new FactMemo<readonly LabNcdForCode[]>();

/** {@link mueOf} a line's code on its date. */
export function lineMueOf(edits: Edits, l: LineView, setting: MueSetting): MueRow | undefined {
  const memo = MUES[setting];
  const known = memo.of(l.facts);
  return (known !== undefined ? known : memo.keep(l.facts, mueOf(edits, l.norm, l.date, setting) ?? null)) ?? undefined;
}

/** {@link addOnEditsOf} a line's code on its date. */
export function lineAddOnEditsOf(edits: Edits, l: LineView): readonly AocRow[] {
  return ADD_ON_EDITS.of(l.facts) ?? ADD_ON_EDITS.keep(l.facts, addOnEditsOf(edits, l.norm, l.date));
}

/** {@link labNcdsOf} a line's code on its date. */
export function lineLabNcdsOf(edits: Edits, l: LineView): readonly LabNcdForCode[] {
  return LAB_NCDS.of(l.facts) ?? LAB_NCDS.keep(l.facts, labNcdsOf(edits, l.norm, l.date));
}
