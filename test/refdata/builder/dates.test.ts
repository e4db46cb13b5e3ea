// Quarter arithmetic of the builder: the quarter of each month and the last day of the quarter a date falls in.
import { describe, expect, test } from 'vitest';
import { quarterEnd, quarterOf } from '../../../src/refdata/builder/dates.js';

describe('quarters', () => {
  test('every month has its quarter', () => {
    expect(Array.from({ length: 12 }, (_, i) => quarterOf(i + 1))).toEqual([1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4]);
  });

  test("a date of each month ends its quarter on the quarter's last day, leap years alike", () => {
    const ends = [
      '03-31',
      '03-31',
      '03-31',
      '06-30',
      '06-30',
      '06-30',
      '09-30',
      '09-30',
      '09-30',
      '12-31',
      '12-31',
      '12-31',
    ];
    for (const year of [2024, 2026]) {
      for (let month = 1; month <= 12; month++) {
        const mm = String(month).padStart(2, '0');
        for (const day of ['01', '15', '28']) {
          expect(quarterEnd(`${String(year)}-${mm}-${day}`)).toBe(`${String(year)}-${ends[month - 1] ?? ''}`);
        }
      }
    }
  });

  test('anything that is not an ISO date is refused with the value named', () => {
    expect(() => quarterEnd('2026-4-1')).toThrow(/Expected an ISO date YYYY-MM-DD, got "2026-4-1"/);
    expect(() => quarterEnd('2026-13-01')).toThrow(RangeError);
  });
});
