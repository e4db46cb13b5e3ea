import { describe, expect, test } from 'vitest';
import { mueHeaderSetting, mueLoader, parseMueRecord } from '../../../src/refdata/loaders/mue.js';
import { buildFixture } from '../../helpers/build.js';
import { makeXlsx } from '../../helpers/zip.js';

// Fixtures hold code numbers and CMS's own MAI and rationale wording only (no AMA descriptors).
const NOTICE =
  'Current Procedural Terminology (CPT) codes, descriptions and other data only are copyright 2025 American Medical Association. All rights reserved. \n\nCPT\u00ae is a registered trademark of the American Medical Association.\n\nApplicable FARS/DFARS Restrictions Apply to Government Use. ';
const ROWS = [
  ['0001U', '1', '2 Date of Service Edit: Policy', 'Code Descriptor / CPT Instruction'],
  ['36415', '2', '3 Date of Service Edit: Clinical', 'CMS Policy'],
  ['J1100', '120', '1 Line Edit', 'Prescribing Information'],
];
/** An MUE CSV as CMS writes it: Latin-1, the notice as one quoted multi-line cell, the header's line break inside quotes. */
const mueCsv = (setting: string, rows: string[][], eol = '\n'): Buffer =>
  Buffer.from(
    [`"${NOTICE.replace(/\n/g, eol)}",,,`, `"HCPCS/${eol}CPT Code",${setting} MUE Values,MUE Adjudication Indicator,MUE Rationale`, ...rows.map((r) => r.join(','))].join(eol) +
      eol,
    'latin1',
  );
const mueXlsx = (rows: string[][]): Buffer =>
  makeXlsx({
    'PractitionerSvcEff-04-01-2026': [
      [NOTICE, null, null, null],
      ['HCPCS/\nCPT Code', 'Practitioner Services MUE Values', 'MUE Adjudication Indicator', 'MUE Rationale'],
      ...rows,
    ],
  });

