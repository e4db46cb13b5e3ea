// Read side of the mapping tables: GEM rows both ways (diagnosis and procedure, by source or by target code, every
// flag, file order), CDC conversion-table links (current → previous and previous → current), the POA exempt list on
// a date, and ICD-9-CM v32 code detail. Statements are prepared once; codes may be passed dotted or not.
import type Database from 'better-sqlite3';
import { CodeSystem, normaliseCode } from '../../schemas/code-systems.js';
import { GemDataset } from '../../schemas/gems.js';
import { createCodeQueries, type CodeQueries } from './codes.js';
import { loadGemFile, type GemFile, type GemRow } from './gem-memory.js';
import { groupBy } from './group-by.js';
import { changeDatesSearch, changesBy, perPeriod } from './periods.js';
import { hasTable } from './tables.js';

export type { GemRow } from './gem-memory.js';

/** `dx`: ICD-10-CM ↔ ICD-9-CM diagnoses; `pcs`: ICD-10-PCS ↔ ICD-9-CM procedures. */
export type GemKind = 'dx' | 'pcs';
/** As the GEM guide names them: `forward` maps ICD-9 → ICD-10, `backward` maps ICD-10 → ICD-9. */
export type GemDirection = 'forward' | 'backward';

const GEM_DATASETS: Record<GemKind, Record<GemDirection, GemDataset>> = {
  dx: { backward: GemDataset.dxBackward, forward: GemDataset.dxForward },
  pcs: { backward: GemDataset.pcsBackward, forward: GemDataset.pcsForward },
};

/** ICD-9-CM diagnoses (`dx`) or procedures (`proc`). */
export type Icd9Kind = 'dx' | 'proc';

/** One link of the CDC ICD-10-CM conversion table. */
export interface ConversionLink {
  readonly release: string;
  /** Sheet row the link was read from. */
  readonly rowNo: number;
  readonly currentCode: string;
  /** Date the current code took effect (ISO). */
  readonly effective: string;
  /** Previous code, or the first code of a range; `null` when the table says `None` (a new concept). */
  readonly previousCode: string | null;
  /** Last code of a range (a prefix bound: `I63`..`I63` is the whole category); `null` for a single code. */
  readonly previousLast: string | null;
  /** The previous-code cell as printed, e.g. `C56.1 and C56.2`. */
  readonly previousText: string;
}

/** Whether a code is POA exempt on a date, from the list in force then. */
export interface PoaExemptAnswer {
  readonly code: string;
  readonly exempt: boolean;
  /** The list consulted, e.g. `FY2026`. */
  readonly release: string;
  /** Long title as the list prints it; `null` when the code is not on the list. */
  readonly description: string | null;
}

/** One entry of a POA exempt change list (against the previous year's list). */
export interface PoaExemptChange {
  readonly code: string;
  readonly action: 'add' | 'delete' | 'revise-from' | 'revise-to';
  readonly release: string;
  readonly validFrom: string;
  readonly description: string;
}

/** An ICD-9-CM code with its v32 titles. */
export interface Icd9Detail {
  readonly system: typeof CodeSystem.ICD9CM_DX | typeof CodeSystem.ICD9CM_PROC;
  readonly code: string;
  readonly shortTitle: string | null;
  readonly longTitle: string | null;
  readonly validFrom: string;
  readonly validTo: string | null;
  readonly release: string;
}

