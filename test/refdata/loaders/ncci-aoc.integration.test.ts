// Integration: the real April 2026 (V2026Q2) Medicare add-on code edit workbook.
import Database from 'better-sqlite3';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { buildReference, type BuildResult } from '../../../src/refdata/builder/builder.js';
import { ncciAocLoader } from '../../../src/refdata/loaders/ncci-aoc.js';
import { createEditQueries, type EditQueries } from '../../../src/reference/queries/edits.js';
import { officialDataDir } from '../../helpers/build.js';

let db: Database.Database;
let q: EditQueries;
let result: BuildResult;

beforeAll(async () => {
  const dbPath = join(await mkdtemp(join(tmpdir(), 'aoc-int-')), 'reference.sqlite');
  result = await buildReference({ sourcesDir: officialDataDir, dbPath, loaders: [ncciAocLoader] });
  db = new Database(dbPath, { readonly: true });
  q = createEditQueries(db);
  return () => db.close();
});

const all = (sql: string): unknown[] => db.prepare(sql).all();

describe('NCCI add-on code edits, V2026Q2 (real data)', () => {
  test('loads 9,000 edits: types 8,293 / 47 / 660, 830 add-on codes, 7,740 without a deletion date', () => {
    expect(result.units.map((u) => [u.dataset, u.release, u.file, u.rows])).toEqual([['ncci-aoc', '2026Q2', 'ncci/AOC_V2026Q2-MCR.xlsx', 9000]]);
    expect(all('SELECT edit_type, count(*) n FROM ncci_aoc GROUP BY edit_type ORDER BY edit_type')).toEqual([
      { edit_type: 1, n: 8293 },
      { edit_type: 2, n: 47 },
      { edit_type: 3, n: 660 },
    ]);
    expect(all('SELECT count(DISTINCT add_on_code) codes, sum(valid_to IS NULL) open, min(valid_from) first FROM ncci_aoc')).toEqual([
      { codes: 830, open: 7740, first: '2013-04-01' },
    ]);
    // Every type 2 edit names the contractor-defined primary code CCCCC.
    expect(all("SELECT count(*) n FROM ncci_aoc WHERE edit_type = 2 AND primary_code <> 'CCCCC'")).toEqual([{ n: 0 }]);
  });

  test('decodes the Julian dates of real rows (sheet rows 3 and 12)', () => {
    expect(all('SELECT * FROM ncci_aoc WHERE row_no IN (3, 12) ORDER BY row_no')).toEqual([
      { add_on_code: '0054T', primary_code: 'CCCCC', edit_type: 2, add_on_deleted: null, primary_deleted: null, valid_from: '2013-04-01', valid_to: null, notes: 'Contractor Defined Primary Codes', row_no: 3, source_id: 1 },
      { add_on_code: '0079T', primary_code: '0078T', edit_type: 1, add_on_deleted: '2013-12-31', primary_deleted: '2013-12-31', valid_from: '2013-04-01', valid_to: '2013-12-31', notes: null, row_no: 12, source_id: 1 },
    ]);
  });

  test('answers the edits of an add-on code and of a primary code on a date', () => {
    expect(q.aocForAddOn('99292', '2026-04-01')).toEqual([
      { addOnCode: '99292', primaryCode: '99291', editType: 1, addOnDeleted: null, primaryDeleted: null, validFrom: '2013-04-01', validTo: null, notes: null, release: '2026Q2' },
    ]);
    expect(q.aocForAddOn('22552', '2026-05-01').map((r) => r.primaryCode)).toEqual(['22551']);
    expect(q.aocForPrimary('99291', '2026-05-01').map((r) => r.addOnCode)).toContain('99292');
    expect(q.aocForAddOn('0079T', '2026-05-01')).toEqual([]);
    expect(q.aocForAddOn('99292', '2026-03-31')).toEqual([]);
  });
});
