// The rows the search index is built from (issue 13 §1), read in bulk: code titles of the searchable systems,
// ICD-10-CM inclusion terms, and Alphabetic Index terms that lead to a code (paths of the disease, External Cause
// and PCS indexes; Drug and Neoplasm table cells with their column headings). Every row carries the interval it is
// in force, so one index answers for every date. The engine (src/engines/search) builds its in-memory index from
// these on first use.
import type Database from 'better-sqlite3';
import { hasTable } from './tables.js';
import type { CodeSystem } from '../../schemas/code-systems.js';
import type { IndexKind } from '../../schemas/index-terms.js';

/** A code title: one row per code and interval. */
export interface SearchTitleRow {
  readonly system: CodeSystem;
  readonly code: string;
  readonly validFrom: string;
  readonly validTo: string | null;
  readonly billable: number;
  readonly title: string;
  /** The code's place in its release's order file (tabular order); null where a release has none. */
  readonly ord: number | null;
}

/** An ICD-10-CM inclusion term of a code (undotted owner). */
export interface SearchInclusionRow {
  readonly code: string;
  readonly text: string;
  readonly validFrom: string;
  readonly validTo: string | null;
}

/** An index term (or table cell) that leads to a code. */
export interface SearchIndexRow {
  readonly kind: IndexKind;
  /** Main term and subterms, ` > `-separated; a table cell adds its column heading as the last part. */
  readonly path: string;
  /** As stored: undotted, maybe a category or a PCS row prefix (`0DTJ`), maybe 6 characters of a 7. */
  readonly code: string;
  readonly validFrom: string;
  readonly validTo: string | null;
  /** The term's nonessential modifiers as printed, `(tract)` or `(accelerated) (benign)`; null when none. */
  readonly nemod: string | null;
}

/** A PCS index main term that says "see" another term (`Appendectomy` see `Resection, Appendix`). */
export interface SearchSeeRow {
  readonly kind: IndexKind;
  readonly title: string;
  readonly see: string;
}

/** An index term that says "see" another term instead of giving a code (`Cellulitis > leg` see `Cellulitis, lower limb`). */
export interface SearchSeeTermRow {
  readonly kind: IndexKind;
  readonly sourceId: number;
  readonly path: string;
  readonly see: string;
  readonly validFrom: string;
  readonly validTo: string | null;
}

/** A node of an index's tree: what a "see" reference is resolved against. */
export interface SearchTreeRow {
  readonly id: number;
  readonly parentId: number | null;
  readonly sourceId: number;
  readonly titleKey: string;
  readonly code: string | null;
}

/** The bulk reads of the search index. */
export interface SearchDocQueries {
  /** Disease and External Cause index terms with a "see" and no code. */
  seeTerms(): SearchSeeTermRow[];
  /** Every disease and External Cause index term, for resolving "see" references. */
  indexTree(): SearchTreeRow[];
  titles(systems: readonly CodeSystem[]): SearchTitleRow[];
  inclusionTerms(): SearchInclusionRow[];
  indexRows(): SearchIndexRow[];
  /** `see` and `use` of index terms, by the term's own title (the words a coder types). */
  seeRows(): SearchSeeRow[];
}

/**
 * The search rows of a reference database; tables a partial build lacks answer nothing.
 * @param db - the reference database, opened read-only by the caller
 */
export function createSearchDocQueries(db: Database.Database): SearchDocQueries {
  const hasTabular = hasTable(db, 'tabular_note');
  const hasIndex = hasTable(db, 'index_term');
  return {
    seeTerms: () =>
      hasIndex
        ? (db
            .prepare(
              `SELECT kind, source_id AS sourceId, path, see, valid_from AS validFrom, valid_to AS validTo FROM index_term
               WHERE see IS NOT NULL AND code IS NULL AND kind IN ('disease', 'external')`,
            )
            .all() as SearchSeeTermRow[])
        : [],
    indexTree: () =>
      hasIndex
        ? (db
            .prepare(
              `SELECT id, parent_id AS parentId, source_id AS sourceId, title_key AS titleKey, code FROM index_term
               WHERE kind IN ('disease', 'external')`,
            )
            .all() as SearchTreeRow[])
        : [],
    titles: (systems) =>
      systems.length === 0
        ? []
        : (db
            .prepare(
              `SELECT system, code, valid_from AS validFrom, valid_to AS validTo, billable, long_title AS title, ord FROM code
               WHERE system IN (${systems.map(() => '?').join(',')}) AND long_title IS NOT NULL`,
            )
            .all(...systems) as SearchTitleRow[]),
    inclusionTerms: () =>
      hasTabular
        ? (db
            .prepare(
              `SELECT owner AS code, text, valid_from AS validFrom, valid_to AS validTo FROM tabular_note
               WHERE type IN ('inclusionTerm', 'includes') AND level = 'diag'`,
            )
            .all() as SearchInclusionRow[])
        : [],
    indexRows: () => {
      if (!hasIndex) {
        return [];
      }
      // The CDC drug CSV repeats the Drug table XML; the XML is read (as the index queries prefer it).
      const terms = db
        .prepare(
          `SELECT t.kind, t.path, t.code, t.valid_from AS validFrom, t.valid_to AS validTo, t.nemod
           FROM index_term t JOIN source s ON s.id = t.source_id
           WHERE t.code IS NOT NULL AND s.dataset <> 'icd10cm-drug-csv' AND t.kind IN ('disease', 'external', 'pcs')`,
        )
        .all() as SearchIndexRow[];
      const cells = db
        .prepare(
          `SELECT t.kind, t.path || ' > ' || h.heading AS path, c.code, t.valid_from AS validFrom, t.valid_to AS validTo,
                  t.nemod
           FROM index_cell c JOIN index_term t ON t.id = c.term_id JOIN source s ON s.id = c.source_id
           JOIN index_heading h ON h.source_id = c.source_id AND h.col = c.col
           WHERE c.code IS NOT NULL AND s.dataset <> 'icd10cm-drug-csv'`,
        )
        .all() as SearchIndexRow[];
      return [...terms, ...cells];
    },
    seeRows: () =>
      hasIndex
        ? (db
            .prepare(
              `SELECT DISTINCT t.kind, t.title, COALESCE(t.see, t.use_text) AS see FROM index_term t
               WHERE t.level = 0 AND COALESCE(t.see, t.use_text) IS NOT NULL AND t.kind = 'pcs'
               UNION SELECT DISTINCT m.kind, m.title, t.see FROM index_term t JOIN index_term m ON m.id = t.parent_id
               WHERE t.kind = 'pcs' AND m.level = 0 AND t.title = '' AND t.see IS NOT NULL`,
            )
            .all() as SearchSeeRow[])
        : [],
  };
}