export interface MappingQueries {
  /**
   * GEM rows whose source is `code`, in file order.
   * @param date - use the GEM release in force on this date; @default the newest loaded release (the GEMs end at
   *   FY2018), read from an in-memory copy of each GEM file loaded on first use
   */
  gemsBySource(kind: GemKind, direction: GemDirection, code: string, date?: string): GemRow[];
  /** GEM rows whose target is `code`, in file order (e.g. which ICD-10 codes the backward GEM sends to an ICD-9 code). */
  gemsByTarget(kind: GemKind, direction: GemDirection, code: string, date?: string): GemRow[];
  /**
   * GEM rows whose source lies between `first` and `last`, the last bound read as a prefix as in the conversion
   * table (`C4419`..`C4419` is every code under the header C44.19; `H02101`..`H02106` also takes `H021069`), by
   * source then file order. Used to follow a conversion link that names a header or a range.
   */
  gemsBySourceRange(kind: GemKind, direction: GemDirection, first: string, last: string, date?: string): GemRow[];
  /**
   * Conversion-table links from a current ICD-10-CM code to the code(s) it was previously assigned to.
   * @param date - use the table release in force on this date; @default the newest loaded table
   */
  previousCodes(code: string, date?: string): ConversionLink[];
  /** Conversion-table links whose previous code, range or category covers `code`: the codes that took it over. */
  laterCodes(code: string, date?: string): ConversionLink[];
  /** The POA exempt status of an ICD-10-CM code on a date; `undefined` when no POA list covers the date. */
  poaExempt(code: string, date: string): PoaExemptAnswer | undefined;
  /** Every change-list entry of a code, oldest first. */
  poaExemptChanges(code: string): PoaExemptChange[];
  /**
   * An ICD-9-CM code with its titles from the newest ICD-9 release (v32). Not filtered by date: ICD-9 codes are
   * invalid for services from 2015-10-01 and older dates are checked against v32 (domain.md section 4); callers decide.
   */
  icd9Detail(kind: Icd9Kind, code: string): Icd9Detail | undefined;
  /**
   * Reads the in-memory copies of the four GEM files and of the newest conversion table now instead of on their first
   * undated lookup.
   * @param gems - the GEM files too (default); `false` reads the conversion table alone
   */
  load(gems?: boolean): void;
}

interface GemDbRow {
  dataset: GemDataset;
  release: string;
  row_no: number;
  source: string;
  target: string | null;
  flags: string;
  approximate: number;
  no_map: number;
  combination: number;
  scenario: number;
  choice_list: number;
}

interface LinkDbRow {
  release: string;
  row_no: number;
  current_code: string;
  effective: string;
  previous_code: string | null;
  previous_last: string | null;
  previous_text: string;
}

const toGem = (r: GemDbRow): GemRow => ({
  dataset: r.dataset,
  release: r.release,
  rowNo: r.row_no,
  source: r.source,
  target: r.target,
  flags: r.flags,
  approximate: r.approximate,
  noMap: r.no_map,
  combination: r.combination,
  scenario: r.scenario,
  choiceList: r.choice_list,
  isNotMappable: r.target === null || r.no_map === 1,
});

const toLink = (r: LinkDbRow): ConversionLink => ({
  release: r.release,
  rowNo: r.row_no,
  currentCode: r.current_code,
  effective: r.effective,
  previousCode: r.previous_code,
  previousLast: r.previous_last,
  previousText: r.previous_text,
});


/**
 * Prepares the mapping lookups on a (read-only) reference database. Lookups over tables the database does not have
 * (their loader did not run) return nothing.
 * @param db - the reference database
 * @param codes - the code lookups of the same connection (ICD-9-CM detail reads their in-memory tables)
 */
