import { describe, expect, it } from 'vitest';
import { dayKey, firstInForce, inForce, inForceByKey, OPEN_END_KEY } from '../../src/schemas/validity.js';

describe('validity intervals', () => {
  it('day keys order as the dates do, and an open end comes after every date', () => {
    const dates = ['2015-09-30', '2015-10-01', '2024-01-15', '2024-12-31', '2025-01-01', '9999-12-30'];
    const keys = dates.map(dayKey);
    expect(keys).toEqual([20150930, 20151001, 20240115, 20241231, 20250101, 99991230]);
    expect([...keys].sort((a, b) => a - b)).toEqual(keys);
    expect(keys.every((k) => k < OPEN_END_KEY)).toBe(true);
  });

  it('an interval is in force on its first and last days, and null validTo is open-ended', () => {
    const closed = { validFrom: '2023-10-01', validTo: '2024-09-30' };
    expect(inForce(closed, '2023-10-01')).toBe(true);
    expect(inForce(closed, '2024-09-30')).toBe(true);
    expect(inForce(closed, '2024-10-01')).toBe(false);
    expect(inForce(closed, '2023-09-30')).toBe(false);
    const open = { validFrom: '2024-10-01', validTo: null };
    expect(firstInForce([closed, open], '2030-01-01')).toBe(open);
    expect(firstInForce([closed, open], '2020-01-01')).toBeUndefined();
  });

  it('interval columns of day keys answer as inForce does on the same intervals', () => {
    const intervals = [
      { validFrom: '2023-10-01', validTo: '2024-09-30' },
      { validFrom: '2024-10-01', validTo: null },
    ];
    const fromKey = Int32Array.from(intervals, (i) => dayKey(i.validFrom));
    const toKey = Int32Array.from(intervals, (i) => (i.validTo === null ? OPEN_END_KEY : dayKey(i.validTo)));
    for (const date of ['2023-09-30', '2023-10-01', '2024-09-30', '2024-10-01', '2031-01-01']) {
      intervals.forEach((interval, i) => {
        expect(inForceByKey(fromKey, toKey, i, dayKey(date))).toBe(inForce(interval, date));
      });
    }
  });
});
