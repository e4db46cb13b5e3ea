import { describe, expect, test } from 'vitest';
import { parseZip5Record, ZIP5_HEADER, zipLocalityLoader } from '../../../src/refdata/loaders/zip-locality.js';
import { buildFixture } from '../../helpers/build.js';
import { makeXlsx } from '../../helpers/zip.js';

type Cell = string | null;
const workbook = (rows: Cell[][]): Buffer => makeXlsx({ ZIP5_JAN2026: [[...ZIP5_HEADER], ...rows] });
const ROWS: Cell[][] = [
  ['AK', '99501', '02102', '01', null, 'Z9', null, '0', 'A', '20261'],
  ['CA', '94103', '01112', '05', null, 'Z9', null, '0', 'A', '20261'],
  ['VA', '22030', '12302', '01', 'B', 'Z9', 'B', '1', 'A', '20261'],
  ['NH', '00210', '14312', '40', 'R', 'Z1', 'R', '0', 'A', '20261', null],
];

describe('zip-locality loader', () => {
  test('parses a row and keeps leading zeros', () => {
    expect(parseZip5Record(ROWS[3] ?? [])).toEqual({
      state: 'NH',
      zip5: '00210',
      carrier: '14312',
      locality: '40',
      ruralInd: 'R',
      labCbLocality: 'Z1',
      ruralInd2: 'R',
      plus4Flag: 0,
      partBDrugIndicator: 'A',
      yearQtr: '20261',
    });
    expect(parseZip5Record(['NH', '210', '14312', '40', null, 'Z9', null, '0', 'A', '20261'])).toMatch(/ZIP CODE "210" is not 5 digits/);
    expect(parseZip5Record(['NH', '00210', '14312', '40', null, 'Z9', null, 'Y', 'A', '20261'])).toMatch(/PLUS 4 FLAG "Y"/);
  });

  test('loads every ZIP as the release its YEAR/QTR names', async () => {
    const build = await buildFixture({ 'zip-locality/ZIP5_JAN2026.xlsx': workbook(ROWS) }, [zipLocalityLoader]);
    expect(build.result.units.map((u) => [u.dataset, u.release, u.rows])).toEqual([['zip5-locality', '2026Q1', 4]]);
    const db = build.open();
    expect(db.prepare('SELECT valid_from, valid_to FROM source').get()).toEqual({ valid_from: '2026-01-01', valid_to: null });
    expect(db.prepare("SELECT * FROM zip5_locality WHERE zip5 = '22030'").get()).toEqual({
      zip5: '22030',
      valid_from: '2026-01-01',
      valid_to: null,
      state: 'VA',
      usps_state: 'VA',
      carrier: '12302',
      locality: '01',
      rural_ind: 'B',
      lab_cb_locality: 'Z9',
      rural_ind2: 'B',
      plus4_flag: 1,
      part_b_drug_indicator: 'A',
      source_id: 1,
    });
    db.close();
  });

  test('a later quarter closes the earlier one the day before it starts', async () => {
    const april = ROWS.map((r) => [...r.slice(0, 9), '20262']);
    const build = await buildFixture(
      { 'ZIP5_JAN2026.xlsx': workbook(ROWS), 'ZIP5_APR2026.xlsx': makeXlsx({ ZIP5_APR2026: [[...ZIP5_HEADER], ...april] }) },
      [zipLocalityLoader],
    );
    const db = build.open();
    expect(db.prepare("SELECT valid_from, valid_to FROM zip5_locality WHERE zip5 = '99501' ORDER BY valid_from").all()).toEqual([
      { valid_from: '2026-01-01', valid_to: '2026-03-31' },
      { valid_from: '2026-04-01', valid_to: null },
    ]);
    db.close();
  });

  test('a workbook with another header is not taken', async () => {
    const build = await buildFixture({ 'ZIP5_JAN2026.xlsx': makeXlsx({ s: [['STATE', 'ZIP', 'CARRIER'], ...ROWS] }) }, [zipLocalityLoader]);
    expect(build.result.units).toEqual([]);
  });

  test('fails the build with file and row number on a malformed row', async () => {
    const bad = [...ROWS.slice(0, 2), ['VA', '22030', '1230', '01', null, 'Z9', null, '0', 'A', '20261']];
    await expect(buildFixture({ 'zip-locality/ZIP5_JAN2026.xlsx': workbook(bad) }, [zipLocalityLoader])).rejects.toThrow(
      /zip-locality\/ZIP5_JAN2026\.xlsx:4: ZIP 22030: CARRIER "1230" is not a 5-digit contractor number/,
    );
    const otherQuarter = [...ROWS.slice(0, 1), ['VA', '22030', '12302', '01', null, 'Z9', null, '0', 'A', '20254']];
    await expect(buildFixture({ 'ZIP5_JAN2026.xlsx': workbook(otherQuarter) }, [zipLocalityLoader])).rejects.toThrow(
      /ZIP5_JAN2026\.xlsx:3: ZIP 22030: YEAR\/QTR 20254 differs from the file's 20261/,
    );
  });
});
