// An in-memory copy of one code system's rows of the `code` table, read in one scan the first time the system is
// asked about on a connection. The reference database is read-only, so the copy never goes stale. It exists for
// speed: a point lookup through better-sqlite3 costs 2.5-12 us (statement run, one JS array and eight strings per
// row), a Map lookup here well under 1 us, and CodeDetail, GemsMap titles and header lists make several per code.
//
//   SELECT … FROM code WHERE system = ? ORDER BY code, valid_from   (one scan, a string per row; see tableRows)
//        ─► codes: the distinct codes in key order (binary search for prefix ranges: a header's descendants)
//        ─► versionsAt: each code's intervals oldest first, as CodeVersion objects shared by every answer
//        ─► index: code → its position (code-index.ts: codes as numbers in an open-addressing table)
//
// Dates repeat across rows (a few dozen distinct release dates), so each date string is kept once.
import type Database from 'better-sqlite3';
import type { CodeSystem } from '../../schemas/code-systems.js';
import { firstInForce } from '../../schemas/validity.js';
import { codeIndex, positionOf, type CodeIndex } from './code-index.js';
import { interner } from './interner.js';

/** One validity interval of a code. `validTo` null means still in force in the newest loaded release. */
export interface CodeVersion {
  readonly system: CodeSystem;
  readonly code: string;
  readonly validFrom: string;
  readonly validTo: string | null;
  readonly billable: boolean;
  readonly shortTitle: string | null;
  readonly longTitle: string | null;
  /** Release the interval starts in (e.g. `FY2024`) and the last release that still lists it. */
  readonly firstRelease: string;
  readonly lastRelease: string;
}

/** The first billable descendants of a code (in code order) and how many it has in all. */
export interface BillableDescendants {
  readonly codes: readonly string[];
  readonly total: number;
}

/** One code system's rows, in memory. */
export interface CodeTable {
  readonly system: CodeSystem;
  /** Distinct codes in key order: byte order, as SQLite's BINARY collation sorts these ASCII codes. */
  readonly codes: readonly string[];
  /** Every interval of each code, oldest first, by position in `codes`. */
  readonly versionsAt: readonly (readonly CodeVersion[])[];
  /** Position of each code in `codes`. */
  readonly index: CodeIndex;
  /** Distinct `validFrom` and `validTo` values, sorted: the dates on which some code's validity changes. */
  readonly starts: readonly string[];
  readonly ends: readonly string[];
  /** Billable flags per epoch (see {@link billableOn}), filled on demand. */
  readonly views: Map<string, BillableView>;
}

/** Which codes of a table are billable and in force on a date, with running counts for range totals. */
interface BillableView {
  /** 1 where `codes[i]` has a billable version in force. */
  readonly billable: Uint8Array;
  /** `before[i]`: how many of `codes[0..i)` are billable (length codes.length + 1). */
  readonly before: Int32Array;
}

type TableRow = [string, string, string | null, number, string | null, string | null, number, number];

/** The columns of a TableRow, in its order; those that may be NULL are marked. */
const TABLE_COLUMNS = [
  ['code', false],
  ['valid_from', false],
  ['valid_to', true],
  ['billable', false],
  ['short_title', true],
  ['long_title', true],
  ['first_source_id', false],
  ['last_source_id', false],
] as const;
const ROWS_OF_SYSTEM = 'FROM code WHERE system = ? ORDER BY code, valid_from';
/** Between the columns of a joined row (no code, date or title holds it). */
const SEP = '\u001f';
/** A NULL in a joined row. */
const NULL_MARK = '\u001e';
const columnNames = TABLE_COLUMNS.map(([c]) => c);
const nullableNames = TABLE_COLUMNS.filter(([, nullable]) => nullable).map(([c]) => c);
const joinedColumns = TABLE_COLUMNS.map(([c, nullable]) => (nullable ? `ifnull(${c}, char(30))` : c));
/** The rows as their columns. */
const PLAIN_ROWS = `SELECT ${columnNames.join(', ')} ${ROWS_OF_SYSTEM}`;
/** Each row as one string: its columns joined by SEP, NULL as NULL_MARK, and one SEP more when a value is NULL_MARK. */
const JOINED_ROWS = `SELECT ${joinedColumns.join(' || char(31) || ')} ||
  CASE WHEN char(30) IN (${nullableNames.join(', ')}) THEN char(31) ELSE '' END ${ROWS_OF_SYSTEM}`;

/**
 * One code system's rows of the `code` table, in key order. Read as one string per row, joined by SQLite and split
 * here: better-sqlite3 makes an array and eight values per row, which was about 40% more time for the 98,309 rows of
 * ICD-10-CM (230 against 350-400 ms warm, 2026-11-27), in a load every worker thread and the server make. A row
 * that does not split into its columns (a separator in a title, or a value that is the NULL mark: SQL adds a
 * separator then) has the table read the plain way.
 */
