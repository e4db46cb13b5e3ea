// Read side of the versioned code table: a code on a date, its history, its children and ancestors, and the releases
// of each code system. The lookups every code check makes (on a date, history, billable descendants, which systems
// know a code) read an in-memory copy of the system's rows, loaded on first use (code-memory.ts); the rest are
// statements prepared once per connection, point queries or range scans on the (system, code, valid_from) key.
import type Database from 'better-sqlite3';
import { CodeSystem } from '../../schemas/code-systems.js';
import {
  billableUnder,
  loadCodeTable,
  versionOn,
  versionsOf,
  type BillableDescendants,
  type CodeTable,
  type CodeVersion,
} from './code-memory.js';
import { readChangeDays } from './change-days.js';
import { periodStart } from './periods.js';

export type { BillableDescendants, CodeVersion } from './code-memory.js';

/** One loaded release of a code system (one order/title file), oldest first. */
export interface CodeRelease {
  readonly release: string;
  readonly validFrom: string;
  readonly validTo: string | null;
}

/** A filter over the codes of one system; the filters given AND together. */
export interface CodeSearch {
  /** Only these codes (normalised). */
  readonly codes?: readonly string[] | undefined;
  /** Codes from `first` to `last`, both inclusive (normalised). */
  readonly range?: { readonly first: string; readonly last: string } | undefined;
  /** Words that must all occur, case-insensitively, in the long or the short title. */
  readonly words?: readonly string[] | undefined;
  /** As-of date: each code is answered by its version in force then, or (see `includeEnded`) its last version. */
  readonly date: string;
  /** Also answer codes whose last version ended before `date`. Codes that start after `date` never qualify. */
  readonly includeEnded: boolean;
  /** Codes to skip, in code order (0-based). */
  readonly offset: number;
  /** At most this many codes. */
  readonly limit: number;
}

interface Row {
  system: CodeSystem;
  code: string;
  valid_from: string;
  valid_to: string | null;
  billable: number;
  short_title: string | null;
  long_title: string | null;
  first_release: string;
  last_release: string;
}

const columns = `c.system, c.code, c.valid_from, c.valid_to, c.billable, c.short_title, c.long_title,
  f.release AS first_release, l.release AS last_release
  FROM code c JOIN source f ON f.id = c.first_source_id JOIN source l ON l.id = c.last_source_id`;

/**
 * The `source.dataset` names whose releases make up each code system, as the loaders write them (icd10-order,
 * icd9cm, hcpcs, cpt-user). HCPCS and CPT codes carry their own added and termination dates.
 */
const SYSTEM_DATASETS: Record<CodeSystem, readonly string[]> = {
  ICD10CM: ['icd10cm-order'],
  ICD10PCS: ['icd10pcs-order'],
  ICD9CM_DX: ['icd9cm-dx'],
  ICD9CM_PROC: ['icd9cm-proc'],
  HCPCS: ['hcpcs'],
  CPT: ['cpt-user'],
};

const toVersion = (r: Row): CodeVersion => ({
  system: r.system,
  code: r.code,
  validFrom: r.valid_from,
  validTo: r.valid_to,
  billable: r.billable === 1,
  shortTitle: r.short_title,
  longTitle: r.long_title,
  firstRelease: r.first_release,
  lastRelease: r.last_release,
});

