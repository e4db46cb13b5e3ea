// Integration: the real January 2026 lab NCD code list spreadsheet.
import Database from 'better-sqlite3';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { buildReference, type BuildResult } from '../../../src/refdata/builder/builder.js';
import { ncdLabLoader } from '../../../src/refdata/loaders/ncd-lab.js';
import { createEditQueries, type EditQueries } from '../../../src/reference/queries/edits.js';
import { officialDataDir } from '../../helpers/build.js';

let db: Database.Database;
let q: EditQueries;
let result: BuildResult;

beforeAll(async () => {
  const dbPath = join(await mkdtemp(join(tmpdir(), 'ncd-lab-int-')), 'reference.sqlite');
  result = await buildReference({ sourcesDir: officialDataDir, dbPath, loaders: [ncdLabLoader] });
  db = new Database(dbPath, { readonly: true });
  q = createEditQueries(db);
  return () => db.close();
});

const all = (sql: string): unknown[] => db.prepare(sql).all();

describe('lab NCD code lists, January 2026 (real data)', () => {
  test('loads 66,278 ICD-10 rows: resolution 1 on 37,211, 2 on 6,370, 3 on 22,697', () => {
    expect(result.units.map((u) => [u.dataset, u.release, u.rows])).toEqual([['ncd-lab', '2026Q1', 66278]]);
    expect(all('SELECT resolution, count(*) n FROM ncd_lab_icd10 GROUP BY resolution ORDER BY resolution')).toEqual([
      { resolution: 1, n: 37211 },
      { resolution: 2, n: 6370 },
      { resolution: 3, n: 22697 },
    ]);
    expect(all("SELECT count(*) n FROM ncd_lab_icd10 WHERE ncd = '190.15'")).toEqual([{ n: 22918 }]);
    // 1,961 rows carry a termination date; 849 codes take effect on 2025-10-01 (FY2026).
    expect(all("SELECT sum(valid_to IS NOT NULL) ended, sum(valid_from = '2025-10-01') fy2026 FROM ncd_lab_icd10")).toEqual([{ ended: 1961, fy2026: 849 }]);
  });

  test('lists the 26 NCDs (190.12–190.34, 190.20, 190.21, 190.23 split A/B) with 60 HCPCS codes', () => {
    expect(all("SELECT count(*) n, min(ncd) lo, max(ncd) hi, sum(ncd LIKE '%A' OR ncd LIKE '%B') split FROM ncd_lab")).toEqual([{ n: 26, lo: '190.12', hi: '190.34', split: 6 }]);
    expect(all("SELECT description FROM ncd_lab WHERE ncd = '190.15'")).toEqual([{ description: 'Blood Counts' }]);
    expect(all('SELECT count(*) n FROM ncd_lab_hcpcs')).toEqual([{ n: 60 }]);
    expect(all("SELECT hcpcs, valid_from FROM ncd_lab_hcpcs WHERE ncd = '190.23A' ORDER BY row_no")).toEqual([
      { hcpcs: '83721', valid_from: '2026-01-01' },
      { hcpcs: '83700', valid_from: '2006-04-01' },
      { hcpcs: '83701', valid_from: '2006-04-01' },
      { hcpcs: '83704', valid_from: '2006-07-01' },
    ]);
    // Each NCD ends with its all-other-codes row: covered for 190.15 (which lists what it denies), 3 elsewhere.
    expect(all("SELECT resolution, count(*) n FROM ncd_lab_icd10 WHERE icd10 = '@@@@@@@' GROUP BY resolution")).toEqual([
      { resolution: 1, n: 1 },
      { resolution: 3, n: 25 },
    ]);
  });

  test('answers NCDs of a HCPCS code and resolutions of real ICD-10 codes', () => {
    expect(q.labNcdsForHcpcs('85025', '2026-02-01')).toEqual([
      { ncd: '190.15', description: 'Blood Counts', hcpcs: '85025', validFrom: '2026-01-01', validTo: null, release: '2026Q1' },
    ]);
    expect(q.labNcdsForHcpcs('83036', '2026-02-01').map((r) => r.ncd)).toEqual(['190.21B']);
    expect(q.ncdIcd10Resolution('190.22', 'E11.9', '2026-02-01')).toMatchObject({ resolution: 1, meaning: 'covered', matched: 'listed', validFrom: '2015-10-01' });
    expect(q.ncdIcd10Resolution('190.20A', 'Z00.00', '2026-02-01')).toMatchObject({ resolution: 2, meaning: 'denied', matched: 'listed' });
    expect(q.ncdIcd10Resolution('190.15', 'Z00.00', '2026-02-01')).toMatchObject({ resolution: 2, matched: 'listed' });
    expect(q.ncdIcd10Resolution('190.15', 'D64.9', '2026-02-01')).toMatchObject({ resolution: 1, matched: 'all-other' });
    expect(q.ncdIcd10Resolution('190.12', 'D72.10', '2026-02-01')).toMatchObject({ resolution: 3, matched: 'all-other' });
  });
});
