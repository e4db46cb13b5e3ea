// What the rules read about one code string on one date, shared by every claim that carries it: its CodeDetail, its
// normal form and the answers of the rules' per-code lookups (notes, MUE row, add-on edits, lab NCDs), each read on
// first use into a numbered memo slot. A night's claims repeat the same codes; with one remembered object per code
// and epoch a claim costs one map probe per code, where each lookup's own memory cost one probe (a cache miss in a
// map of ~100,000 codes) per code and rule. The epoch (CodeQueries.epochOf) is the stretch of days the date is in
// over which no row these lookups read starts or ends: claims spread over a quarter of service dates share the facts
// of a few epochs, not of 90 days (the bench's million lines moved to 91 dates took 62.6 s keyed by date, 23.3 s by
// epoch). A detail whose text writes its date out (a code not yet in force on it) serves that date only.
//
//   viewClaim ─► dxFacts(ref, codes, date, codeSet) ─► CodeFacts[] (one probe each; codeDetails for the new ones)
//             ─► lineFacts(ref, lines, from)        ─► CodeFacts[] (the code set of each read from its shape)
//   a rule    ─► FactMemo.of(facts) ?? keep(...)      ─► the lookup's answer, read once per code and date
import { codeDetails, codeTypeOf, parseCode, shapeSystems, type CodesReference } from '../codes/index.js';
import { keyJoiner, memoryPerOwner } from '../answer-memory.js';
import type { ClaimLine } from '../../schemas/claim.js';
import type { CodeDetail } from '../../schemas/codes.js';
import { ICD10_START, normaliseCode } from '../../schemas/code-systems.js';

/**
 * One code string in one code set, as every claim carrying it on a date of one epoch (CodeQueries.epochOf: a
 * stretch of days over which no row a per-code lookup reads starts or ends) reads it.
 */
export interface CodeFacts {
  readonly detail: CodeDetail;
  /**
   * The date the detail was read for, when its text names that date (a code not yet in force, a date no release
   * covers): such facts serve that date only, the others every date of the epoch.
   */
  readonly dated: string | undefined;
  /** Upper-case, undotted. */
  readonly norm: string;
  /** Answers of per-code lookups on this date, one slot per {@link FactMemo}; `undefined` until first kept. */
  readonly memo: unknown[];
}

let slots = 0;

/**
 * One per-code lookup's memo on CodeFacts (made once, at module load: it takes the next slot). Read inline, without
 * a closure per ask: `memo.of(facts) ?? memo.keep(facts, lookup(...))`, or a `!== undefined` test when the answer
 * may be `null`. Answers are never `undefined`: keep `null` for "none".
 */
export class FactMemo<T> {
  private readonly slot = slots++;

  /** The answer kept on these facts, `undefined` when none is yet. */
  of(facts: CodeFacts): T | undefined {
    return facts.memo[this.slot] as T | undefined;
  }

  /** Keeps an answer on these facts. @returns the answer */
  keep(facts: CodeFacts, answer: T): T {
    facts.memo[this.slot] = answer;
    return answer;
  }
}

/** Codes (strings × dates × code sets) remembered before the memory is emptied. */
const MAX_FACTS = 200_000;
const remembered = memoryPerOwner<CodeFacts>(MAX_FACTS);

function factsOf(detail: CodeDetail, code: string, date: string): CodeFacts {
  const dated = namesDate(detail, date) ? date : undefined;
  return { detail, dated, norm: normaliseCode(code), memo: new Array<unknown>(slots) };
}

/** Whether a detail's text (its message and notes, the only free text it has) writes the date out. */
function namesDate(detail: CodeDetail, date: string): boolean {
  if (detail.message?.includes(date) === true) {
    return true;
  }
  for (const note of detail.notes ?? []) {
    if (note.includes(date)) {
      return true;
    }
  }
  return false;
}

/** Whether remembered facts serve a date: any date of their epoch, or the one they name. */
const serves = (facts: CodeFacts, date: string): boolean => facts.dated === undefined || facts.dated === date;

/**
 * The facts of code strings on one date in one code set, in input order (remembered per epoch of the date).
 * @param codeSet - as codeDetails takes it; `undefined` detects each code's set
 */
