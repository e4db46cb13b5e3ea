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

const LINE_HEADING = /^[ \t]*([A-Za-z][A-Za-z /&]{0,40}?)[ \t]*(:|$)/;

/**
 * Whether a line may be a heading, read in place (no line is sliced): after blanks and tabs it starts with a letter,
 * and only letters, blanks, tabs, `/` and `&` come before its colon or its end. Every line LINE_HEADING matches
 * passes, so it only spares the pattern the lines of prose (most of a note).
 */
function mayBeHeading(text: string, begin: number, end: number): boolean {
  let i = begin;
  while (i < end && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) {
    i++;
  }
  if (i === end || !isAsciiLetter(text.charCodeAt(i))) {
    return false;
  }
  for (; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 58) {
      return true;
    }
    if (!(isAsciiLetter(c) || c === 32 || c === 9 || c === 47 || c === 38)) {
      return false;
    }
  }
  return true;
}

const isAsciiLetter = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

/**
 * The sections of a text, in order (none when it has no heading).
 * @param text - the note
 */
export function findSections(text: string): Section[] {
  const found: Omit<Section, 'end'>[] = [];
  // Line by line without splitting the text: [at, next) is a line, its \n excluded.
  for (let at = 0; at <= text.length; ) {
    const newline = text.indexOf('\n', at);
    const next = newline === -1 ? text.length : newline;
    // A CRLF text's lines end with \r: matched without it.
    const end = next > at && text.charCodeAt(next - 1) === 13 ? next - 1 : next;
    if (mayBeHeading(text, at, end)) {
      const line = text.slice(at, end);
      // A heading is at most 41 characters before its colon (or the line's end).
      const colon = line.indexOf(':');
      const m = (colon === -1 ? line : line.slice(0, colon)).trim().length > 41 ? null : LINE_HEADING.exec(line);
      if (m !== null) {
        const words = (m[1] ?? '').trim();
        const kind = BY_HEADING.get(words.toLowerCase().replace(/\s+/g, ' '));
        // Without a colon, a heading is the whole line and written in upper case.
        if (kind !== undefined && (m[2] === ':' || (words === words.toUpperCase() && words.length > 2))) {
          found.push({
            name: kind.name,
            historical: kind.historical === true,
            family: kind.family === true,
            headingBegin: at + line.indexOf(words),
            headingEnd: at + (m.index + m[0].length),
          });
        }
      }
    }
    at = next + 1;
  }
  return found.map((s, i) => ({ ...s, end: found[i + 1]?.headingBegin ?? text.length }));
}
