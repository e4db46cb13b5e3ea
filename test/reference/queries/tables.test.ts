// The tables a reference database holds, and the stand-in statement for one a partial build left out.
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { hasTable, NOTHING, prepareOn, tableNames } from '../../../src/reference/queries/tables.js';

describe('tables', () => {
  const db = new Database(':memory:');
  db.exec("CREATE TABLE mue (code TEXT); INSERT INTO mue VALUES ('99213'); CREATE INDEX mue_code ON mue (code)");

  it('tells the tables a database has, not its indexes', () => {
    expect(hasTable(db, 'mue')).toBe(true);
    expect(hasTable(db, 'mue_code')).toBe(false);
    expect(hasTable(db, 'ncci_aoc')).toBe(false);
    expect([...tableNames(db)]).toEqual(['mue']);
  });

  it('prepares a statement on a table that exists; on one that does not, the stand-in finds nothing', () => {
    expect(prepareOn(db, 'mue', 'SELECT code FROM mue WHERE code = @code').get({ code: '99213' })).toEqual({ code: '99213' });
    const missing = prepareOn(db, 'ncci_aoc', 'SELECT * FROM ncci_aoc');
    expect(missing).toBe(NOTHING);
    expect(missing.get({})).toBeUndefined();
    expect(missing.all({})).toEqual([]);
  });
});
