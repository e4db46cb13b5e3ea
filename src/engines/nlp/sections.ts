// Note sections (issue 14 §1): a heading at the start of a line, either followed by a colon (`PMH: asthma`,
// `Family History:`) or alone on its line in upper case (`PAST MEDICAL HISTORY`). Each heading names its section
// until the next one; the engine reads the section for assertions (PMH → historical, Family History → family) and
// reports it with each mention.

/** A heading's canonical name and the assertion it carries for the mentions under it. */
interface SectionKind {
  readonly name: string;
  readonly historical?: boolean;
  readonly family?: boolean;
}

const KINDS: readonly (readonly [readonly string[], SectionKind])[] = [
  [['chief complaint', 'cc', 'reason for visit'], { name: 'Chief Complaint' }],
  [['subjective'], { name: 'Subjective' }],
  [['objective'], { name: 'Objective' }],
  [['history of present illness', 'hpi', 'present illness'], { name: 'History of Present Illness' }],
  [['past medical history', 'pmh', 'pmhx', 'medical history'], { name: 'Past Medical History', historical: true }],
  [['past surgical history', 'psh', 'pshx', 'surgical history'], { name: 'Past Surgical History', historical: true }],
  [['family history', 'fh', 'fhx', 'family hx'], { name: 'Family History', family: true }],
  [['social history', 'sh', 'shx'], { name: 'Social History' }],
  [['review of systems', 'ros'], { name: 'Review of Systems' }],
  [['medications', 'meds', 'current medications', 'home medications'], { name: 'Medications' }],
  [['allergies', 'allergy'], { name: 'Allergies' }],
  [['physical exam', 'physical examination', 'exam', 'examination', 'pe'], { name: 'Physical Exam' }],
  [['assessment and plan', 'assessment/plan', 'a/p', 'a&p'], { name: 'Assessment and Plan' }],
  [['assessment'], { name: 'Assessment' }],
  [['plan'], { name: 'Plan' }],
  [['impression'], { name: 'Impression' }],
  [['diagnoses', 'diagnosis', 'discharge diagnoses', 'problem list'], { name: 'Diagnoses' }],
];

const BY_HEADING = new Map<string, SectionKind>(KINDS.flatMap(([names, kind]) => names.map((n) => [n, kind] as const)));

/** One section of a text: the heading's span and the span its content covers. */
export interface Section {
  readonly name: string;
  readonly historical: boolean;
  readonly family: boolean;
  /** The heading itself (left out of matching). */
  readonly headingBegin: number;
  readonly headingEnd: number;
  /** From the heading's start to the next heading's start. */
  readonly end: number;
}

/** A heading read off a line: its words' span, whether a colon follows them, and where the heading ends. */
interface LineHeading {
  readonly wordsBegin: number;
  readonly wordsEnd: number;
  readonly colon: boolean;
  readonly end: number;
}

const isBlank = (c: number): boolean => c === 32 || c === 9;
const isAsciiLetter = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
/** The characters a heading's words may hold after their first letter: letters, blanks, `/` and `&` (no tab). */
const isHeadingChar = (c: number): boolean => isAsciiLetter(c) || c === 32 || c === 47 || c === 38;

/**
 * The heading a line [begin, end) starts with, read in place (prose lines, most of a note, are left after a few
 * characters): blanks or tabs, a letter and at most 40 more letters, blanks, `/` or `&`, the fewest that are followed by
 * blanks or tabs and then a colon or the line's end. (This is `^[ \t]*([A-Za-z][A-Za-z /&]{0,40}?)[ \t]*(:|$)`.)
 */
function headingAt(text: string, begin: number, end: number): LineHeading | undefined {
  let i = begin;
  while (i < end && isBlank(text.charCodeAt(i))) {
    i++;
  }
  if (i === end || !isAsciiLetter(text.charCodeAt(i))) {
    return undefined;
  }
  for (let p = i + 1; p <= i + 41 && p <= end; p++) {
    // Do the words [i, p) end the heading: only blanks, then a colon or the end?
    let q = p;
    while (q < end && isBlank(text.charCodeAt(q))) {
      q++;
    }
    if (q === end || text.charCodeAt(q) === 58) {
      return { wordsBegin: i, wordsEnd: p, colon: q < end, end: q < end ? q + 1 : q };
    }
    if (p === end || !isHeadingChar(text.charCodeAt(p))) {
      return undefined;
    }
  }
  return undefined;
}

/**
 * The sections of a text, in order (none when it has no heading).
 * @param text - the note
 */
export function findSections(text: string): Section[] {
  const found: { -readonly [K in keyof Section]: Section[K] }[] = [];
  // Line by line without splitting the text: [at, next) is a line, its break (LF, CRLF or a bare CR, as HL7 v2 text
  // has) excluded. The next LF and CR are each searched again only once passed (-1: none left).
  let lf = -2;
  let cr = -2;
  for (let at = 0; at <= text.length; ) {
    if (lf !== -1 && lf < at) {
      lf = text.indexOf('\n', at);
    }
    if (cr !== -1 && cr < at) {
      cr = text.indexOf('\r', at);
    }
    const next = Math.min(lf === -1 ? text.length : lf, cr === -1 ? text.length : cr);
    const heading = headingAt(text, at, next);
    if (heading !== undefined) {
      const words = text.slice(heading.wordsBegin, heading.wordsEnd);
      const kind = BY_HEADING.get(words.toLowerCase().replace(/\s+/g, ' '));
      // Without a colon, a heading is the whole line and written in upper case.
      if (kind !== undefined && (heading.colon || (words === words.toUpperCase() && words.length > 2))) {
        const last = found.at(-1);
        if (last !== undefined) {
          last.end = heading.wordsBegin;
        }
        found.push({
          name: kind.name,
          historical: kind.historical === true,
          family: kind.family === true,
          headingBegin: heading.wordsBegin,
          headingEnd: heading.end,
          end: text.length,
        });
      }
    }
    at = next === cr && lf === cr + 1 ? next + 2 : next + 1;
  }
  return found;
}
