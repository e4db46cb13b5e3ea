import { describe, expect, test } from 'vitest';
import { isNcdHeader, ncdDate, ncdLabLoader } from '../../../src/refdata/loaders/ncd-lab.js';
import { buildFixture } from '../../helpers/build.js';
import { makeXlsx } from '../../helpers/zip.js';

type Cell = string | number | null;
// The legend and the two header rows as the CMS spreadsheet lays them out (columns A–I).
const TOP: Cell[][] = [
  [null, null, null, 'MEDICARE NATIONAL COVERAGE DETERMINATIONS'],
  [null, null, 'Legend', null, null, null, 'Resolution Code Definitions '],
  ['Red in this spreadsheet indicates an January 2026 change.', null, null, null, null, '     1 - ICD-10-CM codes covered by Medicare.'],
  [null, null, null, null, null, '     2 - ICD-10-CM codes denied. '],
  [null, null, null, null, null, '     3 - ICD-10-CM codes that do not support medical necessity.'],
  ['NCD ', 'NCD', 'CPT/HCPCS ', 'CPT/HCPCS', 'CPT/HCPCS', 'ICD-10', 'ICD-10 EFF', 'ICD-10 TERM', 'RESOLUTION'],
  ['Number', 'DESCRIPTION', 'CODES', 'EFF DATE', 'TERM DATE', 'CODE', ' DATE', 'DATE', 'CODE 1/'],
];
// 42278 = 2015-10-01, 44469 = 2021-09-30, 37803 = 2003-07-01 (Excel serials).
const BLOCKS: Cell[][] = [
  ['190.12', 'Urine Culture, Bacterial', '87086', null, null, 'A021', 42278, null, '1'],
  ['190.12', null, '87088', null, null, 'N390', 42278, null, '1'],
  ['190.12', null, null, null, null, 'R3915', 42278, 44469, '1'],
  ['190.12', null, null, null, null, '@@@@@@@', 42278, null, '3'],
  ['190.15', 'Blood Counts', '85004', 37803, null, 'Z0000', '10/01/2015', null, '2'],
  [null, null, '85025, 85027', null, null, 'Z0001', 42278, null, '2'],
  [null, null, null, null, null, '@@@@@@@', 42278, null, '1'],
];
const sheet = (rows: Cell[][]): Buffer => makeXlsx({ Sheet1: [...TOP, ...rows] });
const NAME = 'ncd-lab/2026100-Initial-ICD10-NCD-Spreadsheet-20250721.xlsx';

