// Tables every reference database has: build metadata, the sources loaded (provenance of every row), the files
// skipped, and the versioned code table shared by the code-set loaders.
//
//   code_release   one row per code per release, as the order/title files say (written by loaders)
//        |  finalizeCodes(): merge consecutive releases with identical attributes
//        v
//   code           one row per code per validity interval [valid_from, valid_to] (NULL valid_to = still in force)
//   code_parent    hierarchy links: the longest proper prefix that is itself a code of the same system
import type Database from 'better-sqlite3';
import { dayBefore } from './dates.js';

/** Bumped when a table's shape changes; stored in `meta` and shown by `status`. */
export const SCHEMA_VERSION = 1;

export const coreDdl = `
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE source (
  id INTEGER PRIMARY KEY,
  dataset TEXT NOT NULL,
  loader TEXT NOT NULL,
  file TEXT NOT NULL,
  member TEXT,
  sha256 TEXT NOT NULL,
  size INTEGER NOT NULL,
  release TEXT NOT NULL,
  valid_from TEXT NOT NULL,
  valid_to TEXT,
  rows INTEGER NOT NULL DEFAULT 0,
  bytes INTEGER NOT NULL DEFAULT 0,
  load_ms INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE skipped_file (file TEXT PRIMARY KEY, sha256 TEXT NOT NULL, reason TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE code_release (
  system TEXT NOT NULL,
  code TEXT NOT NULL,
  valid_from TEXT NOT NULL,
  valid_to TEXT,
  billable INTEGER NOT NULL,
  short_title TEXT,
  long_title TEXT,
  ord INTEGER,
  source_id INTEGER NOT NULL REFERENCES source(id),
  PRIMARY KEY (system, code, valid_from)
) WITHOUT ROWID;
CREATE TABLE code (
  system TEXT NOT NULL,
  code TEXT NOT NULL,
  valid_from TEXT NOT NULL,
  valid_to TEXT,
  billable INTEGER NOT NULL,
  short_title TEXT,
  long_title TEXT,
  ord INTEGER,
  first_source_id INTEGER NOT NULL REFERENCES source(id),
  last_source_id INTEGER NOT NULL REFERENCES source(id),
  PRIMARY KEY (system, code, valid_from)
) WITHOUT ROWID;
CREATE TABLE code_parent (
  system TEXT NOT NULL,
  code TEXT NOT NULL,
  parent TEXT NOT NULL,
  PRIMARY KEY (system, code)
) WITHOUT ROWID;
CREATE INDEX code_parent_by_parent ON code_parent (system, parent);
`;

interface ReleaseRow {
  system: string;
  code: string;
  valid_from: string;
  valid_to: string | null;
  billable: number;
  short_title: string | null;
  long_title: string | null;
  ord: number | null;
  source_id: number;
}

/**
 * Merges `code_release` into validity intervals in `code`, and derives `code_parent`.
 * A code missing from a later release ends the day before that release starts (a deleted code keeps its history);
 * a changed title or billable flag starts a new interval (both titles are kept, each with its dates).
 */
export function finalizeCodes(db: Database.Database): void {
  const releases = new Map<string, { from: string; to: string | null }[]>();
  for (const r of db
    .prepare('SELECT system, valid_from AS "from", max(valid_to) AS "to" FROM code_release GROUP BY system, valid_from ORDER BY system, valid_from')
    .all() as { system: string; from: string; to: string | null }[]) {
    const list = releases.get(r.system) ?? [];
    list.push({ from: r.from, to: r.to });
    releases.set(r.system, list);
  }
  const insert = db.prepare(
    `INSERT INTO code (system, code, valid_from, valid_to, billable, short_title, long_title, ord, first_source_id, last_source_id)
     VALUES (@system, @code, @valid_from, @valid_to, @billable, @short_title, @long_title, @ord, @first_source_id, @last_source_id)`,
  );
  /** End of an interval whose last release is `last`: the day before the next release, or the release's own end. */
  const endAfter = (system: string, last: string): string | null => {
    const list = releases.get(system) ?? [];
    const i = list.findIndex((r) => r.from === last);
    const next = list[i + 1];
    return next ? dayBefore(next.from) : (list[i]?.to ?? null);
  };
  const nextRelease = (system: string, from: string): string | undefined => {
    const list = releases.get(system) ?? [];
    return list[list.findIndex((r) => r.from === from) + 1]?.from;
  };
  let open: (ReleaseRow & { first: number; lastFrom: string }) | undefined;
  const flush = (): void => {
    if (open) {
      insert.run({
        system: open.system,
        code: open.code,
        valid_from: open.valid_from,
        valid_to: endAfter(open.system, open.lastFrom),
        billable: open.billable,
        short_title: open.short_title,
        long_title: open.long_title,
        ord: open.ord,
        first_source_id: open.first,
        last_source_id: open.source_id,
      });
      open = undefined;
    }
  };
  // better-sqlite3 allows no write while a read iterates, so each system's rows are read whole (~100k rows).
  const rowsOf = db.prepare('SELECT * FROM code_release WHERE system = ? ORDER BY code, valid_from');
  const systems = [...releases.keys()];
  for (const row of systems.flatMap((system) => rowsOf.all(system) as ReleaseRow[])) {
    const continues =
      open !== undefined &&
      open.system === row.system &&
      open.code === row.code &&
      nextRelease(row.system, open.lastFrom) === row.valid_from &&
      open.billable === row.billable &&
      open.short_title === row.short_title &&
      open.long_title === row.long_title;
    if (continues && open) {
      open.lastFrom = row.valid_from;
      open.source_id = row.source_id;
      open.ord = row.ord;
    } else {
      flush();
      open = { ...row, first: row.source_id, lastFrom: row.valid_from };
    }
  }
  flush();
  // Hierarchy: category -> subcategory -> code, by the longest proper prefix that is a code of the same system.
  const known = new Set<string>();
  const codes = db.prepare('SELECT DISTINCT system, code FROM code').all() as { system: string; code: string }[];
  for (const c of codes) {
    known.add(`${c.system}|${c.code}`);
  }
  const link = db.prepare('INSERT INTO code_parent (system, code, parent) VALUES (?, ?, ?)');
  for (const c of codes) {
    for (let len = c.code.length - 1; len >= 3; len--) {
      const prefix = c.code.slice(0, len);
      if (known.has(`${c.system}|${prefix}`)) {
        link.run(c.system, c.code, prefix);
        break;
      }
    }
  }
}

/** Row count of every user table. */
export function countTables(db: Database.Database): Record<string, number> {
  const names = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'table_count' ORDER BY name")
    .all() as { name: string }[];
  const counts: Record<string, number> = {};
  for (const { name } of names) {
    counts[name] = (db.prepare(`SELECT count(*) AS n FROM "${name}"`).get() as { n: number }).n;
  }
  return counts;
}
