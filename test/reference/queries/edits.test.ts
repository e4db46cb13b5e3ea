// The edit lookups over a small database built from hand-made tables in the official layouts.
import type Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mueLoader } from '../../../src/refdata/loaders/mue.js';
import { AOC_HEADER, ncciAocLoader } from '../../../src/refdata/loaders/ncci-aoc.js';
import { ncciPtpLoader } from '../../../src/refdata/loaders/ncci-ptp.js';
import { ncdLabLoader } from '../../../src/refdata/loaders/ncd-lab.js';
import { ZIP5_HEADER, zipLocalityLoader } from '../../../src/refdata/loaders/zip-locality.js';
import { createEditQueries, type EditQueries } from '../../../src/reference/queries/edits.js';
import { buildFixture } from '../../helpers/build.js';
import { makeXlsx } from '../../helpers/zip.js';

const fixture = (name: string): string => readFileSync(new URL(`../../fixtures/ncci/${name}`, import.meta.url), 'latin1');
const mueCsv = (setting: string, rows: string[]): string =>
  [
    '"Current Procedural Terminology (CPT) codes, descriptions and other data only are copyright 2025 American Medical Association.\nAll rights reserved.",,,',
    `"HCPCS/\nCPT Code",${setting} MUE Values,MUE Adjudication Indicator,MUE Rationale`,
    ...rows,
    '',
  ].join('\n');
const NCD_HEADER = [
  ['NCD ', 'NCD', 'CPT/HCPCS ', 'CPT/HCPCS', 'CPT/HCPCS', 'ICD-10', 'ICD-10 EFF', 'ICD-10 TERM', 'RESOLUTION'],
  ['Number', 'DESCRIPTION', 'CODES', 'EFF DATE', 'TERM DATE', 'CODE', ' DATE', 'DATE', 'CODE 1/'],
];

let db: Database.Database;
let q: EditQueries;

beforeAll(async () => {
  const build = await buildFixture(
    {
      'ncci/MCR_MUE_PractitionerServices_Eff_01-01-2026.csv': mueCsv('Practitioner Services', ['36415,3,3 Date of Service Edit: Clinical,CMS Policy']),
      'ncci/MCR_MUE_PractitionerServices_Eff_04-01-2026.csv': mueCsv('Practitioner Services', [
        '36415,2,3 Date of Service Edit: Clinical,CMS Policy',
        'J1100,120,1 Line Edit,Prescribing Information',
      ]),
      'ncci/MCR_MUE_OutpatientHospitalServices_Eff_04-01-2026.csv': mueCsv('Outpatient Hospital Services', ['36415,1,2 Date of Service Edit: Policy,CMS Policy']),
      'ncci/AOC_V2026Q2-MCR.xlsx': makeXlsx({
        'AOC_V2026Q2-MCR_xlsx': [
          ['AMA notice'],
          [...AOC_HEADER],
          ['1', '22552', null, '22551', null, '2013091'],
          ['1', '22552', null, '22554', null, '2013091', '2017365'],
          ['1', '22552', null, '22856', null, '2026092'],
          ['2', '0054T', null, 'CCCCC', null, '2013091', null, 'Contractor Defined Primary Codes'],
        ],
      }),
      'ncci/ccipra-v321r0-f1.txt': fixture('ccipra-v321r0-f1.txt'),
      'ncci/ccioph-v321r0-f1.txt': fixture('ccioph-v321r0-f1.txt'),
      'ncd-lab/2026100-Initial-ICD10-NCD-Spreadsheet-20250721.xlsx': makeXlsx({
        Sheet1: [
          ...NCD_HEADER,
          ['190.12', 'Urine Culture, Bacterial', '87086', null, null, 'A021', 42278, null, '1'],
          ['190.12', null, null, null, null, 'R3915', 42278, 44469, '1'],
          ['190.12', null, null, null, null, '@@@@@@@', 42278, null, '3'],
          ['190.15', 'Blood Counts', '85025', 37803, null, 'Z0000', 42278, null, '2'],
          ['190.15', null, '87086', null, null, '@@@@@@@', 42278, null, '1'],
        ],
      }),
      'zip-locality/ZIP5_JAN2026.xlsx': makeXlsx({
        ZIP5_JAN2026: [
          [...ZIP5_HEADER],
          ['VA', '22030', '12302', '01', null, 'Z9', null, '1', 'A', '20261'],
          ['NH', '00210', '14312', '40', null, 'Z9', null, '0', 'A', '20261'],
        ],
      }),
    },
    [mueLoader, ncciAocLoader, ncciPtpLoader, ncdLabLoader, zipLocalityLoader],
  );
  db = build.open();
  q = createEditQueries(db);
});

afterAll(() => db.close());

