// Code references named in the ICD-10-CM Tabular List's instructional notes (excludes, code first, use additional
// code, ...): `(E08-E13)`, `Z79.4`, `(T36-T65 with fifth or sixth character 5)`, `S06.-`, `S00.- to S09.-`.
// Pure text parsing, shared by the tabular loader (which stores the result) and by anyone who tests a code
// against a note. Written against every note of the FY2017 and FY2023 CDC tabular XML.

/** One code or code range a note names. Codes are upper-case and undotted. */
export interface NoteCodeRange {
  /** First code of the range (`E08`, `S06`, `Z794`). */
  readonly first: string;
  /** Last code of the range; equals `first` for a single code. */
  readonly last: string;
  /** The reference as written in the note: `E08-E13`, `S06.-`, `I70.2--I70.7-`. */
  readonly text: string;
  /** The last code is written with a trailing `-` (`S06.-`, `E11.-`): further characters are required. */
  readonly incomplete: boolean;
  /** Restriction written after the reference (`with fifth or sixth character 5`), or `null`. */
  readonly qualifier: string | null;
}

// A category (letter, digit, digit-or-letter: `O9A`, `C7A`) with an optional dotted subdivision. A bare trailing
// dot is kept (`I69. with final characters -23`). Neighbouring letters or digits disqualify (`G6PD`, `H1N1`).
const CODE = /(?<![A-Za-z0-9.])([A-Z]\d[0-9A-Z])(?:\.([0-9A-Z]{1,4})?)?(?![A-Za-z0-9])/g;
// Between two codes: an optional dash suffix on the first, then a range connector (`-`, en dash, `to`, `through`).
const CONNECTOR = /^(\.?-)?\s*(?:-|\u2013|to\b|through\b|thru\b)\s*(?=[A-Z]\d[0-9A-Z])/;
const SUFFIX = /^\.?-/;
// A qualifier restricts the characters of the named codes: `with fifth or sixth character 5`, `with .51-.52`,
// `with 7th character B`, `with final characters -23`, `with open fracture 7th character` (S51's note on S52.-);
// the Tabular also writes it without the space (`S92.-with 7th character B`). Prose such as `with tuberculosis` is
// not a qualifier.
const QUALIFIER =
  /^\s*(with\s+(?:the\s+)?(?:\.[0-9A-Z]|(?:fourth|fifth|sixth|seventh|final|4th|5th|6th|7th)\b|(?:[a-z]+\s+){1,3}(?:fourth|fifth|sixth|seventh|4th|5th|6th|7th)\s+characters?\b)[^,;()]*)/i;
// Between two members of a list of codes: a comma and nothing else.
const LIST_GAP = /^\s*,\s*$/;
// `vitamin B12` names a vitamin, not a code.
const NOT_A_CODE_BEFORE = /vitamin\s+$/i;

interface CodeToken {
  readonly start: number;
  readonly end: number;
  readonly code: string;
}

function codeAt(text: string, from: number, exactly: boolean): CodeToken | undefined {
  CODE.lastIndex = from;
  for (let m = CODE.exec(text); m; m = CODE.exec(text)) {
    if (exactly && m.index !== from) {
      return undefined;
    }
    if (!NOT_A_CODE_BEFORE.test(text.slice(Math.max(0, m.index - 12), m.index))) {
      return { start: m.index, end: m.index + m[0].length, code: `${m[1] ?? ''}${m[2] ?? ''}` };
    }
    if (exactly) {
      return undefined;
    }
  }
  return undefined;
}

/**
 * Finds every code and code range a note names, in order of appearance.
 * @param text - the text of one `<note>` (may be empty)
 * @returns the references; `[]` when the note names no code
 * @example parseNoteCodeRanges('adverse effect (T36-T50 with fifth or sixth character 5)')
 *   // [{ first: 'T36', last: 'T50', text: 'T36-T50', incomplete: false, qualifier: 'with fifth or sixth character 5' }]
 */
export function parseNoteCodeRanges(text: string): NoteCodeRange[] {
  const ranges: NoteCodeRange[] = [];
  let pos = 0;
  // The ranges of a comma-separated list so far (`E08, E09, E11, E13 with final characters .00 or .01`): a qualifier
  // after the list's last one restricts them all.
  let list = 0;
  for (let token = codeAt(text, pos, false); token; token = codeAt(text, pos, false)) {
    const previous = ranges[ranges.length - 1];
    list = previous !== undefined && previous.qualifier === null && LIST_GAP.test(text.slice(pos, token.start)) ? list + 1 : 0;
    let last = token;
    const connector = CONNECTOR.exec(text.slice(token.end));
    if (connector) {
      const end = codeAt(text, token.end + connector[0].length, true);
      if (end) {
        last = end;
      }
    }
    let stop = last.end;
    const suffix = SUFFIX.exec(text.slice(stop));
    if (suffix) {
      stop += suffix[0].length;
    }
    const written = text.slice(token.start, stop);
    const qualifier = QUALIFIER.exec(text.slice(stop));
    const restriction = qualifier ? (qualifier[1] ?? '').trim().replace(/\.$/, '') : null;
    ranges.push({
      first: token.code,
      last: last.code,
      text: written.endsWith('.') ? written.slice(0, -1) : written,
      incomplete: suffix !== null,
      qualifier: restriction,
    });
    if (restriction !== null) {
      for (let i = ranges.length - 1 - list; i < ranges.length - 1; i++) {
        ranges[i] = { ...(ranges[i] as NoteCodeRange), qualifier: restriction };
      }
    }
    pos = qualifier ? stop + qualifier[0].length : stop;
  }
  return ranges;
}

export { rangeCovers } from '../../schemas/tabular.js';
