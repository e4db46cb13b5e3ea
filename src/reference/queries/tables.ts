// Which tables a reference database holds. A partial build (`refdata build --only`) leaves some out; each query
// module asks here and answers "nothing" for a table it lacks, through the stand-in statement.
import type Database from 'better-sqlite3';

/** What the query modules run: a prepared better-sqlite3 statement, or {@link NOTHING}. */
export interface Statement {
  get(params: object): unknown;
  all(params: object): unknown[];
}

/** The stand-in for a statement on a table that was not built: it finds nothing. */
export const NOTHING: Statement = { get: () => undefined, all: () => [] };

/** The names of the database's tables. */
export function tableNames(db: Database.Database): ReadonlySet<string> {
  return new Set((db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((t) => t.name));
}

/** Whether the database has the table. */
export function hasTable(db: Database.Database, name: string): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
}

/** `sql` prepared when the database has `table`, otherwise {@link NOTHING}. */
export function prepareOn(db: Database.Database, table: string, sql: string): Statement {
  return hasTable(db, table) ? db.prepare(sql) : NOTHING;
}
