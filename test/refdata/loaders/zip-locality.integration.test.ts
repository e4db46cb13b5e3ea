// Integration: the real ZIP5 carrier locality workbook, January 2026.
import Database from 'better-sqlite3';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { buildReference, type BuildResult } from '../../../src/refdata/builder/builder.js';
import { zipLocalityLoader } from '../../../src/refdata/loaders/zip-locality.js';
import { createEditQueries, type EditQueries } from '../../../src/reference/queries/edits.js';
import { officialDataDir } from '../../helpers/build.js';

let db: Database.Database;
let q: EditQueries;
let result: BuildResult;

beforeAll(async () => {
  const dbPath = join(await mkdtemp(join(tmpdir(), 'zip5-int-')), 'reference.sqlite');
  result = await buildReference({ sourcesDir: officialDataDir, dbPath, loaders: [zipLocalityLoader] });
  db = new Database(dbPath, { readonly: true });
  q = createEditQueries(db);
  return () => db.close();
});

const all = (sql: string): unknown[] => db.prepare(sql).all();

describe('ZIP5 carrier locality, January 2026 (real data)', () => {
  test('loads 42,956 ZIPs as release 2026Q1 (YEAR/QTR 20261) with 55 carriers', () => {
    expect(result.units.map((u) => [u.dataset, u.release, u.file, u.rows])).toEqual([['zip5-locality', '2026Q1', 'zip-locality/ZIP5_JAN2026.xlsx', 42956]]);
    expect(all('SELECT count(*) n, count(DISTINCT carrier) carriers, sum(plus4_flag) plus4, min(zip5) lo FROM zip5_locality')).toEqual([
      { n: 42956, carriers: 55, plus4: 581, lo: '00210' },
    ]);
    expect(all('SELECT rural_ind r, count(*) n FROM zip5_locality GROUP BY rural_ind ORDER BY rural_ind')).toEqual([
      { r: null, n: 23493 },
      { r: 'B', n: 7830 },
      { r: 'R', n: 11633 },
    ]);
  });

  test('answers state, carrier and locality; split states need the ZIP (domain.md section 12)', () => {
    expect(q.zipLocality('94103', '2026-02-01')).toEqual({
      zip5: '94103',
      state: 'CA',
      uspsState: 'CA',
      carrier: '01112',
      locality: '05',
      ruralInd: null,
      labCbLocality: 'Z9',
      ruralInd2: null,
      plus4: false,
      partBDrugIndicator: 'A',
      release: '2026Q1',
      validFrom: '2026-01-01',
      validTo: null,
    });
    expect(q.zipLocality('90210', '2026-02-01')).toMatchObject({ state: 'CA', carrier: '01182', locality: '18' });
    // Fairfax (22030) is billed to JL with DC; Richmond (23219) to JM.
    expect(q.zipLocality('22030', '2026-02-01')).toMatchObject({ state: 'VA', carrier: '12202' });
    expect(q.zipLocality('20001', '2026-02-01')).toMatchObject({ state: 'DC', carrier: '12202' });
    expect(q.zipLocality('23219-0001', '2026-02-01')).toMatchObject({ state: 'VA', carrier: '11302', locality: '00' });
    expect(q.zipLocality('20120', '2026-02-01')).toMatchObject({ plus4: true });
    expect(q.zipLocality('00210', '2026-02-01')).toMatchObject({ state: 'NH', carrier: '14312', locality: '40' });
    expect(q.zipLocality('94103', '2025-12-31')).toBeUndefined();
  });

  test('Kansas and Missouri, written by region in the file (EK/WK, EM/WM), answer with their USPS state too', () => {
    expect(all("SELECT DISTINCT usps_state s FROM zip5_locality WHERE state IN ('EK', 'WK', 'EM', 'WM') ORDER BY s")).toEqual([{ s: 'KS' }, { s: 'MO' }]);
    expect(all("SELECT count(*) n FROM zip5_locality WHERE state IN ('KS', 'MO')")).toEqual([{ n: 0 }]);
    const kansas = all("SELECT zip5 FROM zip5_locality WHERE usps_state = 'KS' AND zip5 LIKE '66%' LIMIT 1") as { zip5: string }[];
    expect(q.zipLocality(kansas[0]!.zip5, '2026-02-01')).toMatchObject({ uspsState: 'KS', carrier: '05202' });
  });
});