describe('ncd-lab loader', () => {
  test('reads Excel serial and text dates', () => {
    expect(ncdDate('42278')).toBe('2015-10-01');
    expect(ncdDate('10/1/2015')).toBe('2015-10-01');
    expect(ncdDate('2015-10-01')).toBe('2015-10-01');
    expect(ncdDate(null)).toBeNull();
    expect(ncdDate('13/01/2015')).toBeUndefined();
    expect(ncdDate('soon')).toBeUndefined();
    const text = (row: Cell[] | undefined): (string | null)[] => (row ?? []).map((c) => (c === null ? null : String(c)));
    expect(isNcdHeader(text(TOP[5]), text(TOP[6]))).toBe(true);
    expect(isNcdHeader(text(TOP[4]), text(TOP[5]))).toBe(false);
  });

  test('carries NCD number and description forward and loads the HCPCS and ICD-10 lists with their dates', async () => {
    const build = await buildFixture({ [NAME]: sheet(BLOCKS) }, [ncdLabLoader]);
    expect(build.result.units.map((u) => [u.dataset, u.release, u.rows])).toEqual([['ncd-lab', '2026Q1', 7]]);
    const db = build.open();
    expect(db.prepare('SELECT ncd, description, valid_from, valid_to FROM ncd_lab ORDER BY ncd').all()).toEqual([
      { ncd: '190.12', description: 'Urine Culture, Bacterial', valid_from: '2026-01-01', valid_to: '2026-03-31' },
      { ncd: '190.15', description: 'Blood Counts', valid_from: '2026-01-01', valid_to: '2026-03-31' },
    ]);
    expect(db.prepare('SELECT ncd, hcpcs, valid_from, valid_to, row_no FROM ncd_lab_hcpcs ORDER BY row_no, hcpcs').all()).toEqual([
      { ncd: '190.12', hcpcs: '87086', valid_from: '2026-01-01', valid_to: null, row_no: 8 },
      { ncd: '190.12', hcpcs: '87088', valid_from: '2026-01-01', valid_to: null, row_no: 9 },
      { ncd: '190.15', hcpcs: '85004', valid_from: '2003-07-01', valid_to: null, row_no: 12 },
      { ncd: '190.15', hcpcs: '85025', valid_from: '2026-01-01', valid_to: null, row_no: 13 },
      { ncd: '190.15', hcpcs: '85027', valid_from: '2026-01-01', valid_to: null, row_no: 13 },
    ]);
    expect(db.prepare('SELECT ncd, icd10, valid_from, valid_to, resolution FROM ncd_lab_icd10 ORDER BY row_no').all()).toEqual([
      { ncd: '190.12', icd10: 'A021', valid_from: '2015-10-01', valid_to: null, resolution: 1 },
      { ncd: '190.12', icd10: 'N390', valid_from: '2015-10-01', valid_to: null, resolution: 1 },
      { ncd: '190.12', icd10: 'R3915', valid_from: '2015-10-01', valid_to: '2021-09-30', resolution: 1 },
      { ncd: '190.12', icd10: '@@@@@@@', valid_from: '2015-10-01', valid_to: null, resolution: 3 },
      { ncd: '190.15', icd10: 'Z0000', valid_from: '2015-10-01', valid_to: null, resolution: 2 },
      { ncd: '190.15', icd10: 'Z0001', valid_from: '2015-10-01', valid_to: null, resolution: 2 },
      { ncd: '190.15', icd10: '@@@@@@@', valid_from: '2015-10-01', valid_to: null, resolution: 1 },
    ]);
    db.close();
  });

  test('a workbook without the two-row header, or the Section 508 twin, is not taken', async () => {
    const build = await buildFixture(
      {
        [NAME]: makeXlsx({ Sheet1: [...TOP.slice(0, 5), ...BLOCKS] }),
        'ncd-lab/2026100-Initial-ICD10-NCD-Spreadsheet-20250721-508.xlsx': sheet(BLOCKS),
      },
      [ncdLabLoader],
    );
    expect(build.result.units).toEqual([]);
    expect(build.result.skipped.map((s) => s.file)).toHaveLength(2);
  });

  test('fails the build with file and row number on a malformed row', async () => {
    const badResolution = [...BLOCKS.slice(0, 2), ['190.12', null, null, null, null, 'R3915', 42278, null, '4']];
    await expect(buildFixture({ [NAME]: sheet(badResolution) }, [ncdLabLoader])).rejects.toThrow(
      /ncd-lab\/2026100-Initial-ICD10-NCD-Spreadsheet-20250721\.xlsx:10: NCD 190\.12, R3915: resolution code "4" is not 1, 2 or 3/,
    );
    const badDate = [...BLOCKS.slice(0, 1), ['190.12', null, null, null, null, 'N390', 'Oct 2015', null, '1']];
    await expect(buildFixture({ [NAME]: sheet(badDate) }, [ncdLabLoader])).rejects.toThrow(/\.xlsx:9: ICD-10 Eff Date "Oct 2015" is not a date/);
    const noDescription = [['190.12', null, '87086', null, null, 'A021', 42278, null, '1']];
    await expect(buildFixture({ [NAME]: sheet(noDescription) }, [ncdLabLoader])).rejects.toThrow(/\.xlsx:8: NCD 190\.12 has no description on its first row/);
  });
});
