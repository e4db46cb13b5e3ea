// Release dates of the official code sets (domain.md section 8): ICD-10-CM/PCS fiscal years start on Oct 1 of the
// previous calendar year; quarterly files (HCPCS, NCCI, OPPS) start on the first day of their quarter.

// The federal fiscal year and day arithmetic are one rule each, read at build time and by the engines: they live
// with the validity intervals.
import { dayBefore } from '../../schemas/validity.js';

export { dayBefore };
export { fiscalYearEnd, fiscalYearStart } from '../../schemas/validity.js';

/** First day of a calendar quarter: (2026, 2) is 2026-04-01. */
export function quarterStart(year: number, quarter: number): string {
  const month = String((quarter - 1) * 3 + 1).padStart(2, '0');
  return `${year}-${month}-01`;
}

/**
 * Decodes an NCCI Julian date `YYYYDDD` (2013091 is 2013-04-01) to ISO; blank gives `null`.
 * @throws RangeError for anything that is not a 7-digit Julian date with a day of 1 to 366
 */
export function julianToIso(julian: string | null | undefined): string | null {
  const s = (julian ?? '').trim();
  if (s === '') {
    return null;
  }
  if (!/^\d{7}$/.test(s)) {
    throw new RangeError(`Expected a Julian date YYYYDDD, got ${JSON.stringify(s)}`);
  }
  const year = Number(s.slice(0, 4));
  const day = Number(s.slice(4));
  const d = new Date(Date.UTC(year, 0, day));
  if (day < 1 || day > 366 || d.getUTCFullYear() !== year) {
    throw new RangeError(`Expected a Julian date YYYYDDD, got ${JSON.stringify(s)}`);
  }
  return d.toISOString().slice(0, 10);
}

/** The calendar quarter (1-4) of a month (1-12). */
export function quarterOf(month: number): number {
  return Math.floor((month - 1) / 3) + 1;
}

/**
 * Last day of the calendar quarter a date falls in: 2026-04-01 → 2026-06-30.
 * @throws RangeError for anything that does not start with a year and a month (`YYYY-MM`)
 */
export function quarterEnd(iso: string): string {
  const m = /^(\d{4})-(0[1-9]|1[0-2])/.exec(iso);
  if (m === null) {
    throw new RangeError(`Expected an ISO date YYYY-MM-DD, got ${JSON.stringify(iso)}`);
  }
  const year = Number(m[1]);
  const quarter = quarterOf(Number(m[2]));
  return quarter === 4 ? `${String(year)}-12-31` : dayBefore(quarterStart(year, quarter + 1));
}
