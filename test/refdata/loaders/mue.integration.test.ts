// Integration: the real April 2026 MUE tables (practitioner CSV and its XLSX twin, outpatient hospital, DME).
import Database from 'better-sqlite3';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { buildReference, type BuildResult } from '../../../src/refdata/builder/builder.js';
import { mueLoader } from '../../../src/refdata/loaders/mue.js';
import { createEditQueries, type EditQueries } from '../../../src/reference/queries/edits.js';
import { officialDataDir } from '../../helpers/build.js';

let db: Database.Database;
let q: EditQueries;
let result: BuildResult;

beforeAll(async () => {
  const dbPath = join(await mkdtemp(join(tmpdir(), 'mue-int-')), 'reference.sqlite');
  result = await buildReference({ sourcesDir: officialDataDir, dbPath, loaders: [mueLoader] });
  db = new Database(dbPath, { readonly: true });
  q = createEditQueries(db);
  return () => db.close();
});

const all = (sql: string): unknown[] => db.prepare(sql).all();

describe('NCCI MUE tables, April 2026 (real data)', () => {
  test('loads 15,095 / 15,045 / 3,083 codes as release 2026Q2; the XLSX twin matched the CSV row for row', () => {
    // The twin adds no rows: the build would have failed at the first code that differs from the CSV.
    expect(result.units.map((u) => [u.dataset, u.release, u.file, u.rows])).toEqual([
      ['mue-dme', '2026Q2', 'ncci/MCR_MUE_DMESupplierServices_Eff_04-01-2026.csv', 3083],
      ['mue-outpatient-hospital', '2026Q2', 'ncci/MCR_MUE_OutpatientHospitalServices_Eff_04-01-2026.csv', 15045],
      ['mue-practitioner', '2026Q2', 'ncci/MCR_MUE_PractitionerServices_Eff_04-01-2026.csv', 15095],
      ['mue-practitioner-xlsx', '2026Q2', 'ncci/MCR_MUE_PractitionerServices_Eff_04-01-2026.xlsx', 0],
    ]);
    expect(all('SELECT setting, count(*) n, count(DISTINCT code) codes, min(valid_from) f, max(valid_to) t FROM mue GROUP BY setting ORDER BY setting')).toEqual([
      { setting: 'dme', n: 3083, codes: 3083, f: '2026-04-01', t: '2026-06-30' },
      { setting: 'outpatient-hospital', n: 15045, codes: 15045, f: '2026-04-01', t: '2026-06-30' },
      { setting: 'practitioner', n: 15095, codes: 15095, f: '2026-04-01', t: '2026-06-30' },
    ]);
  });

  test('MAI 1 / 2 / 3 counts per table are 41/5,417/9,637, 42/6,075/8,928 and 23/1,309/1,751', () => {
    expect(all('SELECT setting, mai, count(*) n FROM mue GROUP BY setting, mai ORDER BY setting, mai')).toEqual([
      { setting: 'dme', mai: 1, n: 23 },
      { setting: 'dme', mai: 2, n: 1309 },
      { setting: 'dme', mai: 3, n: 1751 },
      { setting: 'outpatient-hospital', mai: 1, n: 42 },
      { setting: 'outpatient-hospital', mai: 2, n: 6075 },
      { setting: 'outpatient-hospital', mai: 3, n: 8928 },
      { setting: 'practitioner', mai: 1, n: 41 },
      { setting: 'practitioner', mai: 2, n: 5417 },
      { setting: 'practitioner', mai: 3, n: 9637 },
    ]);
    expect(all('SELECT DISTINCT mai, mai_text FROM mue ORDER BY mai')).toEqual([
      { mai: 1, mai_text: '1 Line Edit' },
      { mai: 2, mai_text: '2 Date of Service Edit: Policy' },
      { mai: 3, mai_text: '3 Date of Service Edit: Clinical' },
    ]);
  });

  test('answers real rows by code, date and setting', () => {
    expect(q.mue('0001U', '2026-04-01', 'practitioner')).toEqual({
      setting: 'practitioner',
      code: '0001U',
      value: 1,
      mai: 2,
      maiText: '2 Date of Service Edit: Policy',
      rationale: 'Code Descriptor / CPT Instruction',
      release: '2026Q2',
      validFrom: '2026-04-01',
      validTo: '2026-06-30',
    });
    expect(q.mue('97110', '2026-05-01', 'practitioner')).toMatchObject({ value: 6, mai: 3, rationale: 'Clinical: Data' });
    expect(q.mue('97110', '2026-05-01', 'outpatient-hospital')).toMatchObject({ value: 8, mai: 3 });
    expect(q.mue('J7212', '2026-05-01', 'practitioner')).toMatchObject({ value: 90000, mai: 1, rationale: 'Prescribing Information' });
    expect(q.mue('E0601', '2026-05-01', 'dme')).toMatchObject({ value: 1, mai: 3, rationale: 'Nature of Equipment' });
    expect(q.mue('E0601', '2026-05-01', 'practitioner')).toMatchObject({ value: 0, rationale: 'CMS Policy' });
    expect(q.mue('V5364', '2026-05-01', 'dme')).toBeUndefined();
    expect(q.mue('0001U', '2026-03-31', 'practitioner')).toBeUndefined();
  });
});
