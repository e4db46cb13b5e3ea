import { describe, expect, test } from 'vitest';
import {
  icd10cmConversionLoader,
  parseEffective,
  parsePreviousCodes,
} from '../../../src/refdata/loaders/icd10cm-conversion.js';
import { buildFixture } from '../../helpers/build.js';
import { makeXlsx } from '../../helpers/zip.js';

const preface =
  'This FY 2026 (October 1, 2025 Update) Conversion Table includes the new ICD-10-CM codes. Unless otherwise specified the code effective date is October 1 of the year listed.';
const heading = ['Current code assignment', 'Effective', 'Previous Code(s) Assignment'];

// The CDC sheet: a merged preface row, the heading row, then current code / effective / previous code(s). Years are
// text, April and January updates are date serials (45017 is 2023-04-01), codes may carry trailing spaces.
const table = (rows: (string | number | null)[][]): Buffer =>
  makeXlsx({ 'ICD-10-CM-Conversion-Table-FY26': [[preface, null, null], heading, ...rows, [null, null, null]] });

describe('icd10cm-conversion loader', () => {
  test('splits a previous-code cell into codes, ranges and categories', () => {
    expect(parsePreviousCodes('A04.7')).toEqual([{ first: 'A047', last: null }]);
    expect(parsePreviousCodes('C56.1 and C56.2')).toEqual([
      { first: 'C561', last: null },
      { first: 'C562', last: null },
    ]);
    expect(parsePreviousCodes('H02.101-H02.106; H02.109')).toEqual([
      { first: 'H02101', last: 'H02106' },
      { first: 'H02109', last: null },
    ]);
    expect(parsePreviousCodes('I63.- and P91.88')).toEqual([
      { first: 'I63', last: 'I63' },
      { first: 'P9188', last: null },
    ]);
    expect(parsePreviousCodes('K59.09 AND Code from categories T36-T50')).toEqual([
      { first: 'K5909', last: null },
      { first: 'T36', last: 'T50' },
    ]);
    expect(parsePreviousCodes('K31.89 and a code from R11-')).toEqual([
      { first: 'K3189', last: null },
      { first: 'R11', last: 'R11' },
    ]);
    expect(parsePreviousCodes('Codes in Categories T15-T19')).toEqual([{ first: 'T15', last: 'T19' }]);
    expect(parsePreviousCodes('M93.001 & M93.002')).toEqual([
      { first: 'M93001', last: null },
      { first: 'M93002', last: null },
    ]);
    expect(parsePreviousCodes('T40.7X3D ')).toEqual([{ first: 'T407X3D', last: null }]);
    expect(parsePreviousCodes('None')).toEqual([{ first: null, last: null }]);
    expect(parsePreviousCodes('see tabular')).toBeUndefined();
    expect(parsePreviousCodes('')).toBeUndefined();
  });

  test('reads the Effective cell as a year (October 1), a date serial or a m/d/yyyy date', () => {
    expect(parseEffective('2016')).toBe('2016-10-01');
    expect(parseEffective('45017')).toBe('2023-04-01');
    expect(parseEffective('43922')).toBe('2020-04-01');
    expect(parseEffective('4/1/2023')).toBe('2023-04-01');
    expect(parseEffective('2/30/2023')).toBeUndefined();
    expect(parseEffective('13/1/2023')).toBeUndefined();
    expect(parseEffective('FY2016')).toBeUndefined();
  });

  test('stores one link row per current code and previous code or range', async () => {
    const build = await buildFixture(
      {
        'icd10cm/ICD-10-CM-CONVERSION-TABLE-FY2026.xlsx': table([
          ['A04.71', '2017', 'A04.7'],
          ['C56.3', '2021', 'C56.1 and C56.2'],
          ['I1A.0', '2023', 'I10-I15.9'],
          ['D68.00 ', '2022', 'D68.0'],
          ['T74.A1XA', 45017, 'T74.91XA'],
          ['M04.8', '2016', 'None'],
        ]),
      },
      [icd10cmConversionLoader],
    );
    const db = build.open();
    expect(db.prepare('SELECT dataset, release, valid_from, rows FROM source').all()).toEqual([
      { dataset: 'icd10cm-conversion', release: 'FY2026', valid_from: '2025-10-01', rows: 7 },
    ]);
    expect(
      db
        .prepare(
          'SELECT current_code, effective, previous_code, previous_last, previous_text, row_no, seq FROM icd10cm_conversion ORDER BY row_no, seq',
        )
        .all(),
    ).toEqual([
      {
        current_code: 'A0471',
        effective: '2017-10-01',
        previous_code: 'A047',
        previous_last: null,
        previous_text: 'A04.7',
        row_no: 3,
        seq: 0,
      },
      {
        current_code: 'C563',
        effective: '2021-10-01',
        previous_code: 'C561',
        previous_last: null,
        previous_text: 'C56.1 and C56.2',
        row_no: 4,
        seq: 0,
      },
      {
        current_code: 'C563',
        effective: '2021-10-01',
        previous_code: 'C562',
        previous_last: null,
        previous_text: 'C56.1 and C56.2',
        row_no: 4,
        seq: 1,
      },
      {
        current_code: 'I1A0',
        effective: '2023-10-01',
        previous_code: 'I10',
        previous_last: 'I159',
        previous_text: 'I10-I15.9',
        row_no: 5,
        seq: 0,
      },
      {
        current_code: 'D6800',
        effective: '2022-10-01',
        previous_code: 'D680',
        previous_last: null,
        previous_text: 'D68.0',
        row_no: 6,
        seq: 0,
      },
      {
        current_code: 'T74A1XA',
        effective: '2023-04-01',
        previous_code: 'T7491XA',
        previous_last: null,
        previous_text: 'T74.91XA',
        row_no: 7,
        seq: 0,
      },
      {
        current_code: 'M048',
        effective: '2016-10-01',
        previous_code: null,
        previous_last: null,
        previous_text: 'None',
        row_no: 8,
        seq: 0,
      },
    ]);
    db.close();
  });

  test('fails the build with file and sheet row on a malformed row', async () => {
    const badPrevious = table([
      ['A04.71', '2017', 'A04.7'],
      ['A04.72', '2017', 'see A04.7'],
    ]);
    await expect(
      buildFixture({ 'icd-10-cm-conversion-table-FY2025.xlsx': badPrevious }, [icd10cmConversionLoader]),
    ).rejects.toThrow(/icd-10-cm-conversion-table-FY2025\.xlsx:4: previous code\(s\) "see A04\.7" could not be read/);
    const badDate = table([['A04.71', 'Oct 2017', 'A04.7']]);
    await expect(
      buildFixture({ 'icd-10-cm-conversion-table-FY2025.xlsx': badDate }, [icd10cmConversionLoader]),
    ).rejects.toThrow(/FY2025\.xlsx:3: effective date "Oct 2017" is neither a year nor a date/);
    const badCode = table([['A04-71', '2017', 'A04.7']]);
    await expect(
      buildFixture({ 'icd-10-cm-conversion-table-FY2025.xlsx': badCode }, [icd10cmConversionLoader]),
    ).rejects.toThrow(/FY2025\.xlsx:3: current code "A04-71"/);
  });

  test('skips a workbook with the name but not the heading', async () => {
    const build = await buildFixture(
      {
        'ICD-10-CM-CONVERSION-TABLE-FY2026.xlsx': makeXlsx({
          Sheet1: [
            ['code', 'title'],
            ['A04.71', 'Enterocolitis'],
          ],
        }),
      },
      [icd10cmConversionLoader],
    );
    expect(build.result.skipped.map((s) => s.file)).toEqual(['ICD-10-CM-CONVERSION-TABLE-FY2026.xlsx']);
  });
});
