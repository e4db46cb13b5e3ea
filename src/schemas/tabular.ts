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
 * 7th character (`S92.- with 7th character B`: open fractures only), the code has one of those.
 * @param range - the ends, undotted, and the 7th characters the qualifier allows (none: any code the range covers)
 * @param code - an undotted upper-case code
 */
export function rangeNames(
  range: { readonly first: string; readonly last: string; readonly seventh?: string | undefined },
  code: string,
): boolean {
  return (
    rangeCovers(range, code) &&
    (range.seventh === undefined || (code.length === 7 && range.seventh.includes(code.charAt(6))))
  );
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