describe('edit queries', () => {
  test('releaseOn names the release in force, so callers tell no_data from no edit', () => {
    expect(q.releaseOn('mue-practitioner', '2026-03-31')).toEqual({
      dataset: 'mue-practitioner',
      release: '2026Q1',
      validFrom: '2026-01-01',
      validTo: '2026-03-31',
      file: 'ncci/MCR_MUE_PractitionerServices_Eff_01-01-2026.csv',
    });
    expect(q.releaseOn('mue-practitioner', '2026-04-01')?.release).toBe('2026Q2');
    expect(q.releaseOn('mue-practitioner', '2025-12-31')).toBeUndefined();
    expect(q.releaseOn('ncci-ptp-hospital', '2026-06-30')?.release).toBe('2026Q2');
  });

  test('MUE by code, date and setting, from the quarter in force', () => {
    expect(q.mue('36415', '2026-03-31', 'practitioner')).toEqual({
      setting: 'practitioner',
      code: '36415',
      value: 3,
      mai: 3,
      maiText: '3 Date of Service Edit: Clinical',
      rationale: 'CMS Policy',
      release: '2026Q1',
      validFrom: '2026-01-01',
      validTo: '2026-03-31',
    });
    // The newest release ends with its quarter: a later date has no table (no_data, domain.md section 9).
    expect(q.mue('36415', '2026-04-01', 'practitioner')).toMatchObject({ value: 2, release: '2026Q2', validTo: '2026-06-30' });
    expect(q.mue('36415', '2026-07-01', 'practitioner')).toBeUndefined();
    expect(q.releaseOn('mue-practitioner', '2026-07-01')).toBeUndefined();
    expect(q.mue('36415', '2026-04-01', 'outpatient-hospital')).toMatchObject({ value: 1, mai: 2 });
    expect(q.mue('j1100', '2026-05-01', 'practitioner')).toMatchObject({ code: 'J1100', value: 120, mai: 1 });
    expect(q.mue('J1100', '2026-03-01', 'practitioner')).toBeUndefined();
    expect(q.mue('36415', '2026-05-01', 'dme')).toBeUndefined();
    // Answers are kept per period between change dates: an earlier date asked after a later one gets its own row.
    expect(q.mue('36415', '2026-03-31', 'practitioner')).toMatchObject({ release: '2026Q1' });
    expect(q.mue('J1100', '2026-03-01', 'practitioner')).toBeUndefined();
  });

  test('add-on code edits by add-on and by primary code, each edit in force on the date', () => {
    expect(q.aocForAddOn('22552', '2026-04-01')).toEqual([
      { addOnCode: '22552', primaryCode: '22551', editType: 1, addOnDeleted: null, primaryDeleted: null, validFrom: '2013-04-01', validTo: null, notes: null, release: '2026Q2' },
    ]);
    expect(q.aocForAddOn('22552', '2026-04-02').map((r) => r.primaryCode)).toEqual(['22551', '22856']);
    expect(q.aocForAddOn('0054t', '2026-05-01')).toMatchObject([{ primaryCode: 'CCCCC', editType: 2, notes: 'Contractor Defined Primary Codes' }]);
    expect(q.aocForPrimary('22551', '2026-05-01').map((r) => r.addOnCode)).toEqual(['22552']);
    expect(q.aocForPrimary('22554', '2026-05-01')).toEqual([]);
    // The workbook in force from 2026-04-01 says nothing about earlier dates.
    expect(q.aocForAddOn('22552', '2026-03-31')).toEqual([]);
    expect(q.aocForAddOn('22552', '2026-04-01')).toHaveLength(1);
  });

  test('PTP edits by column 1 and by ordered pair, per table, with the edit in force on the date', () => {
    expect(q.ptpPair('11042', '97597', '2026-05-01', 'practitioner')).toEqual({
      setting: 'practitioner',
      column1: '11042',
      column2: '97597',
      pre1996: false,
      validFrom: '2024-01-01',
      validTo: null,
      modifierIndicator: 0,
      rationale: 'Mutually exclusive procedures',
      release: '2026Q2',
    });
    expect(q.ptpPair('97597', '11042', '2026-05-01', 'practitioner')).toBeUndefined();
    expect(q.ptpPair('93000', '93005', '2026-05-01', 'practitioner')).toMatchObject({ modifierIndicator: 0, pre1996: true });
    expect(q.ptpPair('93000', '93005', '2026-05-01', 'hospital')).toBeUndefined();
    expect(q.ptpPair('29881', '29880', '2026-05-01', 'hospital')).toMatchObject({ modifierIndicator: 0 });
    expect(q.ptpPair('29881', '29880', '2026-05-01', 'practitioner')).toMatchObject({ modifierIndicator: 1 });
    expect(q.ptpForColumn1('10021', '2026-06-30', 'practitioner').map((r) => [r.column2, r.modifierIndicator])).toEqual([
      ['10004', 1],
      ['36410', 1],
    ]);
    // The newest release answers for its own quarter only; before and after it there is no table.
    expect(q.ptpForColumn1('10021', '2027-01-01', 'practitioner')).toEqual([]);
    expect(q.releaseOn('ncci-ptp-practitioner', '2026-07-01')).toBeUndefined();
    expect(q.ptpForColumn1('10021', '2026-03-31', 'practitioner')).toEqual([]);
  });

  test('lab NCDs of a HCPCS code, and the resolution of an ICD-10 code under an NCD', () => {
    expect(q.labNcdsForHcpcs('87086', '2026-02-01')).toEqual([
      { ncd: '190.12', description: 'Urine Culture, Bacterial', hcpcs: '87086', validFrom: '2026-01-01', validTo: null, release: '2026Q1' },
      { ncd: '190.15', description: 'Blood Counts', hcpcs: '87086', validFrom: '2026-01-01', validTo: null, release: '2026Q1' },
    ]);
    expect(q.labNcdsForHcpcs('85025', '2026-02-01')).toMatchObject([{ ncd: '190.15', validFrom: '2003-07-01' }]);
    // Kept per period between change dates: an earlier date asked after a later one gets its own rows.
    expect(q.labNcdsForHcpcs('87086', '2025-12-31')).toEqual([]);
    expect(q.labNcdsForHcpcs('87086', '2026-03-31')).toHaveLength(2);
    // The January 2026 list answers for its own quarter only.
    expect(q.labNcdsForHcpcs('87086', '2026-04-01')).toEqual([]);
    expect(q.ncdIcd10Resolution('190.12', 'A02.1', '2026-02-01')).toEqual({
      ncd: '190.12',
      icd10: 'A021',
      resolution: 1,
      meaning: 'covered',
      matched: 'listed',
      validFrom: '2015-10-01',
      validTo: null,
      release: '2026Q1',
    });
    // R39.15 left the covered list on 2021-09-30: the NCD's all-other row answers.
    expect(q.ncdIcd10Resolution('190.12', 'R39.15', '2026-02-01')).toMatchObject({ icd10: 'R3915', resolution: 3, meaning: 'does-not-support-medical-necessity', matched: 'all-other' });
    expect(q.ncdIcd10Resolution('190.15', 'Z00.00', '2026-02-01')).toMatchObject({ resolution: 2, meaning: 'denied', matched: 'listed' });
    expect(q.ncdIcd10Resolution('190.15', 'E11.9', '2026-02-01')).toMatchObject({ resolution: 1, meaning: 'covered', matched: 'all-other' });
    expect(q.ncdIcd10Resolution('190.99', 'E11.9', '2026-02-01')).toBeUndefined();
    expect(q.ncdIcd10Resolution('190.12', 'A02.1', '2025-12-31')).toBeUndefined();
  });

  test('ZIP → state, carrier and locality, accepting ZIP+4', () => {
    expect(q.zipLocality('22030-1234', '2026-02-01')).toEqual({
      zip5: '22030',
      state: 'VA',
      uspsState: 'VA',
      carrier: '12302',
      locality: '01',
      ruralInd: null,
      labCbLocality: 'Z9',
      ruralInd2: null,
      plus4: true,
      partBDrugIndicator: 'A',
      release: '2026Q1',
      validFrom: '2026-01-01',
      validTo: null,
    });
    expect(q.zipLocality('00210', '2026-03-31')).toMatchObject({ state: 'NH', carrier: '14312', plus4: false });
    expect(q.zipLocality('0210', '2026-03-31')).toBeUndefined();
    expect(q.zipLocality('00210', '2025-12-31')).toBeUndefined();
    expect(q.zipLocality('00210', '2026-01-01')).toMatchObject({ state: 'NH', release: '2026Q1' });
    expect(q.zipLocality('22030', '2025-06-30')).toBeUndefined();
  });

  test('the Part B carriers of a state on each date, before and after its ZIP release takes effect', () => {
    expect(q.carriersOfState('va', '2026-02-01')).toEqual({ carriers: ['12302'], release: '2026Q1' });
    // Searched once per period between change dates: an earlier date after a later one still gets its own answer.
    expect(q.carriersOfState('VA', '2025-12-31')).toBeUndefined();
    expect(q.carriersOfState('VA', '2026-01-01')).toEqual({ carriers: ['12302'], release: '2026Q1' });
    expect(q.carriersOfState('VA', '2027-06-30')).toEqual({ carriers: ['12302'], release: '2026Q1' });
    expect(q.carriersOfState('NH', '2026-03-31')).toEqual({ carriers: ['14312'], release: '2026Q1' });
    expect(q.carriersOfState('TX', '2026-03-31')).toBeUndefined();
  });

  test('a database built without the edit loaders answers nothing instead of failing', async () => {
    const empty = await buildFixture({}, []);
    const other = empty.open();
    const none = createEditQueries(other);
    expect(none.mue('36415', '2026-05-01', 'practitioner')).toBeUndefined();
    expect(none.ptpForColumn1('10021', '2026-05-01', 'practitioner')).toEqual([]);
    expect(none.zipLocality('22030', '2026-02-01')).toBeUndefined();
    expect(none.carriersOfState('VA', '2026-02-01')).toBeUndefined();
    other.close();
  });
});
