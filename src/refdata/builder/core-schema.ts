// Tables every reference database has: build metadata, the sources loaded (provenance of every row), the files
// skipped, and the versioned code table shared by the code-set loaders.
//
//   code_release   one row per code per release, as the order/title files say (written by loaders)
//        |  finalizeCodes(): merge consecutive releases with identical attributes
//        v
//   code           one row per code per validity interval [valid_from, valid_to] (NULL valid_to = still in force)
//   code_parent    hierarchy links: the longest proper prefix that is itself a code of the same system
import type Database from 'better-sqlite3';

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

/**
 * Merges `code_release` into validity intervals in `code`, and derives `code_parent`.
 * A code missing from a later release ends the day before that release starts (a deleted code keeps its history);
 * a changed title or billable flag starts a new interval (both titles are kept, each with its dates).
 */
export function finalizeCodes(db: Database.Database): void {
  // Releases of each system, numbered in time order; a release's end is the day before the next one starts,
  // or its own valid_to (NULL: still in force) when it is the newest.
  db.exec(`
    CREATE TEMP TABLE code_rel AS
      SELECT system, valid_from, row_number() OVER (PARTITION BY system ORDER BY valid_from) AS rn, max(valid_to) AS valid_to
      FROM code_release GROUP BY system, valid_from;
    CREATE UNIQUE INDEX temp.code_rel_rn ON code_rel (system, rn);
  `);
  // A row continues the previous row of the same code when it is in the very next release with the same
  // attributes; a running sum of "breaks" numbers the intervals. Source ids grow with release within a system.
  db.exec(`
    WITH ranked AS (
      SELECT cr.system, cr.code, cr.valid_from, cr.billable, cr.short_title, cr.long_title, cr.ord, cr.source_id, r.rn,
        lag(r.rn) OVER w AS prev_rn, lag(cr.billable) OVER w AS prev_billable,
        lag(cr.short_title) OVER w AS prev_short, lag(cr.long_title) OVER w AS prev_long
      FROM code_release cr JOIN code_rel r ON r.system = cr.system AND r.valid_from = cr.valid_from
      WINDOW w AS (PARTITION BY cr.system, cr.code ORDER BY cr.valid_from)
    ), grouped AS (
      SELECT *, sum(CASE WHEN prev_rn = rn - 1 AND prev_billable = billable AND prev_short IS short_title
                          AND prev_long IS long_title THEN 0 ELSE 1 END)
                OVER (PARTITION BY system, code ORDER BY valid_from) AS grp
      FROM ranked
    ), intervals AS (
      SELECT system, code, min(valid_from) AS valid_from, max(rn) AS last_rn, billable, short_title, long_title,
        max(rn * 100000000 + coalesce(ord, 0)) % 100000000 AS ord, min(source_id) AS first_source_id,
        max(source_id) AS last_source_id
      FROM grouped GROUP BY system, code, grp
    )
    INSERT INTO code (system, code, valid_from, valid_to, billable, short_title, long_title, ord, first_source_id, last_source_id)
    SELECT i.system, i.code, i.valid_from,
      CASE WHEN nxt.valid_from IS NOT NULL THEN date(nxt.valid_from, '-1 day') ELSE cur.valid_to END,
      i.billable, i.short_title, i.long_title, i.ord, i.first_source_id, i.last_source_id
    FROM intervals i
    JOIN code_rel cur ON cur.system = i.system AND cur.rn = i.last_rn
    LEFT JOIN code_rel nxt ON nxt.system = i.system AND nxt.rn = i.last_rn + 1;
    DROP TABLE temp.code_rel;
  `);
  // Hierarchy: category -> subcategory -> code, by the longest proper prefix that is a code of the same system.
  const codes = db.prepare('SELECT DISTINCT system, code FROM code').raw().all() as [string, string][];
  const known = new Set(codes.map(([system, code]) => `${system}|${code}`));
  const link = db.prepare('INSERT INTO code_parent (system, code, parent) VALUES (?, ?, ?)');
  for (const [system, code] of codes) {
    for (let len = code.length - 1; len >= 3; len--) {
      const prefix = code.slice(0, len);
      if (known.has(`${system}|${prefix}`)) {
        link.run(system, code, prefix);
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
