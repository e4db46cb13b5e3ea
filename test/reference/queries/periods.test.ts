import { describe, expect, test } from 'vitest';
import Database from 'better-sqlite3';
import { changeDatesSearch, changesBy, periodStart, perPeriod } from '../../../src/reference/queries/periods.js';

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

test('changeDatesSearch reads odd dates as SQLite date(d, "+1 day") does: times, rolled-over days, no month 13', () => {
  const db = new Database(':memory:');
  db.exec(`CREATE TABLE source (id INTEGER PRIMARY KEY, dataset TEXT, valid_from TEXT, valid_to TEXT);
    CREATE TABLE t (valid_from TEXT, valid_to TEXT, source_id INTEGER, k TEXT);`);
  const ends = ['2025-12-31', '2024-02-28', '2025-02-30', '2025-04-31', '2025-13-01', '2025-01-00', '9999-12-31', '0000-01-01',
    '2025-08-01 00:00:00', '2025-08-01T12:00', '20250801', 'soon', null];
  const insert = db.prepare('INSERT INTO t VALUES (?, ?, ?, ?)');
  ends.forEach((end, i) => insert.run(`2020-01-${String(i + 1).padStart(2, '0')}`, end, 1 + (i % 2), i % 3 === 0 ? 'A' : 'B'));
  db.exec(`INSERT INTO source VALUES (1, 'x', '2019-07-01', '2026-06-30'), (2, 'x', '2019-08-01', NULL),
    (3, 'y', '2018-01-01', '2018-12-31'), (4, 'z', '2017-01-01', '2017-02-28')`);
  const bySql = (where: string, params: object, dataset?: string): string[] => {
    const sources = `id IN (SELECT source_id FROM t WHERE ${where})${dataset === undefined ? '' : ` OR dataset = '${dataset}'`}`;
    return (db.prepare(`SELECT b FROM (SELECT valid_from AS b FROM t WHERE ${where}
      UNION SELECT date(valid_to, '+1 day') FROM t WHERE ${where} UNION SELECT valid_from FROM source WHERE ${sources}
      UNION SELECT date(valid_to, '+1 day') FROM source WHERE ${sources}) WHERE b IS NOT NULL ORDER BY b`).all(params) as { b: string }[]).map((r) => r.b);
  };
  for (const [where, params, dataset] of [['1', {}], ['1', {}, 'y'], ['k = @key', { key: 'A' }], ['k = @key', { key: 'C' }, 'z']] as const) {
    const got = (changeDatesSearch(db, 't', where, dataset).all(params) as { b: string }[]).map((r) => r.b);
    expect(got, `${where} ${JSON.stringify(params)}`).toEqual(bySql(where, params, dataset));
  }
  expect(bySql('1', {})).toContain('2025-03-03');
  db.close();
});
