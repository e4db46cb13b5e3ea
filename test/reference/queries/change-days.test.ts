// The days on which per-code answers can change (src/reference/queries/change-days.ts), on a hand-made database.
import Database from 'better-sqlite3';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { CHANGE_DAY_TABLE, readChangeDays } from '../../../src/reference/queries/change-days.js';
import { periodStart } from '../../../src/reference/queries/periods.js';

let db: Database.Database;
beforeEach(() => {
  db = new Database(':memory:');
  db.exec(`
    CREATE TABLE code (code TEXT, valid_from TEXT, valid_to TEXT, ord INTEGER);
    INSERT INTO code VALUES ('A', '2025-10-01', '2026-09-30', 20251001), ('B', '2026-01-01', NULL, 1);
    CREATE TABLE aoc (code TEXT, add_on_deleted TEXT, note TEXT);
    INSERT INTO aoc VALUES ('C', '20260315', 'not a date'), ('D', NULL, '2026-99');
    CREATE TABLE mcd_index_document (id TEXT, updated_on TEXT);
    INSERT INTO mcd_index_document VALUES ('L1', '2026-02-02'), ('L2', '2026-02-03');
  `);
});
afterEach(() => db.close());

test('starts on valid_from, the day after valid_to, and both ways on other date columns, either spelling', () => {
  // Integer columns are no dates (ord 20251001), nor text that does not read as one; LCD documents do not count.
  expect(readChangeDays(db)).toEqual(['2025-10-01', '2026-01-01', '2026-03-15', '2026-03-16', '2026-10-01']);
});

test('dates between two change days share an epoch', () => {
  const days = readChangeDays(db);
  expect(periodStart(days, '2026-02-02')).toBe('2026-01-01');
  expect(periodStart(days, '2026-03-14')).toBe('2026-01-01');
  expect(periodStart(days, '2026-03-15')).toBe('2026-03-15');
  expect(periodStart(days, '2026-03-16')).toBe('2026-03-16');
  expect(periodStart(days, '2025-01-01')).toBe('');
});

test('a database whose build stored the change days answers with them, without reading the rows', () => {
  db.exec(`CREATE TABLE ${CHANGE_DAY_TABLE} (day TEXT PRIMARY KEY) WITHOUT ROWID; INSERT INTO ${CHANGE_DAY_TABLE} VALUES ('2026-01-01'), ('2024-10-01')`);
  expect(readChangeDays(db)).toEqual(['2024-10-01', '2026-01-01']);
});
