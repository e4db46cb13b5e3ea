// Integration: the real ICD-9-CM v32 master descriptions in ../shared/data.
import Database from 'better-sqlite3';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { buildReference } from '../../../src/refdata/builder/builder.js';
import { icd9cmLoader } from '../../../src/refdata/loaders/icd9cm.js';
import { createMappingQueries, type MappingQueries } from '../../../src/reference/queries/mapping.js';
import { officialDataDir } from '../../helpers/build.js';

let db: Database.Database;
let mapping: MappingQueries;

beforeAll(async () => {
  const dbPath = join(await mkdtemp(join(tmpdir(), 'icd9-int-')), 'reference.sqlite');
  await buildReference({ sourcesDir: officialDataDir, dbPath, loaders: [icd9cmLoader] });
  db = new Database(dbPath, { readonly: true });
  mapping = createMappingQueries(db);
  return () => db.close();
});

const count = (sql: string): number => (db.prepare(sql).get() as { n: number }).n;

describe('ICD-9-CM v32 (real data)', () => {
  test('has 14,567 diagnosis and 3,882 procedure codes, all billable, each with both titles', () => {
    expect(count("SELECT count(*) n FROM code WHERE system = 'ICD9CM_DX'")).toBe(14_567);
    expect(count("SELECT count(*) n FROM code WHERE system = 'ICD9CM_PROC'")).toBe(3_882);
    expect(
      count(
        "SELECT count(*) n FROM code WHERE system LIKE 'ICD9CM%' AND (billable <> 1 OR short_title IS NULL OR long_title IS NULL)",
      ),
    ).toBe(0);
    expect(
      db.prepare('SELECT dataset, release, valid_from, valid_to, rows FROM source ORDER BY dataset').all(),
    ).toEqual([
      { dataset: 'icd9cm-dx', release: 'v32', valid_from: '2014-10-01', valid_to: '2015-09-30', rows: 14_567 },
      { dataset: 'icd9cm-proc', release: 'v32', valid_from: '2014-10-01', valid_to: '2015-09-30', rows: 3_882 },
    ]);
  });

  test('decodes ISO-8859-1 titles (Friedländer, Ménière)', () => {
    expect(mapping.icd9Detail('dx', '041.3')).toEqual({
      system: 'ICD9CM_DX',
      code: '0413',
      shortTitle: 'Klebsiella pneumoniae',
      longTitle: "Friedländer's bacillus infection in conditions classified elsewhere and of unspecified site",
      validFrom: '2014-10-01',
      validTo: '2015-09-30',
      release: 'v32',
    });
    expect(mapping.icd9Detail('dx', '38600')?.longTitle).toBe("Ménière's disease, unspecified");
  });

  test('answers sample diagnosis and procedure codes as the files print them', () => {
    expect(mapping.icd9Detail('dx', '250.00')).toMatchObject({
      shortTitle: 'DMII wo cmp nt st uncntr',
      longTitle:
        'Diabetes mellitus without mention of complication, type II or unspecified type, not stated as uncontrolled',
    });
    expect(mapping.icd9Detail('dx', 'E0000')).toMatchObject({
      shortTitle: 'Civilian activity-income',
      longTitle: 'Civilian activity done for income or pay',
    });
    expect(mapping.icd9Detail('proc', '81.54')).toMatchObject({
      shortTitle: 'Total knee replacement',
      longTitle: 'Total knee replacement',
    });
    expect(mapping.icd9Detail('proc', '0001')).toMatchObject({
      shortTitle: 'Ther ult head & neck ves',
      longTitle: 'Therapeutic ultrasound of vessels of head and neck',
    });
    expect(mapping.icd9Detail('dx', '250')).toBeUndefined();
  });
});
