// Read side of the ICD-10-CM Alphabetic Index family and the ICD-10-PCS Index: word-prefix search over term paths,
// title lookups, the terms leading to a code, and the drug and neoplasm table rows by column. Every lookup takes a
// date and reads the release of each index in force on it (for the drug table, the XML before the CSV).
import type Database from 'better-sqlite3';
import { hasTable } from './tables.js';
import { CodeSystem, normaliseCode } from '../../schemas/code-systems.js';
import {
  DRUG_CSV_DATASET,
  INDEX_DATASETS,
  titleKey,
  type IndexCodeKind,
  type IndexKind,
  type IndexTermFields,
} from '../../schemas/index-terms.js';

export type { IndexCodeKind, IndexKind } from '../../schemas/index-terms.js';

/** A release of one index, as loaded. */
export interface IndexRelease {
  readonly kind: IndexKind;
  readonly dataset: string;
  readonly release: string;
  readonly validFrom: string;
  readonly validTo: string | null;
  readonly sourceId: number;
}

/** One main term or subterm of an index. Codes are upper-case and undotted; `...AsWritten` keeps the printed form. */
export interface IndexTerm extends IndexTermFields {
  readonly kind: IndexKind;
  readonly dataset: string;
  readonly release: string;
}

/** One cell of the drug or neoplasm table; `code` is null where the table prints `--`/`-` (no code). */
export interface TableCell {
  readonly col: number;
  readonly heading: string;
  readonly code: string | null;
  readonly codeAsWritten: string;
}

/** A drug or neoplasm table row: the term and its cells by column (columns 2 to 7). */
export interface TableRow extends IndexTerm {
  readonly cells: readonly TableCell[];
}

/** An index entry that leads to a code. */
export interface CodeHit {
  readonly term: IndexTerm;
  /** Where the code stands: the term's code (or see-category/PCS table pointer), its manifestation, a table cell. */
  readonly via: 'code' | 'manif' | 'cell';
  /** The code as the index prints it. */
  readonly codeAsWritten: string;
  /** False when the index gives a shorter code the code completes (`S52.11-` for `S52111A`, `0UT9` for `0UT90ZZ`). */
  readonly exact: boolean;
  readonly col: number | null;
  readonly heading: string | null;
}

/** Options of the term lookups. */
export interface IndexLookupOptions {
  /** Date of service: picks the release of each index in force (ISO `YYYY-MM-DD`). */
  readonly date: string;
  /** Indexes to search. @default every index */
  readonly kinds?: readonly IndexKind[] | undefined;
  /** @default 50 */
  readonly limit?: number | undefined;
}

export interface IndexQueries {
  /** The release of each index in force on `date`. */
  releases(date: string): IndexRelease[];
  /**
   * Terms whose path has a word starting with each word of `text` (case and accents ignored): `diab hypergly`
   * finds `Diabetes, diabetic > type 2 > with > hyperglycemia`. Main terms first, then in index order.
   */
  searchTerms(text: string, options: IndexLookupOptions): IndexTerm[];
  /** Terms whose title starts with `prefix` (case and accents ignored), main terms only unless `mainTermsOnly` is false. */
  termsByTitlePrefix(
    prefix: string,
    options: IndexLookupOptions & { readonly mainTermsOnly?: boolean | undefined },
  ): IndexTerm[];
  term(id: number): IndexTerm | undefined;
  /** Direct subterms of a term, in index order. */
  children(id: number): IndexTerm[];
  /** The term and all its subterms, in index order. */
  subtree(id: number): IndexTerm[];
  /**
   * Index entries leading to a code: exact matches, and shorter codes it completes where the index marks them
   * incomplete (`-`, see category/subcategory, PCS table pointers, drug-table codes that take a 7th character).
   */
  termsForCode(
    system: typeof CodeSystem.ICD10CM | typeof CodeSystem.ICD10PCS,
    code: string,
    options: { readonly date: string },
  ): CodeHit[];
  /**
   * Drug table rows for a substance (its main term, case-insensitive, then `>`-separated subterms, e.g.
   * `Carbon > monoxide`), each with all its subterms and every column. `prefix` matches the last word as a prefix.
   */
  drugRows(substance: string, options: { readonly date: string; readonly prefix?: boolean | undefined }): TableRow[];
  /** Neoplasm table rows for a site (`lung`, `bone > femur`), below the main term `Neoplasm, neoplastic`. */
  neoplasmRows(site: string, options: { readonly date: string; readonly prefix?: boolean | undefined }): TableRow[];
  /** PCS index main terms (`Abdominoplasty`, `Resection > Uterus`) with their subterms, `use` and table pointers. */
  pcsTerms(title: string, options: { readonly date: string; readonly prefix?: boolean | undefined }): IndexTerm[];
}