describe('mue loader', () => {
  test('parses a data record and reads the setting from the header', () => {
    expect(parseMueRecord(['j1100', '120', '1 Line Edit', 'Prescribing Information'])).toEqual({
      code: 'J1100',
      value: 120,
      mai: 1,
      maiText: '1 Line Edit',
      rationale: 'Prescribing Information',
    });
    expect(parseMueRecord(['J1100', '12.5', '1 Line Edit', ''])).toMatch(/MUE value "12.5" is not a whole number/);
    expect(parseMueRecord(['J1100', '1', '4 Line Edit', ''])).toMatch(/indicator "4 Line Edit" is not 1, 2 or 3/);
    expect(mueHeaderSetting(['HCPCS/\r\nCPT Code', 'DME Supplier Services MUE Values', 'MUE Adjudication Indicator', 'MUE Rationale'])).toBe('dme');
    expect(mueHeaderSetting(['HCPCS/CPT Code', 'Practitioner Services MUE Values', 'MUE Adjudication Indicator', 'MUE Rationale'])).toBeUndefined();
  });

  test('loads the three tables with MAI number and text, dated by the file name, closed by the next release or the quarter\'s end', async () => {
    const build = await buildFixture(
      {
        'ncci/MCR_MUE_PractitionerServices_Eff_01-01-2026.csv': mueCsv('Practitioner Services', [['36415', '3', '3 Date of Service Edit: Clinical', 'CMS Policy']], '\r\n'),
        'ncci/MCR_MUE_PractitionerServices_Eff_04-01-2026.csv': mueCsv('Practitioner Services', ROWS),
        'ncci/MCR_MUE_OutpatientHospitalServices_Eff_04-01-2026.csv': mueCsv('Outpatient Hospital Services', ROWS.slice(0, 2)),
        'ncci/MCR_MUE_DMESupplierServices_Eff_04-01-2026.csv': mueCsv('DME Supplier Services', [['E0601', '1', '2 Date of Service Edit: Policy', 'Nature of Equipment']]),
      },
      [mueLoader],
    );
    expect(build.result.units.map((u) => [u.dataset, u.release, u.rows])).toEqual([
      ['mue-dme', '2026Q2', 1],
      ['mue-outpatient-hospital', '2026Q2', 2],
      ['mue-practitioner', '2026Q1', 1],
      ['mue-practitioner', '2026Q2', 3],
    ]);
    const db = build.open();
    expect(db.prepare("SELECT setting, valid_from, valid_to, mue_value, mai, mai_text, rationale FROM mue WHERE code = '36415' ORDER BY setting, valid_from").all()).toEqual([
      { setting: 'outpatient-hospital', valid_from: '2026-04-01', valid_to: '2026-06-30', mue_value: 2, mai: 3, mai_text: '3 Date of Service Edit: Clinical', rationale: 'CMS Policy' },
      { setting: 'practitioner', valid_from: '2026-01-01', valid_to: '2026-03-31', mue_value: 3, mai: 3, mai_text: '3 Date of Service Edit: Clinical', rationale: 'CMS Policy' },
      { setting: 'practitioner', valid_from: '2026-04-01', valid_to: '2026-06-30', mue_value: 2, mai: 3, mai_text: '3 Date of Service Edit: Clinical', rationale: 'CMS Policy' },
    ]);
    db.close();
  });

  test('the XLSX twin beside its CSV is checked against it row by row and adds no rows', async () => {
    const build = await buildFixture(
      {
        'MCR_MUE_PractitionerServices_Eff_04-01-2026.csv': mueCsv('Practitioner Services', ROWS),
        'MCR_MUE_PractitionerServices_Eff_04-01-2026.xlsx': mueXlsx(ROWS),
      },
      [mueLoader],
    );
    expect(build.result.units.map((u) => [u.dataset, u.rows])).toEqual([
      ['mue-practitioner', 3],
      ['mue-practitioner-xlsx', 0],
    ]);
    const db = build.open();
    expect(db.prepare('SELECT count(*) AS n, min(source_id) AS s FROM mue').get()).toEqual({ n: 3, s: 1 });
    db.close();
  });

  test('a twin that differs from its CSV fails the build at its row', async () => {
    const changed = ROWS.map((r) => (r[0] === '36415' ? ['36415', '3', r[2] ?? '', r[3] ?? ''] : r));
    await expect(
      buildFixture(
        {
          'MCR_MUE_PractitionerServices_Eff_04-01-2026.csv': mueCsv('Practitioner Services', ROWS),
          'MCR_MUE_PractitionerServices_Eff_04-01-2026.xlsx': mueXlsx(changed),
        },
        [mueLoader],
      ),
    ).rejects.toThrow(/MCR_MUE_PractitionerServices_Eff_04-01-2026\.xlsx:4: code 36415 differs from its CSV twin/);
    await expect(
      buildFixture(
        {
          'MCR_MUE_PractitionerServices_Eff_04-01-2026.csv': mueCsv('Practitioner Services', ROWS),
          'MCR_MUE_PractitionerServices_Eff_04-01-2026.xlsx': mueXlsx(ROWS.slice(1)),
        },
        [mueLoader],
      ),
    ).rejects.toThrow(/xlsx: holds 2 codes; its CSV twin holds 3/);
  });

  test('without its CSV the XLSX is the practitioner table', async () => {
    const build = await buildFixture({ 'MCR_MUE_PractitionerServices_Eff_04-01-2026.xlsx': mueXlsx(ROWS) }, [mueLoader]);
    expect(build.result.units.map((u) => [u.dataset, u.release, u.rows])).toEqual([['mue-practitioner', '2026Q2', 3]]);
  });

  test('a file whose header names another setting than its name is not taken', async () => {
    const build = await buildFixture({ 'MCR_MUE_DMESupplierServices_Eff_04-01-2026.csv': mueCsv('Practitioner Services', ROWS) }, [mueLoader]);
    expect(build.result.units).toEqual([]);
  });

  test('fails the build with file and line number on a malformed record', async () => {
    const rows = [...ROWS, ['97110', 'four', '3 Date of Service Edit: Clinical', 'Clinical: Data']];
    // The notice spans 5 lines and the header 2, so the fourth data record is on line 11.
    await expect(buildFixture({ 'ncci/MCR_MUE_DMESupplierServices_Eff_04-01-2026.csv': mueCsv('DME Supplier Services', rows) }, [mueLoader])).rejects.toThrow(
      /ncci\/MCR_MUE_DMESupplierServices_Eff_04-01-2026\.csv:11: code 97110: MUE value "four" is not a whole number/,
    );
    const twice = [...ROWS, ROWS[0] ?? []];
    await expect(buildFixture({ 'MCR_MUE_DMESupplierServices_Eff_04-01-2026.csv': mueCsv('DME Supplier Services', twice) }, [mueLoader])).rejects.toThrow(
      /\.csv:11: code 0001U: UNIQUE constraint failed/,
    );
  });
});
