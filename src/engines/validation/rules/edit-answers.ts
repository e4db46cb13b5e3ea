// The edit-table answers the rules ask claim after claim (the release in force on a date, a code's MUE row, an add-on
// code's edits, a PTP pair, the lab NCDs of a procedure and how an NCD reads a diagnosis, a ZIP's locality),
// remembered per reference connection: the database is read-only and a night's claims repeat a few dates and a few
// thousand codes, while each SQL lookup costs 1.3-9 us (the release lookup scans the `source` table). Bounded by
// AnswerMemory. PTP answers are kept per ordered code pair (most are "no edit"), not per column 1
// code: with the official tables a column 1 code has a few hundred column 2 rows, too many to read or keep.
import { AnswerMemory } from '../../answer-memory.js';
import type {
  AocRow,
  EditRelease,
  LabNcdForCode,
  MueRow,
  NcdIcd10Resolution,
  PtpRow,
  ZipLocality,
} from '../../../reference/queries/edits.js';
import type { MueSetting, PtpSetting } from '../../../schemas/edits.js';
import type { ValidationReference } from '../context.js';

type Edits = ValidationReference['edits'];

/** Releases: datasets × dates; MUE rows, add-on edits and PTP pairs: codes (pairs) × dates × settings. */
const MAX_RELEASES = 4_096;
const MAX_CODE_ANSWERS = 50_000;
const NO_EDITS: readonly AocRow[] = Object.freeze([]);
const NO_NCDS: readonly LabNcdForCode[] = Object.freeze([]);

interface Memories {
  readonly releases: AnswerMemory<EditRelease | null>;
  readonly mue: AnswerMemory<MueRow | null>;
  readonly aoc: AnswerMemory<readonly AocRow[]>;
  readonly ptp: AnswerMemory<PtpRow | null>;
  readonly ncds: AnswerMemory<readonly LabNcdForCode[]>;
  readonly ncdResolutions: AnswerMemory<NcdIcd10Resolution | null>;
  readonly zips: AnswerMemory<ZipLocality | null>;
}
const remembered = new WeakMap<Edits, Memories>();

function memoriesOf(edits: Edits): Memories {
  let m = remembered.get(edits);
  if (m === undefined) {
    m = {
      releases: new AnswerMemory(MAX_RELEASES),
      mue: new AnswerMemory(MAX_CODE_ANSWERS),
      aoc: new AnswerMemory(MAX_CODE_ANSWERS),
      ptp: new AnswerMemory(MAX_CODE_ANSWERS),
      ncds: new AnswerMemory(MAX_CODE_ANSWERS),
      ncdResolutions: new AnswerMemory(MAX_CODE_ANSWERS),
      zips: new AnswerMemory(MAX_CODE_ANSWERS),
    };
    remembered.set(edits, m);
  }
  return m;
}

/**
 * The release of an edit dataset in force on a date (`edits.releaseOn`, remembered).
 * @param edits - the reference's edit lookups
 * @param dataset - e.g. `mue-practitioner`, `ncci-ptp-hospital`, `ncci-aoc`
 * @param date - ISO date of service
 * @returns `undefined` when no release of the dataset covers the date
 */
export function editReleaseOn(edits: Edits, dataset: string, date: string): EditRelease | undefined {
  const memory = memoriesOf(edits).releases;
  const answers = memory.answersFor(dataset);
  let answer = answers.get(date);
  if (answer === undefined) {
    answer = edits.releaseOn(dataset, date) ?? null;
    memory.add(answers, date, answer);
  }
  return answer ?? undefined;
}

/**
 * The MUE row of an undotted, upper-case code (`edits.mue`, remembered).
 * @returns `undefined` when the table in force has no row, or no table is loaded (tell them apart with
 *   {@link editReleaseOn})
 */
export function mueOf(edits: Edits, code: string, date: string, setting: MueSetting): MueRow | undefined {
  const memory = memoriesOf(edits).mue;
  const answers = memory.answersFor(`${setting}|${date}`);
  let answer = answers.get(code);
  if (answer === undefined) {
    answer = edits.mue(code, date, setting) ?? null;
    memory.add(answers, code, answer);
  }
  return answer ?? undefined;
}

/**
 * The add-on edits of an undotted, upper-case code in force on a date (`edits.aocForAddOn`, remembered): empty for
 * a code that is not an add-on code. The array is shared: do not change it.
 */
export function addOnEditsOf(edits: Edits, code: string, date: string): readonly AocRow[] {
  const memory = memoriesOf(edits).aoc;
  const answers = memory.answersFor(date);
  let answer = answers.get(code);
  if (answer === undefined) {
    const rows = edits.aocForAddOn(code, date);
    answer = rows.length === 0 ? NO_EDITS : rows;
    memory.add(answers, code, answer);
  }
  return answer;
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
  const memory = memoriesOf(edits).ptp;
  const answers = memory.answersFor(`${setting}|${date}`);
  const pair = `${column1}|${column2}`;
  let answer = answers.get(pair);
  if (answer === undefined) {
    answer = edits.ptpPair(column1, column2, date, setting) ?? null;
    memory.add(answers, pair, answer);
  }
  return answer ?? undefined;
}

/**
 * The lab NCDs whose HCPCS list holds an undotted, upper-case code on a date (`edits.labNcdsForHcpcs`, remembered).
 * The array is shared: do not change it.
 */
export function labNcdsOf(edits: Edits, code: string, date: string): readonly LabNcdForCode[] {
  const memory = memoriesOf(edits).ncds;
  const answers = memory.answersFor(date);
  let answer = answers.get(code);
  if (answer === undefined) {
    const rows = edits.labNcdsForHcpcs(code, date);
    answer = rows.length === 0 ? NO_NCDS : rows;
    memory.add(answers, code, answer);
  }
  return answer;
}

/** How a lab NCD reads an undotted, upper-case ICD-10-CM code on a date (`edits.ncdIcd10Resolution`, remembered). */
export function ncdResolutionOf(edits: Edits, ncd: string, code: string, date: string): NcdIcd10Resolution | undefined {
  const memory = memoriesOf(edits).ncdResolutions;
  const answers = memory.answersFor(`${ncd}|${date}`);
  let answer = answers.get(code);
  if (answer === undefined) {
    answer = edits.ncdIcd10Resolution(ncd, code, date) ?? null;
    memory.add(answers, code, answer);
  }
  return answer ?? undefined;
}

/** The carrier locality of a ZIP on a date (`edits.zipLocality`, remembered). */
export function zipLocalityOf(edits: Edits, zip: string, date: string): ZipLocality | undefined {
  const memory = memoriesOf(edits).zips;
  const answers = memory.answersFor(date);
  let answer = answers.get(zip);
  if (answer === undefined) {
    answer = edits.zipLocality(zip, date) ?? null;
    memory.add(answers, zip, answer);
  }
  return answer ?? undefined;
}
