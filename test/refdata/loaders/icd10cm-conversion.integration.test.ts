// Integration: the real CDC ICD-10-CM conversion tables FY2025 and FY2026 in ../shared/data.
import Database from 'better-sqlite3';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { buildReference } from '../../../src/refdata/builder/builder.js';
import { icd10cmConversionLoader } from '../../../src/refdata/loaders/icd10cm-conversion.js';
import { createMappingQueries, type MappingQueries } from '../../../src/reference/queries/mapping.js';
import { officialDataDir } from '../../helpers/build.js';

let db: Database.Database;
let mapping: MappingQueries;

beforeAll(async () => {
  const dbPath = join(await mkdtemp(join(tmpdir(), 'conv-int-')), 'reference.sqlite');
  await buildReference({ sourcesDir: officialDataDir, dbPath, loaders: [icd10cmConversionLoader] });
  db = new Database(dbPath, { readonly: true });
  mapping = createMappingQueries(db);
  return () => db.close();
});

const count = (sql: string, ...params: unknown[]): number => (db.prepare(sql).get(...params) as { n: number }).n;

describe('ICD-10-CM conversion tables (real data)', () => {
  test('every current code of the sheets (A3:A5894 FY2026, A3:A5407 FY2025) is read', () => {
    expect(db.prepare('SELECT release, valid_from, valid_to FROM source ORDER BY valid_from').all()).toEqual([
      { release: 'FY2025', valid_from: '2024-10-01', valid_to: '2025-09-30' },
      { release: 'FY2026', valid_from: '2025-10-01', valid_to: null },
    ]);
    expect(count("SELECT count(DISTINCT row_no) n FROM icd10cm_conversion WHERE valid_from = '2025-10-01'")).toBe(
      5_892,
    );
    expect(count("SELECT count(DISTINCT row_no) n FROM icd10cm_conversion WHERE valid_from = '2024-10-01'")).toBe(
      5_405,
    );
    // 125 rows say "None": a new concept with no previous code.
    expect(
      count("SELECT count(*) n FROM icd10cm_conversion WHERE valid_from = '2025-10-01' AND previous_code IS NULL"),
    ).toBe(125);
  });

  test('a year means October 1 of that year; serials are the April and January updates', () => {
    expect(mapping.previousCodes('A04.71')).toEqual([
      {
        release: 'FY2026',
        rowNo: 3,
        currentCode: 'A0471',
        effective: '2017-10-01',
        previousCode: 'A047',
        previousLast: null,
        previousText: 'A04.7',
      },
    ]);
    expect(mapping.previousCodes('T74.A1XA')).toMatchObject([{ effective: '2023-04-01', previousCode: 'T7491XA' }]);
    expect(mapping.previousCodes('U07.1')).toMatchObject([{ effective: '2020-04-01', previousCode: 'B9729' }]);
    expect(mapping.previousCodes('J12.82')).toMatchObject([{ effective: '2021-01-01', previousCode: 'J1289' }]);
    expect(mapping.previousCodes('B88.01')).toMatchObject([
      { release: 'FY2026', effective: '2025-10-01', previousCode: 'B880' },
    ]);
    // Not in the FY2025 table, which the date selects.
    expect(mapping.previousCodes('B88.01', '2025-03-01')).toEqual([]);
  });

  test('several previous codes, ranges and categories become one link each (rows checked by hand)', () => {
    expect(mapping.previousCodes('G11.5').map((l) => l.previousCode)).toEqual(['G118', 'E230', 'K000']);
    expect(mapping.previousCodes('H44.2A1').map((l) => [l.previousCode, l.previousLast])).toEqual([
      ['H4420', 'H4423'],
      ['H35051', 'H35059'],
    ]);
    expect(mapping.previousCodes('P91.821').map((l) => [l.previousCode, l.previousLast, l.previousText])).toEqual([
      ['I63', 'I63', 'I63.- and P91.88'],
      ['P9188', null, 'I63.- and P91.88'],
    ]);
    expect(mapping.previousCodes('C44.1121')).toMatchObject([{ currentCode: 'C441121', previousCode: 'C44112' }]);
  });

  test('previous → current follows single codes, ranges and whole categories', () => {
    expect(mapping.laterCodes('A04.7').map((l) => l.currentCode)).toEqual(['A0471', 'A0472']);
    expect(mapping.laterCodes('H35.21').map((l) => l.currentCode)).toContain('H36811');
    // I63.512 is named itself ("I63.511 AND I63.512" → I63.513) and lies in the category I63.- (→ P91.82x).
    expect(mapping.laterCodes('I63.512').map((l) => l.currentCode)).toEqual([
      'I63513',
      'P91821',
      'P91822',
      'P91823',
      'P91829',
    ]);
    expect(mapping.laterCodes('T17.200A').filter((l) => l.currentCode === 'W44A0XA')).toMatchObject([
      { previousCode: 'T15', previousLast: 'T19' },
    ]);
  });
});
