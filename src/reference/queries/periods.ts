// Period memories for date-keyed searches of the reference tables. A search of rows that carry their own dates (and
// sit in sources that do) finds other rows only on the dates where one of them, or its source, starts or stops being
// in force: every date between two such change dates finds the same rows. A night's claims span weeks of dates of
// service, so a search is kept per key and period, not per key and date.

import type Database from 'better-sqlite3';
import { hasTable, NOTHING, type Statement } from './tables.js';

/**
 * The dates, sorted, on which the rows of `table` matching `where` find other rows in force: the first day of each and
 * of its source, and the day after each one's last. Its `all(params)` answers them as `{ b }` rows; `NOTHING` when the
 * table was not built.
 * @param where - an SQL condition on the table's rows (`@key` in it for a search kept per key; see changesBy)
 * @param dataset - a dataset whose releases count too, whether or not they hold rows (a lookup that first picks the
 *   release in force, as the POA exempt lists do)
 */
export function changeDatesSearch(
  db: Database.Database,
  table: string,
  where: string,
  dataset?: string,
): Pick<Statement, 'all'> {
  if (!hasTable(db, table)) {
    return NOTHING;
  }
  // One scan for the few distinct (from, to, source) triples, the day after computed here: the same dates as a UNION
  // of the two columns (date(valid_to, '+1 day') per row) and the source ids, at a tenth of the time (~0.3 s per
  // worker thread for the six tables the validation engine reads by period, 2026-11-27).
  const spans = db.prepare(`SELECT DISTINCT valid_from AS f, valid_to AS t, source_id AS s FROM ${table} WHERE ${where}`);
  // The source rows, read once (a search kept per key asks for each key's dates).
  type SourceSpan = { id: number; dataset: string; f: string | null; t: string | null };
  let sources: SourceSpan[] | undefined;
  return {
    all(params) {
      const dates = new Set<string>();
      const add = (from: string | null, to: string | null): void => {
        if (from !== null) {
          dates.add(from);
        }
        const after = to === null ? undefined : dayAfter(to);
        if (after !== undefined) {
          dates.add(after);
        }
      };
      const ids = new Set<number>();
      for (const r of spans.all(params) as { f: string | null; t: string | null; s: number }[]) {
        add(r.f, r.t);
        ids.add(r.s);
      }
      sources ??= db.prepare('SELECT id, dataset, valid_from AS f, valid_to AS t FROM source').all() as SourceSpan[];
      for (const r of sources) {
        if (ids.has(r.id) || (dataset !== undefined && r.dataset === dataset)) {
          add(r.f, r.t);
        }
      }
      return [...dates].sort().map((b) => ({ b }));
    },
  };
}

/**
 * The ISO day after a date as SQLite's `date(day, '+1 day')` reads it: `YYYY-MM-DD`, a time after it ignored;
 * `undefined` for text that is not a date (a month past 12, a day past 31) or a day after year 9999 (SQLite answers
 * NULL for those).
 */
function dayAfter(day: string): string | undefined {
  const ymd = /^(\d{4})-(\d{2})-(\d{2})(?:$|[ T])/.exec(day);
  const month = Number(ymd?.[2]);
  const date = Number(ymd?.[3]);
  if (ymd === null || month < 1 || month > 12 || date < 1 || date > 31) {
    return undefined;
  }
  // A day past the month's end rolls over, as in SQLite (2025-02-30 is 2025-03-02).
  const next = new Date(0);
  next.setUTCFullYear(Number(ymd[1]), month - 1, date + 1);
  const iso = next.toISOString();
  return next.getUTCFullYear() > 9999 || Number.isNaN(next.getTime()) ? undefined : iso.slice(0, 10);
}

/** Answers kept per search by a period memory (emptied past it). */
const MAX_PERIOD_ANSWERS = 200_000;

/** The last of the sorted change dates on or before `date` (`''` when none is): the period the date falls in. */
export function periodStart(changes: readonly string[], date: string): string {
  let lo = 0;
  let hi = changes.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((changes[mid] as string) <= date) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo === 0 ? '' : (changes[lo - 1] as string);
}

/**
 * The change dates of a table's rows, read once per key of `where` (`@key` in it), or once for the whole table.
 * @param search - changeDatesSearch on the table
 */
export function changesBy(search: Pick<Statement, 'all'>, keyed: boolean): (key: string) => readonly string[] {
  const kept = new Map<string, readonly string[]>();
  return (key) => {
    let changes = kept.get(key);
    if (changes === undefined) {
      changes = (search.all(keyed ? { key } : {}) as { b: string }[]).map((r) => r.b);
      kept.set(key, changes);
    }
    return changes;
  };
}

/**
 * How a period memory reads a whole period at once: after `after` searches in one period, every key's answer in it
 * (one scan of the table's rows in force, instead of a search per key: a night's claims ask about thousands of
 * codes). Only for a table whose change dates are the same for every key.
 */
export interface PeriodBulk<T> {
  /** Searches in one period after which it is read whole. */
  readonly after: number;
  /** The answer of every key that has one on `date` (the same for any date of its period). */
  readonly load: (date: string) => Map<string, T>;
  /** The answer of a key the whole period does not hold. */
  readonly absent: T;
}

/** The answers kept for one period. */
interface PeriodAnswers<T> {
  answers: Map<string, T>;
  searches: number;
  /** Read whole (PeriodBulk): a key not in `answers` has none. */
  whole: boolean;
}

/**
 * A memory of a search's answers per key and period.
 * @param changesOf - the change dates that bound the periods of a key's answers
 * @param max - answers kept before the memory is emptied
 * @param bulk - how to read a period whole once it has been searched often (the answers must equal the searches')
 * @returns `(key, date, search)`: the answer kept for the key in the date's period, else `search()`'s, kept
 */
export function perPeriod<T>(
  changesOf: (key: string) => readonly string[],
  max = MAX_PERIOD_ANSWERS,
  bulk?: PeriodBulk<T>,
): (key: string, date: string, search: () => T) => T {
  // Answers by period, then by key: the period is one of the change dates read once and the key is the caller's
  // string, so no key string is made (and hashed) per call.
  const periods = new Map<string, PeriodAnswers<T>>();
  let kept = 0;
  return (key, date, search) => {
    const period = periodStart(changesOf(key), date);
    let p = periods.get(period);
    if (p === undefined) {
      p = { answers: new Map<string, T>(), searches: 0, whole: false };
      periods.set(period, p);
    }
    let answer = p.answers.get(key);
    if (answer === undefined) {
      if (bulk !== undefined && (p.whole || ++p.searches > bulk.after)) {
        if (!p.whole) {
          const all = bulk.load(date);
          kept += all.size - p.answers.size;
          p.answers = all;
          p.whole = true;
        }
        return p.answers.get(key) ?? bulk.absent;
      }
      if (kept >= max) {
        periods.clear();
        kept = 0;
        p = { answers: new Map<string, T>(), searches: 0, whole: false };
        periods.set(period, p);
      }
      answer = search();
      p.answers.set(key, answer);
      kept++;
    }
    return answer;
  };
}
