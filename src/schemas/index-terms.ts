// Shapes of the ICD-10-CM Alphabetic Index family and the ICD-10-PCS Index as stored (domain.md section 2): which
// index a term belongs to, the dataset of each, a term's fields and the title key both the index loaders and the
// index queries build. The loaders write these rows; src/reference/queries/index-terms.ts reads them back.

/** Which index a term belongs to. */
export type IndexKind = 'disease' | 'external' | 'drug' | 'neoplasm' | 'pcs';

/** What a term's `code` column holds: a code, a "see category"/"see subcategory" pointer, or a PCS table pointer. */
export type IndexCodeKind = 'code' | 'seecat' | 'subcat' | 'codes' | 'tab';

/** Dataset name of each XML index; the drug CSV is `icd10cm-drug-csv`. */
export const INDEX_DATASETS: Readonly<Record<IndexKind, string>> = {
  disease: 'icd10cm-index',
  external: 'icd10cm-eindex',
  drug: 'icd10cm-drug',
  neoplasm: 'icd10cm-neoplasm',
  pcs: 'icd10pcs-index',
};

/** Dataset name of the CDC drug table CSV. */
export const DRUG_CSV_DATASET = 'icd10cm-drug-csv';

/** Separator between the titles of a term's path: `Diabetes, diabetic > type 2 > with > hyperglycemia`. */
export const PATH_SEPARATOR = ' > ';

/** Collapses runs of whitespace and trims. */
export function squash(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * The lookup key of a title: accents removed, lower-case, whitespace collapsed (`Albers-Schönberg` →
 * `albers-schonberg`). Queries build their keys with the same function.
 */
export function titleKey(text: string): string {
  return squash(text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase());
}

/** The fields of an index term, as the loader writes them and the index queries read them back. */
export interface IndexTermFields {
  readonly id: number;
  /** 0 for a main term, then the `term@level` of the XML (indent level in the CSV). */
  readonly level: number;
  readonly parentId: number | null;
  /** The essential words, without the nonessential modifiers. */
  readonly title: string;
  /** Nonessential modifiers, as printed: `(-astasia) (hysterical)`. */
  readonly nemod: string | null;
  /** The title as printed, modifiers in place. */
  readonly display: string;
  /** Titles from the main term down: `Diabetes, diabetic > type 2 > with > hyperglycemia`. */
  readonly path: string;
  readonly code: string | null;
  readonly codeAsWritten: string | null;
  /** `code`; `seecat`/`subcat` ("see category"/"see subcategory"); PCS `codes` (row prefix) and `tab` (table). */
  readonly codeKind: IndexCodeKind | null;
  /** Manifestation code printed in brackets after `code` (code it too, sequenced second). */
  readonly manif: string | null;
  readonly manifAsWritten: string | null;
  readonly see: string | null;
  readonly seeAlso: string | null;
  /** PCS: the body part or device value to use instead. */
  readonly use: string | null;
  /** Line of the term in its source file. */
  readonly line: number;
}
