// Read side of the versioned code table: a code on a date, its history, its children and ancestors.
// Statements are prepared once per connection; every lookup is a point query on the (system, code, valid_from) key.
import type Database from 'better-sqlite3';
import type { CodeSystem } from '../../schemas/code-systems.js';

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
  history(system: CodeSystem, code: string): CodeVersion[];
  /** Direct children of a code that are in force on `date`. */
  children(system: CodeSystem, code: string, date: string): CodeVersion[];
  /** Billable descendants of a code in force on `date`, in order-file order, at most `limit`. */
  billableDescendants(system: CodeSystem, code: string, date: string, limit: number): CodeVersion[];
  /** Ancestors of a code, nearest first (`S72001A` → `S72001`, `S7200`, `S720`, `S72`). */
  ancestors(system: CodeSystem, code: string): string[];
  /** The systems in which a (normalised) code exists in any loaded release. */
  systemsOf(code: string): CodeSystem[];
}

/** Prepares the code lookups on a (read-only) reference database. */
export function createCodeQueries(db: Database.Database): CodeQueries {
  const onDate = db.prepare(
    `SELECT ${columns} WHERE c.system = ? AND c.code = ? AND c.valid_from <= ? AND (c.valid_to IS NULL OR c.valid_to >= ?)`,
  );
  const history = db.prepare(`SELECT ${columns} WHERE c.system = ? AND c.code = ? ORDER BY c.valid_from`);
  const children = db.prepare(
    `SELECT ${columns} JOIN code_parent p ON p.system = c.system AND p.code = c.code
     WHERE p.system = ? AND p.parent = ? AND c.valid_from <= ? AND (c.valid_to IS NULL OR c.valid_to >= ?)
     ORDER BY c.ord, c.code`,
  );
  const descendants = db.prepare(
    `WITH RECURSIVE d(code) AS (
       SELECT code FROM code_parent WHERE system = @system AND parent = @code
       UNION ALL SELECT p.code FROM code_parent p JOIN d ON p.parent = d.code WHERE p.system = @system)
     SELECT ${columns} JOIN d ON d.code = c.code
     WHERE c.system = @system AND c.billable = 1 AND c.valid_from <= @date AND (c.valid_to IS NULL OR c.valid_to >= @date)
     ORDER BY c.ord, c.code LIMIT @limit`,
  );
  const ancestors = db.prepare(
    `WITH RECURSIVE a(code, parent, depth) AS (
       SELECT code, parent, 1 FROM code_parent WHERE system = @system AND code = @code
       UNION ALL SELECT p.code, p.parent, a.depth + 1 FROM code_parent p JOIN a ON p.code = a.parent WHERE p.system = @system)
     SELECT parent FROM a ORDER BY depth`,
  );
  const systems = db.prepare('SELECT DISTINCT system FROM code WHERE code = ? ORDER BY system');
  return {
    onDate(system, code, date) {
      const row = onDate.get(system, code, date, date) as Row | undefined;
      return row ? toVersion(row) : undefined;
    },
    manyOnDate(system, codes, date) {
      const found = new Map<string, CodeVersion>();
      for (const code of codes) {
        const row = onDate.get(system, code, date, date) as Row | undefined;
        if (row) {
          found.set(code, toVersion(row));
        }
      }
      return found;
    },
    history: (system, code) => (history.all(system, code) as Row[]).map(toVersion),
    children: (system, code, date) => (children.all(system, code, date, date) as Row[]).map(toVersion),
    billableDescendants: (system, code, date, limit) => (descendants.all({ system, code, date, limit }) as Row[]).map(toVersion),
    ancestors: (system, code) => (ancestors.all({ system, code }) as { parent: string }[]).map((r) => r.parent),
    systemsOf: (code) => (systems.all(code) as { system: CodeSystem }[]).map((r) => r.system),
  };
}