interface TermDbRow {
  id: number;
  source_id: number;
  kind: IndexKind;
  parent_id: number | null;
  level: number;
  title: string;
  nemod: string | null;
  display: string;
  path: string;
  code: string | null;
  code_as_written: string | null;
  code_kind: IndexCodeKind | null;
  manif: string | null;
  manif_as_written: string | null;
  see: string | null;
  see_also: string | null;
  use_text: string | null;
  line: number;
}

const COLUMNS = `t.id, t.source_id, t.kind, t.parent_id, t.level, t.title, t.nemod, t.display, t.path, t.code, t.code_as_written,
  t.code_kind, t.manif, t.manif_as_written, t.see, t.see_also, t.use_text, t.line`;

const ALL_KINDS: readonly IndexKind[] = ['disease', 'external', 'drug', 'neoplasm', 'pcs'];
const CM_KINDS: readonly IndexKind[] = ['disease', 'external', 'drug', 'neoplasm'];
/** Datasets of each kind, preferred first: the drug CSV only serves when no drug XML is in force. */
const DATASETS_OF: Readonly<Record<IndexKind, readonly string[]>> = {
  disease: [INDEX_DATASETS.disease],
  external: [INDEX_DATASETS.external],
  drug: [INDEX_DATASETS.drug, DRUG_CSV_DATASET],
  neoplasm: [INDEX_DATASETS.neoplasm],
  pcs: [INDEX_DATASETS.pcs],
};
const HIGH = '\uffff';

/** Lookups of a database built without any index (e.g. `--only icd10cm-order`): every answer is empty. */
const NO_INDEX: IndexQueries = {
  releases: () => [],
  searchTerms: () => [],
  termsByTitlePrefix: () => [],
  term: () => undefined,
  children: () => [],
  subtree: () => [],
  termsForCode: () => [],
  drugRows: () => [],
  neoplasmRows: () => [],
  pcsTerms: () => [],
};

/**
 * Prepares the index lookups on a (read-only) reference database built with the index loaders; on a database
 * built without them, every lookup answers empty.
 */
