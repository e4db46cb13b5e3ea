import { describe, expect, test } from 'vitest';
import { changesBy, periodStart, perPeriod } from '../../../src/reference/queries/periods.js';

describe('periodStart', () => {
  const changes = ['2025-01-01', '2026-01-01', '2026-04-01'];
  test.each([
    ['2024-12-31', ''],
    ['2025-01-01', '2025-01-01'],
    ['2025-12-31', '2025-01-01'],
    ['2026-01-01', '2026-01-01'],
    ['2026-03-31', '2026-01-01'],
    ['2026-04-01', '2026-04-01'],
    ['2099-01-01', '2026-04-01'],
  ])('%s falls in the period from %j', (date, start) => {
    expect(periodStart(changes, date)).toBe(start);
  });
  test('no change dates: one period', () => {
    expect(periodStart([], '2026-01-01')).toBe('');
  });
});

describe('perPeriod', () => {
  test('searches once per key and period, whatever the order of the dates', () => {
    const searched: string[] = [];
    const memory = perPeriod<string>(() => ['2026-01-01', '2026-04-01']);
    const ask = (key: string, date: string): string =>
      memory(key, date, () => {
        searched.push(`${key}@${date}`);
        return `${key} as of ${date}`;
      });
    expect(ask('A', '2026-05-01')).toBe('A as of 2026-05-01');
    expect(ask('A', '2026-04-01')).toBe('A as of 2026-05-01');
    expect(ask('A', '2026-03-31')).toBe('A as of 2026-03-31');
    expect(ask('A', '2026-01-15')).toBe('A as of 2026-03-31');
    expect(ask('A', '2025-12-31')).toBe('A as of 2025-12-31');
    expect(ask('B', '2026-06-30')).toBe('B as of 2026-06-30');
    expect(ask('A', '2026-12-31')).toBe('A as of 2026-05-01');
    expect(searched).toEqual(['A@2026-05-01', 'A@2026-03-31', 'A@2025-12-31', 'B@2026-06-30']);
  });

  test('keeps null answers, and empties itself past its size', () => {
    let searches = 0;
    const memory = perPeriod<string | null>(() => [], 2);
    const ask = (key: string): string | null =>
      memory(key, '2026-01-01', () => {
        searches++;
        return key === 'none' ? null : key;
      });
    expect(ask('none')).toBeNull();
    expect(ask('none')).toBeNull();
    expect(ask('x')).toBe('x');
    expect(searches).toBe(2);
    // Full: the third answer empties the memory, so the first two are searched again.
    expect(ask('y')).toBe('y');
    expect(ask('y')).toBe('y');
    expect(ask('x')).toBe('x');
    expect(searches).toBe(4);
  });

  test('reads a period whole once it has been searched often, then answers every key from it', () => {
    const searched: string[] = [];
    const loaded: string[] = [];
    const memory = perPeriod<string | null>(() => ['2026-01-01'], undefined, {
      after: 2,
      load: (date) => {
        loaded.push(date);
        return new Map([['A', 'A whole'], ['C', 'C whole']]);
      },
      absent: null,
    });
    const ask = (key: string, date: string): string | null =>
      memory(key, date, () => {
        searched.push(key);
        return `${key} searched`;
      });
    expect(ask('A', '2026-02-01')).toBe('A searched');
    expect(ask('A', '2026-02-02')).toBe('A searched');
    expect(ask('B', '2026-02-01')).toBe('B searched');
    // The third search of the period reads it whole: answers from now on are the period's.
    expect(ask('C', '2026-03-01')).toBe('C whole');
    expect(ask('D', '2026-03-01')).toBeNull();
    expect(ask('A', '2026-03-01')).toBe('A whole');
    expect(searched).toEqual(['A', 'B']);
    expect(loaded).toEqual(['2026-03-01']);
    // Another period starts with searches again.
    expect(ask('A', '2025-06-01')).toBe('A searched');
    expect(loaded).toEqual(['2026-03-01']);
  });

  test('changesBy reads the change dates once per key', () => {
    const calls: object[] = [];
    const changes = changesBy(
      {
        all: (params) => {
          calls.push(params);
          return [{ b: '2026-01-01' }];
        },
      },
      true,
    );
    expect(changes('VA')).toEqual(['2026-01-01']);
    expect(changes('VA')).toEqual(['2026-01-01']);
    expect(changes('NH')).toEqual(['2026-01-01']);
    expect(calls).toEqual([{ key: 'VA' }, { key: 'NH' }]);
  });
});
