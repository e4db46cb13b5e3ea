import { describe, expect, test } from 'vitest';
import { AOC_HEADER, ncciAocLoader, parseAocRecord } from '../../../src/refdata/loaders/ncci-aoc.js';
import { buildFixture } from '../../helpers/build.js';
import { makeXlsx } from '../../helpers/zip.js';

const NOTICE = 'Current Procedural Terminology (CPT) codes, descriptions and other data only are copyright 2025 American Medical Association.';
type Cell = string | number | null;
const workbook = (rows: Cell[][]): Buffer => makeXlsx({ 'AOC_V2026Q2-MCR_xlsx': [[NOTICE], [...AOC_HEADER], ...rows] });
const ROWS: Cell[][] = [
  ['2', '0054T', null, 'CCCCC', null, '2013091', null, 'Contractor Defined Primary Codes'],
  ['1', '0079T', '2013365', '0078T', '2013365', '2013091', '2013365'],
  ['1', '22552', null, '22551', null, '2013091'],
  ['1', '22552', null, '22554', null, '2013091', '2017365'],
  ['3', '22552', null, '63081', null, '2024001', null, '(Temporarily suspended retroactive to 1/1/2019)'],
];

describe('ncci-aoc loader', () => {
  test('parses a row and decodes its Julian dates', () => {
    expect(parseAocRecord(['1', '0079T', '2013365', '0078T', '2013365', '2013091', '2013365'])).toEqual({
      editType: 1,
      addOnCode: '0079T',
      addOnDeleted: '2013-12-31',
      primaryCode: '0078T',
      primaryDeleted: '2013-12-31',
      effective: '2013-04-01',
      deleted: '2013-12-31',
      notes: null,
    });
    expect(parseAocRecord(['4', '0079T', null, '0078T', null, '2013091'])).toMatch(/AOC_Edit_Type "4"/);
    expect(parseAocRecord(['1', '0079T', null, '0078T', null, '2013400'])).toMatch(/AOC_Edit_EffDT "2013400" is not a Julian date/);
    expect(parseAocRecord(['1', '0079T', null, '0078T', null, null])).toMatch(/AOC_Edit_EffDT is empty/);
  });

  test('loads every row with its type, codes, dates and notes as release 2026Q2', async () => {
    const build = await buildFixture({ 'ncci/AOC_V2026Q2-MCR.xlsx': workbook(ROWS) }, [ncciAocLoader]);
    expect(build.result.units.map((u) => [u.dataset, u.release, u.rows])).toEqual([['ncci-aoc', '2026Q2', 5]]);
    const db = build.open();
    expect(db.prepare('SELECT * FROM ncci_aoc ORDER BY row_no').all()).toEqual([
      { add_on_code: '0054T', primary_code: 'CCCCC', edit_type: 2, add_on_deleted: null, primary_deleted: null, valid_from: '2013-04-01', valid_to: null, notes: 'Contractor Defined Primary Codes', row_no: 3, source_id: 1 },
      { add_on_code: '0079T', primary_code: '0078T', edit_type: 1, add_on_deleted: '2013-12-31', primary_deleted: '2013-12-31', valid_from: '2013-04-01', valid_to: '2013-12-31', notes: null, row_no: 4, source_id: 1 },
      { add_on_code: '22552', primary_code: '22551', edit_type: 1, add_on_deleted: null, primary_deleted: null, valid_from: '2013-04-01', valid_to: null, notes: null, row_no: 5, source_id: 1 },
      { add_on_code: '22552', primary_code: '22554', edit_type: 1, add_on_deleted: null, primary_deleted: null, valid_from: '2013-04-01', valid_to: '2017-12-31', notes: null, row_no: 6, source_id: 1 },
      { add_on_code: '22552', primary_code: '63081', edit_type: 3, add_on_deleted: null, primary_deleted: null, valid_from: '2024-01-01', valid_to: null, notes: '(Temporarily suspended retroactive to 1/1/2019)', row_no: 7, source_id: 1 },
    ]);
    db.close();
  });

  test('a workbook without the AOC header row is not taken', async () => {
    const build = await buildFixture({ 'AOC_V2026Q2-MCR.xlsx': makeXlsx({ s: [[NOTICE], ...ROWS] }) }, [ncciAocLoader]);
    expect(build.result.units).toEqual([]);
  });

  test('fails the build with file and row number on a malformed row', async () => {
    const bad = [...ROWS.slice(0, 2), ['1', '22552', null, '22551', null, '2013-04-01']];
    await expect(buildFixture({ 'ncci/AOC_V2026Q2-MCR.xlsx': workbook(bad) }, [ncciAocLoader])).rejects.toThrow(
      /ncci\/AOC_V2026Q2-MCR\.xlsx:5: add-on 22552, primary 22551: AOC_Edit_EffDT "2013-04-01" is not a Julian date YYYYDDD/,
    );
  });
});