export function createIndexQueries(db: Database.Database): IndexQueries {
  if (!hasTable(db, 'index_term')) {
    return NO_INDEX;
  }
  const sources = (
    db
      .prepare(
        `SELECT s.id, s.dataset, s.release, s.valid_from, s.valid_to, (SELECT kind FROM index_term WHERE source_id = s.id LIMIT 1) AS kind
         FROM source s WHERE s.dataset IN (${[...Object.values(INDEX_DATASETS), DRUG_CSV_DATASET].map(() => '?').join(', ')})`,
      )
      .all(...Object.values(INDEX_DATASETS), DRUG_CSV_DATASET) as {
      id: number;
      dataset: string;
      release: string;
      valid_from: string;
      valid_to: string | null;
      kind: IndexKind | null;
    }[]
  )
    .filter((s): s is typeof s & { kind: IndexKind } => s.kind !== null)
    .map((s): IndexRelease => ({
      kind: s.kind,
      dataset: s.dataset,
      release: s.release,
      validFrom: s.valid_from,
      validTo: s.valid_to,
      sourceId: s.id,
    }));
  const bySource = new Map(sources.map((s) => [s.sourceId, s]));

  const search = db.prepare(
    `SELECT ${COLUMNS} FROM index_term_fts f JOIN index_term t ON t.id = f.rowid
     WHERE index_term_fts MATCH ? AND t.source_id IN (SELECT value FROM json_each(?))
     ORDER BY t.level, t.id LIMIT ?`,
  );
  const byTitleAtLevel = db.prepare(
    `SELECT ${COLUMNS} FROM index_term t WHERE t.source_id = ? AND t.level = ? AND t.title_key >= ? AND t.title_key < ?
     ORDER BY t.title_key, t.id LIMIT ?`,
  );
  const byTitleAnyLevel = db.prepare(
    `SELECT ${COLUMNS} FROM index_term t WHERE t.source_id = ? AND t.title_key >= ? AND t.title_key < ?
     ORDER BY t.title_key, t.level, t.id LIMIT ?`,
  );
  const byId = db.prepare(`SELECT ${COLUMNS} FROM index_term t WHERE t.id = ?`);
  const childrenOf = db.prepare(`SELECT ${COLUMNS} FROM index_term t WHERE t.parent_id = ? ORDER BY t.id`);
  const childrenByTitle = db.prepare(
    `SELECT ${COLUMNS} FROM index_term t WHERE t.parent_id = ? AND t.title_key >= ? AND t.title_key < ? ORDER BY t.id`,
  );
  const subtreeOf = db.prepare(
    `SELECT ${COLUMNS} FROM index_term t WHERE t.id BETWEEN ? AND (SELECT end_id FROM index_term WHERE id = ?) ORDER BY t.id`,
  );
  const byCodes = db.prepare(`SELECT ${COLUMNS} FROM index_term t WHERE t.code IN (SELECT value FROM json_each(?))`);
  const byManifs = db.prepare(`SELECT ${COLUMNS} FROM index_term t WHERE t.manif IN (SELECT value FROM json_each(?))`);
  const byCellCodes = db.prepare(
    `SELECT ${COLUMNS}, c.col AS cell_col, c.code AS cell_code, c.code_as_written AS cell_written, h.heading AS cell_heading
     FROM index_cell c JOIN index_term t ON t.id = c.term_id
     LEFT JOIN index_heading h ON h.source_id = c.source_id AND h.col = c.col
     WHERE c.code IN (SELECT value FROM json_each(?))`,
  );
  const cellsInRange = db.prepare(
    `SELECT c.term_id, c.col, c.code, c.code_as_written, h.heading FROM index_cell c
     LEFT JOIN index_heading h ON h.source_id = c.source_id AND h.col = c.col
     WHERE c.term_id BETWEEN ? AND ? ORDER BY c.term_id, c.col`,
  );

  const toTerm = (r: TermDbRow): IndexTerm => {
    const s = bySource.get(r.source_id);
    return {
      id: r.id,
      kind: r.kind,
      dataset: s?.dataset ?? '',
      release: s?.release ?? '',
      level: r.level,
      parentId: r.parent_id,
      title: r.title,
      nemod: r.nemod,
      display: r.display,
      path: r.path,
      code: r.code,
      codeAsWritten: r.code_as_written,
      codeKind: r.code_kind,
      manif: r.manif,
      manifAsWritten: r.manif_as_written,
      see: r.see,
      seeAlso: r.see_also,
      use: r.use_text,
      line: r.line,
    };
  };

  /** The release of `kind` in force on `date`: the first dataset (in preference order) that has one, newest first. */
  const releaseOf = (kind: IndexKind, date: string): IndexRelease | undefined => {
    for (const dataset of DATASETS_OF[kind]) {
      const inForce = sources
        .filter((s) => s.dataset === dataset && s.validFrom <= date && (s.validTo === null || s.validTo >= date))
        .sort((a, b) => (a.validFrom < b.validFrom ? 1 : a.validFrom > b.validFrom ? -1 : 0));
      if (inForce[0]) {
        return inForce[0];
      }
    }
    return undefined;
  };
  const releasesOf = (kinds: readonly IndexKind[], date: string): IndexRelease[] =>
    kinds.map((k) => releaseOf(k, date)).filter((r): r is IndexRelease => r !== undefined);

  const withCells = (terms: readonly IndexTerm[]): TableRow[] => {
    if (terms.length === 0) {
      return [];
    }
    // Subtrees are runs of consecutive ids: one range read per run.
    const ids = terms.map((t) => t.id).sort((a, b) => a - b);
    const cells = new Map<number, TableCell[]>();
    let start = 0;
    ids.forEach((id, i) => {
      const next = ids[i + 1];
      if (next !== undefined && next <= id + 1) {
        return;
      }
      const from = ids[start] ?? id;
      start = i + 1;
      for (const c of cellsInRange.all(from, id) as {
        term_id: number;
        col: number;
        code: string | null;
        code_as_written: string;
        heading: string | null;
      }[]) {
        const list = cells.get(c.term_id) ?? [];
        list.push({ col: c.col, heading: c.heading ?? '', code: c.code, codeAsWritten: c.code_as_written });
        cells.set(c.term_id, list);
      }
    });
    return terms.map((t) => ({ ...t, cells: cells.get(t.id) ?? [] }));
  };

  /** Terms at `level` matching the `>`-separated titles of `query`, each followed by its subterms. */
  const rowsByPath = (kind: IndexKind, query: string, level: number, date: string, prefix: boolean): IndexTerm[] => {
    const release = releaseOf(kind, date);
    const segments = query
      .split('>')
      .map(titleKey)
      .filter((s) => s !== '');
    if (!release || segments.length === 0) {
      return [];
    }
    const range = (key: string, last: boolean): [string, string] =>
      prefix && last ? [key, key + HIGH] : [key, `${key}\u0000`];
    const [first = '', ...rest] = segments;
    let matches = (
      byTitleAtLevel.all(release.sourceId, level, ...range(first, rest.length === 0), 10_000) as TermDbRow[]
    ).map(toTerm);
    rest.forEach((seg, i) => {
      matches = matches.flatMap((m) =>
        (childrenByTitle.all(m.id, ...range(seg, i === rest.length - 1)) as TermDbRow[]).map(toTerm),
      );
    });
    matches.sort((a, b) => a.id - b.id);
    return matches.flatMap((m) => (subtreeOf.all(m.id, m.id) as TermDbRow[]).map(toTerm));
  };

  return {
    releases: (date) => releasesOf(ALL_KINDS, date),

    searchTerms(text, options) {
      const words = titleKey(text)
        .split(/[^\p{L}\p{N}]+/u)
        .filter((w) => w !== '');
      const ids = releasesOf(options.kinds ?? ALL_KINDS, options.date).map((r) => r.sourceId);
      if (words.length === 0 || ids.length === 0) {
        return [];
      }
      const match = words.map((w) => `"${w}"*`).join(' ');
      return (search.all(match, JSON.stringify(ids), options.limit ?? 50) as TermDbRow[]).map(toTerm);
    },

    termsByTitlePrefix(prefix, options) {
      const key = titleKey(prefix);
      const limit = options.limit ?? 50;
      const rows = releasesOf(options.kinds ?? ALL_KINDS, options.date).flatMap(
        (r) =>
          (options.mainTermsOnly === false
            ? byTitleAnyLevel.all(r.sourceId, key, key + HIGH, limit)
            : byTitleAtLevel.all(r.sourceId, 0, key, key + HIGH, limit)) as TermDbRow[],
      );
      return rows.map(toTerm).slice(0, limit);
    },

    term(id) {
      const row = byId.get(id) as TermDbRow | undefined;
      return row ? toTerm(row) : undefined;
    },

    children: (id) => (childrenOf.all(id) as TermDbRow[]).map(toTerm),

    subtree: (id) => (subtreeOf.all(id, id) as TermDbRow[]).map(toTerm),

    termsForCode(system, code, options) {
      const target = normaliseCode(code);
      const inForce = new Set(
        releasesOf(system === CodeSystem.ICD10PCS ? ['pcs'] : CM_KINDS, options.date).map((r) => r.sourceId),
      );
      const keys: string[] = [];
      for (let len = Math.min(target.length, 7); len >= 3; len--) {
        keys.push(target.slice(0, len));
      }
      if (keys.length === 0 || inForce.size === 0) {
        return [];
      }
      const param = JSON.stringify(keys);
      const hits: CodeHit[] = [];
      // A shorter code leads here only where the index says more characters follow (domain.md §2, Index XML).
      const completes = (written: string, codeKind: IndexCodeKind | null, kind: IndexKind): boolean =>
        written.endsWith('-') ||
        codeKind === 'seecat' ||
        codeKind === 'subcat' ||
        codeKind === 'codes' ||
        codeKind === 'tab' ||
        kind === 'drug';
      for (const r of byCodes.all(param) as TermDbRow[]) {
        const exact = r.code === target;
        if (inForce.has(r.source_id) && (exact || completes(r.code_as_written ?? '', r.code_kind, r.kind))) {
          hits.push({
            term: toTerm(r),
            via: 'code',
            codeAsWritten: r.code_as_written ?? '',
            exact,
            col: null,
            heading: null,
          });
        }
      }
      for (const r of byManifs.all(param) as TermDbRow[]) {
        const exact = r.manif === target;
        if (inForce.has(r.source_id) && (exact || (r.manif_as_written ?? '').endsWith('-'))) {
          hits.push({
            term: toTerm(r),
            via: 'manif',
            codeAsWritten: r.manif_as_written ?? '',
            exact,
            col: null,
            heading: null,
          });
        }
      }
      for (const r of byCellCodes.all(param) as (TermDbRow & {
        cell_col: number;
        cell_code: string;
        cell_written: string;
        cell_heading: string | null;
      })[]) {
        const exact = r.cell_code === target;
        if (inForce.has(r.source_id) && (exact || completes(r.cell_written, null, r.kind))) {
          hits.push({
            term: toTerm(r),
            via: 'cell',
            codeAsWritten: r.cell_written,
            exact,
            col: r.cell_col,
            heading: r.cell_heading,
          });
        }
      }
      return hits.sort(
        (a, b) => Number(b.exact) - Number(a.exact) || a.term.id - b.term.id || (a.col ?? 0) - (b.col ?? 0),
      );
    },

    drugRows: (substance, options) =>
      withCells(rowsByPath('drug', substance, 0, options.date, options.prefix ?? false)),

    neoplasmRows: (site, options) => withCells(rowsByPath('neoplasm', site, 1, options.date, options.prefix ?? false)),

    pcsTerms: (title, options) => rowsByPath('pcs', title, 0, options.date, options.prefix ?? false),
  };
}
