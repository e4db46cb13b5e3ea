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