export interface CodeQueries {
  /** The version of `code` in force on `date`, if any. `code` must be normalised (upper-case, undotted). */
  onDate(system: CodeSystem, code: string, date: string): CodeVersion | undefined;
  /** Batch form of `onDate`: one entry per code that exists on the date. */
  manyOnDate(system: CodeSystem, codes: readonly string[], date: string): Map<string, CodeVersion>;
  /** Every interval of a code, oldest first (empty when the code never existed in a loaded release). */
  history(system: CodeSystem, code: string): readonly CodeVersion[];
  /** Batch form of `history`: one entry (intervals oldest first) per code that exists in any loaded release. */
  manyHistory(system: CodeSystem, codes: readonly string[]): Map<string, readonly CodeVersion[]>;
  /** Direct children of a code that are in force on `date`. */
  children(system: CodeSystem, code: string, date: string): CodeVersion[];
  /**
   * Billable descendants of a code in force on `date`, in order-file order, at most `limit`. The hierarchy is by
   * prefix (`code_parent` links a code to its longest proper prefix that is a code), so these are the billable codes
   * `code` is a proper prefix of; for a prefix that is not itself a code (an ICD-9-CM category, which the v32 files
   * do not list) the same rule gives the billable codes under it.
   */
  billableDescendants(system: CodeSystem, code: string, date: string, limit: number): CodeVersion[];
  /**
   * Batch form of `billableDescendants` for header lists: per code that has any, the first `limit` billable
   * descendants in force on `date` (codes only, in code order) and their total count.
   */
  manyBillableDescendants(
    system: CodeSystem,
    codes: readonly string[],
    date: string,
    limit: number,
  ): Map<string, BillableDescendants>;
  /** Ancestors of a code, nearest first (`S72001A` → `S72001`, `S7200`, `S720`, `S72`). */
  ancestors(system: CodeSystem, code: string): string[];
  /** The systems in which a (normalised) code exists in any loaded release. */
  systemsOf(code: string): CodeSystem[];
  /** The loaded releases of a code system, oldest first (empty when none is loaded). */
  releases(system: CodeSystem): CodeRelease[];
  /**
   * Reads the in-memory copies of the given systems' codes now (all systems when none are named) instead of on their
   * first lookup, so a server's first requests do not wait for them.
   */
  load(systems?: readonly CodeSystem[]): void;
  /** Codes of a system matching a filter, in code order, one page at a time, with the count before paging. */
  find(system: CodeSystem, search: CodeSearch): { readonly total: number; readonly versions: CodeVersion[] };
  /**
   * The first day of the stretch of days `date` (ISO) is in over which no row a per-code lookup reads (codes, HCPCS,
   * OPPS, MCE, Tabular List, NCCI edits, lab NCDs...) starts or ends (change-days.ts; `''` before the first): such
   * lookups answer alike for the dates of one epoch. The days are read on first use, or by `load`.
   */
  epochOf(date: string): string;
}