export function dxFacts(
  ref: CodesReference,
  codes: readonly string[],
  date: string,
  codeSet: string | undefined,
): CodeFacts[] {
  const memory = remembered(ref.codes);
  const known = memory.answersFor(dxKey(ref.codes.epochOf(date), codeSet ?? ''));
  const facts = new Array<CodeFacts>(codes.length);
  let missing = false;
  for (let i = 0; i < codes.length; i++) {
    const found = known.get(codes[i] as string);
    if (found === undefined || !serves(found, date)) {
      missing = true;
    } else {
      facts[i] = found;
    }
  }
  if (missing) {
    const details = codeDetails(ref, codes, date, codeSet);
    for (let i = 0; i < codes.length; i++) {
      if (facts[i] === undefined) {
        const code = codes[i] as string;
        // A code twice in one call is made once.
        let made = known.get(code);
        if (made === undefined || !serves(made, date)) {
          memory.forget(known, code);
          made = factsOf(details[i] as CodeDetail, code, date);
          memory.add(known, code, made);
        }
        facts[i] = made;
      }
    }
  }
  return facts;
}

/**
 * The date a line's code is read on: the line's date (the claim's from-date when it has none), but an ICD procedure
 * (ICD-10-PCS, ICD-9-CM volume 3) on an inpatient claim on the discharge date, as its diagnoses are (domain.md
 * section 8: the through date for every ICD code of an inpatient claim).
 * @param icdDate - an inpatient claim's discharge (through) date; `undefined` for any other claim
 */
export function lineDateOf(line: ClaimLine, from: string, icdDate: string | undefined): string {
  const date = line.dateOfService ?? from;
  if (icdDate === undefined || icdDate === date) {
    return date;
  }
  const systems = shapeSystems(parseCode(line.procedureCode));
  return systems.includes('ICD10PCS') || systems.includes('ICD9CM_PROC') ? icdDate : date;
}

/**
 * The facts of each line's procedure code on its date ({@link lineDateOf}), read in the code set its shape names (see
 * {@link procedureCodeSet}).
 * @param icdDate - an inpatient claim's discharge (through) date; `undefined` for any other claim
 * @param dates - each line's date, when the caller has them already
 */
export function lineFacts(
  ref: CodesReference,
  lines: readonly ClaimLine[],
  from: string,
  icdDate?: string,
  dates: readonly string[] = lines.map((l) => lineDateOf(l, from, icdDate)),
): CodeFacts[] {
  const memory = remembered(ref.codes);
  const facts = new Array<CodeFacts>(lines.length);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as ClaimLine;
    const date = dates[i] as string;
    const known = memory.answersFor(procedureKey('procedure', ref.codes.epochOf(date)));
    let found = known.get(line.procedureCode);
    if (found === undefined || !serves(found, date)) {
      const codeSet = procedureCodeSet(line.procedureCode, date);
      memory.forget(known, line.procedureCode);
      found = factsOf(codeDetails(ref, [line.procedureCode], date, codeSet)[0] as CodeDetail, line.procedureCode, date);
      memory.add(known, line.procedureCode, found);
    }
    facts[i] = found;
  }
  return facts;
}

/** The memory's keys: `epoch|codeSet` for diagnoses, `procedure|epoch` for procedure codes (one string while they repeat). */
const dxKey = keyJoiner();
const procedureKey = keyJoiner();

/**
 * The procedure code set a line's code has the shape of, when exactly one fits: `G0439` is read as HCPCS, not as
 * the ICD-10-CM shape G04.39. `undefined` lets the code engine detect (and report a diagnosis code on a line).
 * ICD-9-CM procedures count only before 2015-10-01.
 */
function procedureCodeSet(code: string, date: string): string | undefined {
  const procedures = shapeSystems(parseCode(code)).filter(
    (s) => s === 'CPT' || s === 'HCPCS' || s === 'ICD10PCS' || (s === 'ICD9CM_PROC' && date < ICD10_START),
  );
  return procedures.length === 1 && procedures[0] !== undefined ? codeTypeOf(procedures[0]) : undefined;
}
