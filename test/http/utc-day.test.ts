import { expect, test } from 'vitest';
import { utcDayMemo } from '../../src/http/utc-day.js';

test('formats the UTC day, and a new one from the first millisecond of the next day, in either direction', () => {
  const dayOf = utcDayMemo();
  const midnight = Date.UTC(2026, 10, 21);
  expect(dayOf(midnight - 1)).toBe('2026-11-20');
  expect(dayOf(midnight)).toBe('2026-11-21');
  expect(dayOf(midnight + 86_399_999)).toBe('2026-11-21');
  expect(dayOf(midnight + 86_400_000)).toBe('2026-11-22');
  expect(dayOf(midnight - 1)).toBe('2026-11-20');
  expect(dayOf(0)).toBe('1970-01-01');
  expect(dayOf(-1)).toBe('1969-12-31');
});
