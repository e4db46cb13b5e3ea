// Period memories for date-keyed searches of the reference tables. A search of rows that carry their own dates (and
// sit in sources that do) finds other rows only on the dates where one of them, or its source, starts or stops being
// in force: every date between two such change dates finds the same rows. A night's claims span weeks of dates of
// service, so a search is kept per key and period, not per key and date.

import type { Statement } from './tables.js';

/**
 * The dates, sorted, on which the rows of `table` matching `where` find other rows in force: the first day of each and
 * of its source, and the day after each one's last.
 * @param dataset - a dataset whose releases count too, whether or not they hold rows (a lookup that first picks the
 *   release in force, as the POA exempt lists do)
 */
export const changeDatesSql = (table: string, where: string, dataset?: string): string => {
  const sources =
    dataset === undefined
      ? `id IN (SELECT source_id FROM ${table} WHERE ${where})`
      : `id IN (SELECT source_id FROM ${table} WHERE ${where}) OR dataset = '${dataset}'`;
  return `SELECT b FROM (
     SELECT valid_from AS b FROM ${table} WHERE ${where}
     UNION SELECT date(valid_to, '+1 day') FROM ${table} WHERE ${where}
     UNION SELECT valid_from FROM source WHERE ${sources}
     UNION SELECT date(valid_to, '+1 day') FROM source WHERE ${sources})
   WHERE b IS NOT NULL ORDER BY b`;
};

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
 * @param search - `changeDatesSql(table, where)` prepared on the database
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
 * A memory of a search's answers per key and period.
 * @param changesOf - the change dates that bound the periods of a key's answers
 * @param max - answers kept before the memory is emptied
 * @returns `(key, date, search)`: the answer kept for the key in the date's period, else `search()`'s, kept
 */
export function perPeriod<T>(
  changesOf: (key: string) => readonly string[],
  max = MAX_PERIOD_ANSWERS,
): (key: string, date: string, search: () => T) => T {
  // Answers by period, then by key: the period is one of the change dates read once and the key is the caller's
  // string, so no key string is made (and hashed) per call.
  const periods = new Map<string, Map<string, T>>();
  let kept = 0;
  return (key, date, search) => {
    const period = periodStart(changesOf(key), date);
    let answers = periods.get(period);
    if (answers === undefined) {
      answers = new Map<string, T>();
      periods.set(period, answers);
    }
    let answer = answers.get(key);
    if (answer === undefined) {
      if (kept >= max) {
        periods.clear();
        kept = 0;
        answers = new Map<string, T>();
        periods.set(period, answers);
      }
      answer = search();
      answers.set(key, answer);
      kept++;
    }
    return answer;
  };
}
