// An in-memory copy of one GEM file (the newest loaded release of one dataset), read in one query the first time
// the dataset is asked about on a connection. GemsMap reads the rows of every requested code, and through
// better-sqlite3 a lookup cost 7 us (a statement run and eleven values a row); here it is a map probe and a few
// array reads. The rows are kept column by column (~100 bytes a row with the source map) rather than as 281,071
// objects, and a lookup builds the GemRow objects it returns (each flag is the digit of `flags` at its position, as
// the loader stores it).
//
//   SELECT … FROM gem WHERE dataset = ? AND valid_from = <newest> ORDER BY source, row_no
//        ─► columns: source, row_no, target, flags (the five digits as printed), release
//        ─► first: source code → index of its first row (its rows follow, in file order)
import type Database from 'better-sqlite3';
import type { GemDataset } from '../../schemas/gems.js';
import { codeIndex, positionOf } from './code-index.js';
import { lowerBound } from './code-memory.js';
import { interner } from './interner.js';

/** One GEM row, as printed in its file. */
export interface GemRow {
  readonly dataset: GemDataset;
  readonly release: string;
  /** Line number in the GEM file: rows of one source code come back in this (file) order. */
  readonly rowNo: number;
  readonly source: string;
  /** Target code; `null` when the file prints a no-map sentinel (`NoDx`, `NoPCS`, `NoI9`). */
  readonly target: string | null;
  /** The five flag digits as printed: approximate, no map, combination, scenario, choice list. */
  readonly flags: string;
  readonly approximate: number;
  readonly noMap: number;
  readonly combination: number;
  readonly scenario: number;
  readonly choiceList: number;
  /** No-map flag set or sentinel target: a sentinel means no map whatever the flag says (domain.md section 5). */
  readonly isNotMappable: boolean;
}

/** The rows of one GEM release, by source code. */
export interface GemFile {
  /** Rows whose source is `code` (normalised), in file order; empty when it has none. */
  rowsOf(code: string): GemRow[];
  /**
   * Rows whose source lies between `first` and `last` (normalised), the last bound read as a prefix (`H02106` also
   * takes `H021069`), by source then file order.
   */
  rowsInRange(first: string, last: string): GemRow[];
  /** How many rows the file has. */
  readonly size: number;
}

type FileRow = [string, number, string | null, string, number];

/**
 * Reads one GEM release into memory.
 * @param db - the reference database
 * @param dataset - the GEM dataset (file)
 * @param validFrom - the release's `valid_from`
 */
export function loadGemFile(db: Database.Database, dataset: GemDataset, validFrom: string): GemFile {
  const rows = db
    .prepare(
      `SELECT source, row_no, target, flags, source_id FROM gem
       WHERE dataset = ? AND valid_from = ? ORDER BY source, row_no`,
    )
    .raw()
    .all(dataset, validFrom) as FileRow[];
  const releaseOf = new Map(
    (db.prepare('SELECT id, release FROM source WHERE dataset = ?').raw().all(dataset) as [number, string][]).map(
      ([id, release]) => [id, release],
    ),
  );
  const n = rows.length;
  const sources: string[] = new Array<string>(n);
  const targets: (string | null)[] = new Array<string | null>(n);
  const flagText: string[] = new Array<string>(n);
  const releases: string[] = new Array<string>(n);
  const rowNo = new Int32Array(n);
  // Targets and flag strings repeat (a few thousand ICD-9 targets, a few dozen flag combinations): keep one of each.
  const once = interner();
  for (let i = 0; i < n; i++) {
    const [source, no, target, text, sourceId] = rows[i] as FileRow;
    if (i === 0 || sources[i - 1] !== source) {
      sources[i] = source;
    } else {
      sources[i] = sources[i - 1] as string;
    }
    rowNo[i] = no;
    targets[i] = target === null ? null : once(target);
    flagText[i] = once(text);
    releases[i] = releaseOf.get(sourceId) ?? '';
  }
  // Each source's first row: a source's rows are consecutive, and the index answers a repeated code's first position.
  const first = codeIndex(sources);
  // The loader stores each flag column as the digit of `flags` at its position, so the digits are read from the text.
  const rowAt = (i: number): GemRow => {
    const target = targets[i] ?? null;
    const flags = flagText[i] as string;
    const noMap = flags.charCodeAt(1) - 48;
    return {
      dataset,
      release: releases[i] as string,
      rowNo: rowNo[i] as number,
      source: sources[i] as string,
      target,
      flags,
      approximate: flags.charCodeAt(0) - 48,
      noMap,
      combination: flags.charCodeAt(2) - 48,
      scenario: flags.charCodeAt(3) - 48,
      choiceList: flags.charCodeAt(4) - 48,
      isNotMappable: target === null || noMap === 1,
    };
  };
  return {
    size: n,
    rowsOf(code) {
      const start = positionOf(first, code);
      const found: GemRow[] = [];
      for (let i = start < 0 ? n : start; i < n && sources[i] === code; i++) {
        found.push(rowAt(i));
      }
      return found;
    },
    rowsInRange(from, last) {
      // The rows are in source order: the range starts at the first source not below `from`.
      const lo = lowerBound(sources, from);
      const found: GemRow[] = [];
      for (let i = lo; i < n && (sources[i] as string).slice(0, last.length) <= last; i++) {
        found.push(rowAt(i));
      }
      return found;
    },
  };
}