export function createMappingQueries(
  db: Database.Database,
  codes: CodeQueries = createCodeQueries(db),
): MappingQueries {
  // Rows of one release: the one in force on @date, or the newest loaded when @date is NULL.
  const releaseFilter = (alias: string, dataset: string): string => `(
    CASE WHEN @date IS NULL
      THEN ${alias}.valid_from = (SELECT max(valid_from) FROM source WHERE dataset = ${dataset})
      ELSE ${alias}.valid_from <= @date AND (${alias}.valid_to IS NULL OR ${alias}.valid_to >= @date) END)`;
  const gemCols = `g.dataset, s.release, g.row_no, g.source, g.target, g.flags, g.approximate, g.no_map, g.combination,
    g.scenario, g.choice_list FROM gem g JOIN source s ON s.id = g.source_id`;
  // Two forms of each GEM lookup: on a date, or (no date) in the newest release, whose valid_from is read once per
  // dataset and bound as a constant. The constant keeps the scan on gem_by_source/gem_by_target in row order
  // (dataset, code, valid_from, row_no): no per-call subquery and no sort, 11 -> 7 us a lookup.
  const gemStatements = (where: string, order: string): { dated: Database.Statement; newest: Database.Statement } => ({
    dated: db.prepare(`SELECT ${gemCols} WHERE ${where} AND ${releaseFilter('g', '@dataset')} ORDER BY ${order}`),
    newest: db.prepare(`SELECT ${gemCols} WHERE ${where} AND g.valid_from = @newest ORDER BY ${order}`),
  });
  const gem = hasTable(db, 'gem')
    ? {
        bySource: gemStatements('g.dataset = @dataset AND g.source = @code', 'g.row_no'),
        byTarget: gemStatements('g.dataset = @dataset AND g.target = @code', 'g.row_no'),
        // `@upper` (the last bound followed by a character above Z) keeps the scan on the index; the substr test is
        // the prefix rule itself.
        bySourceRange: gemStatements(
          'g.dataset = @dataset AND g.source >= @first AND g.source < @upper AND substr(g.source, 1, length(@last)) <= @last',
          'g.source, g.row_no',
        ),
      }
    : undefined;
  const newestOf = db.prepare('SELECT max(valid_from) FROM source WHERE dataset = ?').pluck();
  const newestRelease = new Map<string, string | null>();
  /** Runs a GEM lookup on `date`, or in the newest release of the dataset when no date is given. */
  const gemRows = (
    statements: { dated: Database.Statement; newest: Database.Statement } | undefined,
    params: { dataset: string } & Record<string, string>, // a fresh object, completed here
    date: string | undefined,
  ): GemRow[] => {
    if (statements === undefined) {
      return [];
    }
    if (date !== undefined) {
      params['date'] = date;
      return (statements.dated.all(params) as GemDbRow[]).map(toGem);
    }
    let newest = newestRelease.get(params.dataset);
    if (newest === undefined) {
      newest = (newestOf.get(params.dataset) as string | null) ?? null;
      newestRelease.set(params.dataset, newest);
    }
    if (newest === null) {
      return [];
    }
    params['newest'] = newest;
    return (statements.newest.all(params) as GemDbRow[]).map(toGem);
  };

  const linkCols = `s.release, c.row_no, c.seq, c.current_code, c.effective, c.previous_code, c.previous_last, c.previous_text
    FROM icd10cm_conversion c JOIN source s ON s.id = c.source_id`;
  const conversionRelease = releaseFilter('c', "'icd10cm-conversion'");
  const conversion = hasTable(db, 'icd10cm_conversion')
    ? {
        previous: db.prepare(
          `SELECT ${linkCols} WHERE c.current_code = @code AND ${conversionRelease} ORDER BY c.row_no, c.seq`,
        ),
        // A single previous code by its index; a range or category (few rows, their own index) when the code lies
        // between its bounds, the last bound read as a prefix (`I63` covers `I6302`).
        later: db.prepare(
          `SELECT * FROM (
             SELECT ${linkCols} WHERE c.previous_code = @code AND c.previous_last IS NULL AND ${conversionRelease}
             UNION ALL
             SELECT ${linkCols} WHERE c.previous_last IS NOT NULL AND c.previous_code <= @code
               AND substr(@code, 1, length(c.previous_last)) <= c.previous_last AND ${conversionRelease})
           ORDER BY release, row_no, seq`,
        ),
      }
    : undefined;
  // The newest table's links by current code, in memory (GemsMap follows them for every code newer than the GEMs):
  // ~6,000 rows read once instead of a statement run per code.
  let newestLinks: Map<string, ConversionLink[]> | undefined;
  const newestLinksOf = (code: string): ConversionLink[] => {
    if (newestLinks === undefined) {
      // Grouped aside and kept only once complete: a read that throws leaves nothing half-loaded behind.
      const rows = conversion
        ? (db
            .prepare(
              `SELECT ${linkCols} WHERE c.valid_from = (SELECT max(valid_from) FROM source WHERE dataset = 'icd10cm-conversion')
               ORDER BY c.row_no, c.seq`,
            )
            .all() as LinkDbRow[])
        : [];
      newestLinks = groupBy(rows.map(toLink), (link) => link.currentCode);
    }
    return newestLinks.get(code)?.slice() ?? [];
  };

  const poa = hasTable(db, 'poa_exempt')
    ? {
        list: db.prepare(
          `SELECT release FROM source WHERE dataset = 'icd10cm-poa-exempt' AND valid_from <= @date
             AND (valid_to IS NULL OR valid_to >= @date) ORDER BY valid_from DESC LIMIT 1`,
        ),
        entries: db
          .prepare(
            'SELECT code, description FROM poa_exempt WHERE valid_from <= @date AND (valid_to IS NULL OR valid_to >= @date)',
          )
          .raw(),
        changes: db.prepare(
          `SELECT p.code, p.action, s.release, p.valid_from, p.description FROM poa_exempt_change p JOIN source s ON s.id = p.source_id
           WHERE p.code = ? ORDER BY p.valid_from, p.line`,
        ),
      }
    : undefined;
  // The list in force and a code's entry change only where a POA list release or an entry starts or stops: answers
  // are kept per period between those dates (periods.ts).
  const poaChanges = changesBy(
    changeDatesSearch(db, 'poa_exempt', '1', 'icd10cm-poa-exempt'),
    false,
  );
  // The list in force in each period, read whole on its first ask (~38,000 codes, ~40 ms): a night's claims carry
  // tens of thousands of distinct diagnoses, and two lookups per code and period cost more than the whole list.
  const poaListIn = perPeriod<{ release: string; codes: Map<string, string> } | null>(() => poaChanges(''));

  // The newest release of each GEM file, in memory (gem-memory.ts); `null` when none is loaded.
  const files = new Map<GemDataset, GemFile | null>();
  const fileOf = (dataset: GemDataset): GemFile | null => {
    let file = files.get(dataset);
    if (file === undefined) {
      const newest = gem ? (newestOf.get(dataset) as string | null) : null;
      file = newest === null ? null : loadGemFile(db, dataset, newest);
      files.set(dataset, file);
    }
    return file;
  };

  return {
    gemsBySource: (kind, direction, code, date) =>
      date === undefined
        ? (fileOf(GEM_DATASETS[kind][direction])?.rowsOf(normaliseCode(code)) ?? [])
        : gemRows(gem?.bySource, { dataset: GEM_DATASETS[kind][direction], code: normaliseCode(code) }, date),
    gemsByTarget: (kind, direction, code, date) =>
      gemRows(gem?.byTarget, { dataset: GEM_DATASETS[kind][direction], code: normaliseCode(code) }, date),
    gemsBySourceRange(kind, direction, first, last, date) {
      const dataset = GEM_DATASETS[kind][direction];
      const lastCode = normaliseCode(last);
      if (date === undefined) {
        return fileOf(dataset)?.rowsInRange(normaliseCode(first), lastCode) ?? [];
      }
      const params = { dataset, first: normaliseCode(first), last: lastCode, upper: `${lastCode}~` };
      return gemRows(gem?.bySourceRange, params, date);
    },
    previousCodes: (code, date) =>
      date === undefined
        ? newestLinksOf(normaliseCode(code))
        : ((conversion?.previous.all({ code: normaliseCode(code), date }) ?? []) as LinkDbRow[]).map(toLink),
    laterCodes: (code, date) =>
      ((conversion?.later.all({ code: normaliseCode(code), date: date ?? null }) ?? []) as LinkDbRow[]).map(toLink),
    poaExempt(code, date) {
      if (!poa) {
        return undefined;
      }
      const list = poaListIn('', date, () => {
        const found = poa.list.get({ date }) as { release: string } | undefined;
        if (!found) {
          return null;
        }
        const rows = poa.entries.all({ date }) as [string, string][];
        return { release: found.release, codes: new Map(rows) };
      });
      if (list === null) {
        return undefined;
      }
      const normalised = normaliseCode(code);
      const description = list.codes.get(normalised);
      return { code: normalised, exempt: description !== undefined, release: list.release, description: description ?? null };
    },
    poaExemptChanges: (code) =>
      (
        (poa?.changes.all(normaliseCode(code)) ?? []) as {
          code: string;
          action: PoaExemptChange['action'];
          release: string;
          valid_from: string;
          description: string;
        }[]
      ).map((r) => ({
        code: r.code,
        action: r.action,
        release: r.release,
        validFrom: r.valid_from,
        description: r.description,
      })),
    icd9Detail(kind, code) {
      const system = kind === 'dx' ? CodeSystem.ICD9CM_DX : CodeSystem.ICD9CM_PROC;
      const newest = codes.history(system, normaliseCode(code)).at(-1);
      return newest
        ? {
            system,
            code: newest.code,
            shortTitle: newest.shortTitle,
            longTitle: newest.longTitle,
            validFrom: newest.validFrom,
            validTo: newest.validTo,
            release: newest.lastRelease,
          }
        : undefined;
    },
    load(gems = true) {
      if (gems) {
        for (const dataset of Object.values(GemDataset)) {
          fileOf(dataset);
        }
      }
      newestLinksOf('');
    },
  };
}
