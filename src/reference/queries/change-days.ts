// The days on which some answer of the reference database can change, and the stretch of days (an epoch) a date
// falls in (periodStart of these days): periods.ts's periods, for the whole database rather than one table's rows. Every dated row of every
// table (a code's validity, a release's, an edit's effective or deletion date, an LCD's dates...) stores its days
// in text columns, `YYYY-MM-DD` or `YYYYMMDD`. A `valid_from` day starts an epoch and the day after a `valid_to`
// day (the last day in force) does; any other date column counts both ways, its day and the day after. Between two
// change days no loaded row starts or ends, so a lookup that reads rows by the date they are in force answers alike
// for every date of one epoch. The claim engine keys its per-code memory by epoch rather than by date: a night's
// claims spread over months of service dates share one entry per code per epoch instead of one per code per day.
// The epochs serve per-code answers only (see NOT_PER_CODE).
import type Database from 'better-sqlite3';
import { dayAfter } from '../../schemas/validity.js';

/**
 * Tables left out: the Medicare Coverage Database's document index (LCDs and articles, updated almost daily), which
 * the coverage rules read per claim and contractor, never per code. With them every day of 2025 would be an epoch.
 */
const NOT_PER_CODE = /^mcd_/;

const DAY = /^(\d{4})-?(\d{2})-?(\d{2})$/;

/** Where the build stores the change days (a database built before it has none: they are then read from the rows). */
export const CHANGE_DAY_TABLE = 'change_day';

/**
 * Every day on which some row a per-code lookup reads starts or stops being in force (see the module header), sorted (ISO
 * `YYYY-MM-DD`), as the build stored them in CHANGE_DAY_TABLE; else from the rows: a column counts when it is
 * declared as text (or undeclared) and its first value reads as a day, one scan of its distinct values (~0.4 s on
 * the full build).
 */
export function readChangeDays(db: Database.Database): string[] {
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").pluck().all() as string[];
  if (tables.includes(CHANGE_DAY_TABLE)) {
    return db.prepare(`SELECT day FROM ${CHANGE_DAY_TABLE} ORDER BY day`).pluck().all() as string[];
  }
  const days = new Set<string>();
  for (const table of tables) {
    if (NOT_PER_CODE.test(table)) {
      continue;
    }
    const quotedTable = `"${table.replace(/"/g, '""')}"`;
    for (const column of db.pragma(`table_info(${quotedTable})`) as { name: string; type: string }[]) {
      if (column.type !== '' && !/CHAR|TEXT|CLOB/i.test(column.type)) {
        continue;
      }
      const quoted = `"${column.name.replace(/"/g, '""')}"`;
      const first = db.prepare(`SELECT ${quoted} FROM ${quotedTable} WHERE ${quoted} IS NOT NULL LIMIT 1`).pluck().get();
      if (typeof first !== 'string' || !DAY.test(first)) {
        continue;
      }
      const starts = column.name !== 'valid_to';
      const ends = column.name !== 'valid_from';
      for (const value of db.prepare(`SELECT DISTINCT ${quoted} FROM ${quotedTable}`).pluck().all()) {
        const m = typeof value === 'string' ? DAY.exec(value) : null;
        if (m !== null) {
          const day = `${m[1] ?? ''}-${m[2] ?? ''}-${m[3] ?? ''}`;
          if (starts) {
            days.add(day);
          }
          if (ends) {
            days.add(dayAfter(day));
          }
        }
      }
    }
  }
  return [...days].sort();
}