function tableRows(db: Database.Database, system: CodeSystem): TableRow[] {
  const joined = db.prepare(JOINED_ROWS).pluck().all(system) as string[];
  const orNull = (value: string): string | null => (value === NULL_MARK ? null : value);
  const rows = new Array<TableRow>(joined.length);
  for (let i = 0; i < joined.length; i++) {
    const p = (joined[i] as string).split(SEP);
    if (p.length !== TABLE_COLUMNS.length) {
      return db.prepare(PLAIN_ROWS).raw().all(system) as TableRow[];
    }
    rows[i] = [
      p[0] as string,
      p[1] as string,
      orNull(p[2] as string),
      Number(p[3]),
      orNull(p[4] as string),
      orNull(p[5] as string),
      Number(p[6]),
      Number(p[7]),
    ];
  }
  return rows;
}

/**
 * Reads one code system's rows into memory.
 * @param db - the reference database
 * @param system - the code system
 * @param releaseOf - release name of each `source.id`
 */
export function loadCodeTable(
  db: Database.Database,
  system: CodeSystem,
  releaseOf: ReadonlyMap<number, string>,
): CodeTable {
  const rows = tableRows(db, system);
  const once = interner();
  const codes: string[] = [];
  const versionsAt: CodeVersion[][] = [];
  for (const [code, validFrom, validTo, billable, shortTitle, longTitle, firstId, lastId] of rows) {
    const version: CodeVersion = {
      system,
      code,
      validFrom: once(validFrom),
      validTo: validTo === null ? null : once(validTo),
      billable: billable === 1,
      shortTitle,
      longTitle,
      firstRelease: releaseOf.get(firstId) ?? '',
      lastRelease: releaseOf.get(lastId) ?? '',
    };
    const last = versionsAt.at(-1);
    if (last !== undefined && codes.at(-1) === code) {
      last.push(version);
    } else {
      codes.push(code);
      versionsAt.push([version]);
    }
  }
  const sorted = (values: Iterable<string>): string[] => [...new Set(values)].sort();
  const all = versionsAt.flat();
  return {
    system,
    codes,
    versionsAt,
    index: codeIndex(codes),
    starts: sorted(all.map((v) => v.validFrom)),
    ends: sorted(all.flatMap((v) => (v.validTo === null ? [] : [v.validTo]))),
    views: new Map(),
  };
}

/** Every interval of a code, oldest first; `undefined` when the table does not have it. */
export function versionsOf(table: CodeTable, code: string): readonly CodeVersion[] | undefined {
  const at = positionOf(table.index, code);
  return at < 0 ? undefined : table.versionsAt[at];
}

/** The interval in force on `date` (the oldest, should intervals ever overlap), if any. */
export const versionOn: (versions: readonly CodeVersion[] | undefined, date: string) => CodeVersion | undefined =
  firstInForce;

/** Index of the first string of `sorted` that is not below `key`. */
export function lowerBound(sorted: readonly string[], key: string): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((sorted[mid] as string) < key) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

/** Views kept per table; past this many epochs the kept ones are dropped. */
const MAX_VIEWS = 32;

/**
 * The table's billable flags on `date`. Whether a version is in force depends only on how the date compares with the
 * validFrom and validTo values of the table, so dates that fall between the same two of them (an "epoch", usually a
 * whole release year) share one view: a claim file's many dates of service cost a few views, not one each.
 */
function billableOn(table: CodeTable, date: string): BillableView {
  // Epoch: how many starts are on or before the date, how many ends are before it.
  const startsBefore = lowerBound(table.starts, `${date}~`);
  const endsBefore = lowerBound(table.ends, date);
  const epoch = `${String(startsBefore)}/${String(endsBefore)}`;
  let view = table.views.get(epoch);
  if (view === undefined) {
    const n = table.codes.length;
    const billable = new Uint8Array(n);
    const before = new Int32Array(n + 1);
    for (let i = 0; i < n; i++) {
      const on = versionOn(table.versionsAt[i], date)?.billable === true;
      billable[i] = on ? 1 : 0;
      before[i + 1] = (before[i] as number) + (on ? 1 : 0);
    }
    view = { billable, before };
    if (table.views.size >= MAX_VIEWS) {
      table.views.clear();
    }
    table.views.set(epoch, view);
  }
  return view;
}

/**
 * The billable codes in force on `date` that `prefix` is a proper prefix of: the first `limit` in code order and how
 * many there are; `undefined` when there are none. Two binary searches and a count from the date's view; the first
 * codes are read from the start of the range.
 */
export function billableUnder(
  table: CodeTable,
  prefix: string,
  date: string,
  limit: number,
): BillableDescendants | undefined {
  const { codes } = table;
  let start = lowerBound(codes, prefix);
  if (codes[start] === prefix) {
    start += 1; // a proper prefix: the code itself is not its own descendant
  }
  // Every code is [0-9A-Z]: those that start with the prefix sort before the prefix followed by `~`.
  const end = lowerBound(codes, `${prefix}~`);
  if (end <= start) {
    return undefined;
  }
  const { billable, before } = billableOn(table, date);
  const total = (before[end] as number) - (before[start] as number);
  if (total === 0) {
    return undefined;
  }
  const first: string[] = [];
  for (let i = start; i < end && first.length < limit; i++) {
    if (billable[i] === 1) {
      first.push(codes[i] as string);
    }
  }
  return { codes: first, total };
}
