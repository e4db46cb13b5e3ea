// Row values of the ICD-10-CM Tabular List tables (domain.md section 2): the note types and the levels a note or a
// `sevenChrDef` stands at, as the tabular loader writes them and the tabular queries read them back.

/** Note elements of the tabular schema (`noteType`), each holding `<note>` children. */
export const TABULAR_NOTE_TYPES = [
  'includes',
  'inclusionTerm',
  'excludes1',
  'excludes2',
  'codeFirst',
  'useAdditionalCode',
  'codeAlso',
  'notes',
  'sevenChrNote',
] as const;
/** A note element's name, or `sevenChrDef` for the `<note>`s inside a `sevenChrDef` (they follow an extension). */
export type TabularNoteType = (typeof TABULAR_NOTE_TYPES)[number] | 'sevenChrDef';
/** Where a note or a `sevenChrDef` stands. */
export type TabularLevel = 'chapter' | 'section' | 'diag';

/**
 * Tells whether a code range a note names covers a code: the code's first characters fall between the range's ends,
 * so `E08-E13` covers `E1165` and `I70.2--I70.7-` covers `I70.399`, but not the category `I70` itself. Qualifiers
 * ("with fifth or sixth character 5") are not applied. Used by the tabular loader and the note-based claim rules.
 * @param range - the ends, undotted
 * @param code - an undotted upper-case code
 */
export function rangeCovers(range: { readonly first: string; readonly last: string }, code: string): boolean {
  return comparePrefix(code, range.first) >= 0 && comparePrefix(code, range.last) <= 0;
}

/**
 * Tells whether a range a note names names a code: it covers the code and, when the range's qualifier restricts the
 * code's characters (`S92.- with 7th character B`: open fractures only; `E08-E13 with .61-`), the code matches it.
 * @param range - the ends, undotted, and the qualifier as a test on the undotted code (none: any code it covers)
 * @param code - an undotted upper-case code
 */
export function rangeNames(
  range: { readonly first: string; readonly last: string; readonly pattern?: RegExp | undefined },
  code: string,
): boolean {
  return rangeCovers(range, code) && (range.pattern === undefined || range.pattern.test(code));
}

const ORDINALS: Readonly<Record<string, number>> = {
  '4th': 4,
  fourth: 4,
  '5th': 5,
  fifth: 5,
  '6th': 6,
  sixth: 6,
  '7th': 7,
  seventh: 7,
};

/**
 * A range qualifier of the Tabular as a test on the undotted codes the range covers, for the forms it writes:
 * - `with 7th character B` (or `B, C` / `B or C`); `with fifth character 9`, `with fifth or sixth character 5`,
 *   `with fifth-character 1`, `with 5th character .6`: the character at that position;
 * - `with open fracture 7th character`: the 7th characters whose definition says so (`sevenChars` reads them);
 * - `with .61-`, `with .610`, `with .51-.52`: the characters after the category, from one to the other;
 * - `with fifth to sixth characters 51`; `with final characters -23`: the code's last characters; `with final
 *   characters .00 or .01`: its characters after the category.
 * @param sevenChars - the 7th characters of the range's codes whose definition holds the words (`''`: none)
 * @returns `undefined` for a qualifier of another form (the range is then not applied)
 */
export function qualifierPattern(qualifier: string, sevenChars: (words: string) => string): RegExp | undefined {
  const q = qualifier.trim().replace(/\s+/g, ' ');
  let m =
    /^with (?:the )?(4th|fourth|5th|fifth|6th|sixth|7th|seventh)(?:[- ]| or (4th|fourth|5th|fifth|6th|sixth|7th|seventh) )characters? \.?([0-9A-Z](?:(?: ?, ?| or | and )[0-9A-Z])*)$/i.exec(
      q,
    );
  if (m !== null) {
    const chars = (m[3] ?? '').toUpperCase().replace(/ OR | AND |[^0-9A-Z]/g, '');
    const at = [m[1], m[2]].filter((o): o is string => o !== undefined).map((o) => ORDINALS[o.toLowerCase()] ?? 0);
    return new RegExp(`^(?:${at.map((p) => `.{${p - 1}}[${chars}]`).join('|')})`);
  }
  m = /^with (?:the )?((?:[a-z]+ ){0,2}[a-z]+) (?:7th|seventh) characters?$/i.exec(q);
  if (m !== null && !/^appropriate$/i.test(m[1] ?? '')) {
    const chars = sevenChars((m[1] ?? '').toLowerCase());
    return chars === '' ? undefined : new RegExp(`^.{6}[${chars}]$`);
  }
  m = /^with \.([0-9A-Z]{1,4})-?(?: ?- ?\.([0-9A-Z]{1,4})-?)?$/i.exec(q);
  if (m !== null) {
    const from = (m[1] ?? '').toUpperCase();
    const to = (m[2] ?? from).toUpperCase();
    if (from === to) {
      return new RegExp(`^.{3}${from}`);
    }
    if (!/^\d+$/.test(from) || !/^\d+$/.test(to) || from.length !== to.length || Number(to) - Number(from) > 99) {
      return undefined;
    }
    const each = Array.from({ length: Number(to) - Number(from) + 1 }, (_, i) =>
      String(Number(from) + i).padStart(from.length, '0'),
    );
    return new RegExp(`^.{3}(?:${each.join('|')})`);
  }
  m = /^with fifth to sixth characters? ([0-9A-Z]{2})$/i.exec(q);
  if (m !== null) {
    return new RegExp(`^.{4}${(m[1] ?? '').toUpperCase()}`);
  }
  // `-23`: the code's last characters; `.00 or .01`: all its characters after the category (E11.00, not E11.600).
  m = /^with final characters? ((?:-|\.)?[0-9A-Z]{1,3}(?:(?: ?, ?| or | and )(?:-|\.)?[0-9A-Z]{1,3})*)$/i.exec(q);
  if (m !== null) {
    const values = (m[1] ?? '').toUpperCase().split(/ ?, ?| OR | AND /);
    const after = values.every((v) => v.startsWith('.'));
    const chars = values.map((v) => v.replace(/^[-.]/, '')).join('|');
    return new RegExp(after ? `^.{3}(?:${chars})$` : `(?:${chars})$`);
  }
  return undefined;
}

/**
 * Compares the first `bound.length` characters of `code` with `bound` as strings compare (`code.slice(0, n)` vs
 * `bound`), without building the slice: the claim rules test every diagnosis pair against every range of a note.
 */
function comparePrefix(code: string, bound: string): number {
  const n = Math.min(code.length, bound.length);
  for (let i = 0; i < n; i++) {
    const d = code.charCodeAt(i) - bound.charCodeAt(i);
    if (d !== 0) {
      return d;
    }
  }
  return n - bound.length;
}
