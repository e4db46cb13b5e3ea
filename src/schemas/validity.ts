// Validity intervals, as every dated row of the reference database carries them: ISO `YYYY-MM-DD` strings (which
// compare as dates), `validTo` inclusive and null while the row is still in force in the newest loaded release.

/** A row's validity interval. */
export interface Validity {
  readonly validFrom: string;
  readonly validTo: string | null;
}

/** The day before an ISO date. */
export function dayBefore(iso: string): string {
  return shiftDay(iso, -1);
}

/** The day after an ISO date (the first day a row with `validTo` = `iso` is no longer in force). */
export function dayAfter(iso: string): string {
  return shiftDay(iso, 1);
}

function shiftDay(iso: string, days: number): string {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** The federal fiscal year of an ISO date: FY N runs from October 1 of N-1 to September 30 of N. */
export function fiscalYearOf(date: string): number {
  return Number(date.slice(0, 4)) + (date.slice(5, 7) >= '10' ? 1 : 0);
}

/** First day of a federal fiscal year: FY2026 starts 2025-10-01. */
export function fiscalYearStart(fy: number): string {
  return `${fy - 1}-10-01`;
}

/** Last day of a federal fiscal year: FY2026 ends 2026-09-30. */
export function fiscalYearEnd(fy: number): string {
  return `${fy}-09-30`;
}

/** Whether `date` is after the end of the newest of `releases`, oldest first (a release with no end answers on). */
export function afterNewest(releases: readonly Validity[], date: string): boolean {
  const newest = releases.at(-1);
  return newest !== undefined && newest.validTo !== null && date > newest.validTo;
}

/** Whether an interval covers `date` (ISO `YYYY-MM-DD`). */
export function inForce(interval: Validity, date: string): boolean {
  return interval.validFrom <= date && (interval.validTo === null || interval.validTo >= date);
}

/**
 * Why no loaded release answers for a date (domain.md section 8: no version for the date is no data, never a pass):
 * the date is before the oldest, or after the end of the newest (a release with no end answers on).
 * @param releases - a system's releases, oldest first
 * A database without any release of the system (built with `--only` other datasets) has no data for any date.
 * @returns the reason, worded for a message; `undefined` when a release covers the date
 */
export function releaseGap(
  releases: readonly (Validity & { readonly release: string })[],
  date: string,
): string | undefined {
  const oldest = releases[0];
  const newest = releases.at(-1);
  if (oldest === undefined) {
    return 'the reference database holds no release of it';
  }
  if (date < oldest.validFrom) {
    return `the oldest loaded starts ${oldest.validFrom}`;
  }
  if (newest !== undefined && afterNewest(releases, date)) {
    return `the newest loaded, ${newest.release}, ends ${newest.validTo ?? ''}`;
  }
  return undefined;
}

/** The first of `intervals` that covers `date`, if any. */
export function firstInForce<T extends Validity>(intervals: readonly T[] | undefined, date: string): T | undefined {
  if (intervals !== undefined) {
    for (const interval of intervals) {
      if (inForce(interval, date)) {
        return interval;
      }
    }
  }
  return undefined;
}

/**
 * A date as the number YYYYMMDD (`2026-05-15` → 20260515), which orders as the date does: for tables that test
 * thousands of intervals per call and keep them in typed arrays.
 */
export function dayKey(date: string): number {
  return Number(date.slice(0, 4)) * 10_000 + Number(date.slice(5, 7)) * 100 + Number(date.slice(8, 10));
}

/** The day key of an open end (`validTo` null): after every date. */
export const OPEN_END_KEY = 99_991_231;

/**
 * Whether row `i` of interval columns held as day keys (see {@link dayKey}; an open end is OPEN_END_KEY) covers the
 * day key `day`: {@link inForce} for typed-array tables.
 */
export function inForceByKey(fromKey: ArrayLike<number>, toKey: ArrayLike<number>, i: number, day: number): boolean {
  return (fromKey[i] as number) <= day && (toKey[i] as number) >= day;
}