/** Prepares the code lookups on a (read-only) reference database. */
export function createCodeQueries(db: Database.Database): CodeQueries {
  const children = db.prepare(
    `SELECT ${columns} JOIN code_parent p ON p.system = c.system AND p.code = c.code
     WHERE p.system = ? AND p.parent = ? AND c.valid_from <= ? AND (c.valid_to IS NULL OR c.valid_to >= ?)
     ORDER BY c.ord, c.code`,
  );
  // A range scan on the key: `@upper` is the code followed by a character above Z, so the range holds exactly the
  // codes that start with it (a recursive walk of code_parent found the same rows ~1,000 times slower).
  const descendants = db.prepare(
    `SELECT ${columns}
     WHERE c.system = @system AND c.code > @code AND c.code < @upper
       AND c.billable = 1 AND c.valid_from <= @date AND (c.valid_to IS NULL OR c.valid_to >= @date)
     ORDER BY c.ord, c.code LIMIT @limit`,
  );
  const ancestors = db.prepare(
    `WITH RECURSIVE a(code, parent, depth) AS (
       SELECT code, parent, 1 FROM code_parent WHERE system = @system AND code = @code
       UNION ALL SELECT p.code, p.parent, a.depth + 1 FROM code_parent p JOIN a ON p.code = a.parent WHERE p.system = @system)
     SELECT parent FROM a ORDER BY depth`,
  );
  // Each code's version in force on the date, else its last version ended before it.
  const findRows = `WITH picked AS (
      SELECT c.system, c.code, c.valid_from, c.valid_to, c.billable, c.short_title, c.long_title,
        f.release AS first_release, l.release AS last_release,
        row_number() OVER (PARTITION BY c.code ORDER BY (c.valid_to IS NULL OR c.valid_to >= @date) DESC, c.valid_from DESC) AS pick
      FROM code c JOIN source f ON f.id = c.first_source_id JOIN source l ON l.id = c.last_source_id
      WHERE c.system = @system AND c.valid_from <= @date AND (@ended = 1 OR c.valid_to IS NULL OR c.valid_to >= @date)
        AND (@codes IS NULL OR c.code IN (SELECT value FROM json_each(@codes)))
        AND (@first IS NULL OR (c.code >= @first AND c.code <= @last))
        AND (@words IS NULL OR NOT EXISTS (SELECT 1 FROM json_each(@words) w
          WHERE instr(lower(coalesce(c.long_title, '') || ' ' || coalesce(c.short_title, '')), w.value) = 0)))`;
  const findPage = db.prepare(
    `${findRows} SELECT * FROM picked WHERE pick = 1 ORDER BY code LIMIT @limit OFFSET @offset`,
  );
  const findCount = db.prepare(`${findRows} SELECT count(*) AS n FROM picked WHERE pick = 1`);
  const releaseRows = db.prepare(
    `SELECT release, valid_from AS validFrom, valid_to AS validTo FROM source
     WHERE dataset IN (SELECT value FROM json_each(@datasets)) ORDER BY valid_from, id`,
  );
  // Release names by source id, read once: the in-memory code tables resolve them here instead of joining `source`.
  const releaseOf = new Map(
    (db.prepare('SELECT id, release FROM source').raw().all() as [number, string][]).map(([id, release]) => [
      id,
      release,
    ]),
  );
  const tables = new Map<CodeSystem, CodeTable>();
  const tableOf = (system: CodeSystem): CodeTable => {
    let table = tables.get(system);
    if (table === undefined) {
      table = loadCodeTable(db, system, releaseOf);
      tables.set(system, table);
    }
    return table;
  };
  const allSystems = Object.values(CodeSystem).sort();
  let changeDays: readonly string[] | undefined;
  // The last date asked and its epoch: a claim's lines, and a file's claims, repeat their dates.
  let lastDate = '';
  let lastEpoch = '';
  const NONE: readonly CodeVersion[] = Object.freeze([]);
  const releasesBySystem = new Map<CodeSystem, CodeRelease[]>();
  return {
    onDate: (system, code, date) => versionOn(versionsOf(tableOf(system), code), date),
    manyOnDate(system, codes, date) {
      const table = tableOf(system);
      const found = new Map<string, CodeVersion>();
      for (const code of codes) {
        const version = versionOn(versionsOf(table, code), date);
        if (version) {
          found.set(code, version);
        }
      }
      return found;
    },
    history: (system, code) => versionsOf(tableOf(system), code) ?? NONE,
    manyHistory(system, codes) {
      const table = tableOf(system);
      const found = new Map<string, readonly CodeVersion[]>();
      for (const code of codes) {
        const list = versionsOf(table, code);
        if (list) {
          found.set(code, list);
        }
      }
      return found;
    },
    children: (system, code, date) => (children.all(system, code, date, date) as Row[]).map(toVersion),
    billableDescendants: (system, code, date, limit) =>
      (descendants.all({ system, code, upper: `${code}~`, date, limit }) as Row[]).map(toVersion),
    manyBillableDescendants(system, codes, date, limit) {
      const table = tableOf(system);
      const found = new Map<string, BillableDescendants>();
      for (const code of codes) {
        if (!found.has(code)) {
          const under = billableUnder(table, code, date, limit);
          if (under) {
            found.set(code, under);
          }
        }
      }
      return found;
    },
    ancestors: (system, code) => (ancestors.all({ system, code }) as { parent: string }[]).map((r) => r.parent),
    systemsOf: (code) => allSystems.filter((system) => versionsOf(tableOf(system), code) !== undefined),
    load(systems = allSystems) {
      for (const system of systems) {
        tableOf(system);
      }
      changeDays ??= readChangeDays(db);
    },
    epochOf(date) {
      if (date !== lastDate) {
        changeDays ??= readChangeDays(db);
        lastEpoch = periodStart(changeDays, date);
        lastDate = date;
      }
      return lastEpoch;
    },
    find(system, search) {
      const params = {
        system,
        date: search.date,
        ended: search.includeEnded ? 1 : 0,
        codes: search.codes ? JSON.stringify(search.codes) : null,
        first: search.range?.first ?? null,
        last: search.range?.last ?? null,
        words:
          search.words && search.words.length > 0 ? JSON.stringify(search.words.map((w) => w.toLowerCase())) : null,
      };
      const total = (findCount.get(params) as { n: number }).n;
      const rows = findPage.all({ ...params, limit: search.limit, offset: search.offset }) as Row[];
      return { total, versions: rows.map(toVersion) };
    },
    releases(system) {
      let found = releasesBySystem.get(system);
      if (!found) {
        found = releaseRows.all({ datasets: JSON.stringify(SYSTEM_DATASETS[system]) }) as CodeRelease[];
        releasesBySystem.set(system, found);
      }
      return found;
    },
  };
}
