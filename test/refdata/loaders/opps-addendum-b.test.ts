import { describe, expect, test } from 'vitest';
import { oppsAddendumBLoader, parseAmount, quarterFromName } from '../../../src/refdata/loaders/opps-addendum-b.js';
import { buildFixture } from '../../helpers/build.js';
import { makeXlsx } from '../../helpers/zip.js';

// Fixtures use HCPCS Level II codes and CPT numbers only; descriptors are made up (no AMA text).
const TITLE_2023 = [
  [null, 'Addendum B.- OPPS Payment by HCPCS Code for CY 2023'],
  [null, 'CPT codes and descriptions only are copyright 2022 American Medical Association.'],
  [null, 'The existence or absence of a HCPCS code does not mean that an item or service is covered or non-covered.'],
];
const HEADER_2023 = [
  'HCPCS Code',
  'Short Descriptor',
  ' SI',
  'APC ',
  'Relative Weight ',
  'Payment Rate',
  'National Unadjusted Copayment ',
  'Minimum Unadjusted Copayment ',
  'Note: Actual copayments would be lower due to the cap on copayments at the Inpatient Deductible of $1,600.00',
  'Drug and Device Pass-Through Expiration during Calendar Year',
  '* Indicates a Change ',
];
const sheet2023 = (rows: (string | number | null)[][]): Buffer =>
  makeXlsx({ '2023 January Addendum B': [...TITLE_2023, HEADER_2023, ...rows] });

const HEADER_2025 = [
  'HCPCS Code',
  'Short Descriptor',
  'SI',
  'APC',
  'Relative Weight',
  'Payment Rate',
  'National Unadjusted Copayment',
  'Minimum Unadjusted Copayment',
  'IRA Coinsurance percentage',
  'Adjusted Beneficiary Copayment',
  'Drug and Device Pass-Through Expiration during Calendar Year',
  'Note',
  '* Indicates a Change',
];
const sheet2025 = (title: string, rows: (string | number | null)[][]): Buffer =>
  makeXlsx({
    '2025 January Addendum B': [
      [null, title],
      [null, 'CPT codes and descriptions only are copyright 2024 American Medical Association.'],
      [],
      [
        null,
        'Inflation-adjusted 3-digit coinsurance percentage may not precisely reflect the copayment amount due to rounding calculations.',
      ],
      HEADER_2025,
      ...rows,
    ],
  });

/** The derived CSV is single-byte text: its no-break spaces are 0xA0 bytes, as in the real file. */
const DERIVED = [
  'HCPCSCode,ShortDescriptor,StatusIndicator,PaymentRate,Changed?,Source',
  '"G0463","Hospital outpt clinic visit","J2",136.59,false,"2026-04"',
  '"A4341\u00a0","Indwelling catheter valve","N",,true,"2026-04"',
  '"J1429","Injection drug 10 mg","E2",,true,"2026-04"',
  '',
].join('\n');

describe('opps-addendum-b loader', () => {
  test('reads amounts as CMS prints them', () => {
    expect(parseAmount('$1,676.00')).toBe(1676);
    expect(parseAmount('34.780200000000001')).toBe(34.7802);
    expect(parseAmount('19.648%')).toBe(19.648);
    expect(parseAmount('.')).toBeNull();
    expect(parseAmount(' ')).toBeNull();
    expect(() => parseAmount('n/a')).toThrow(/not an amount/);
    expect(quarterFromName('2023 January Addendum B')).toEqual({ release: '2023Q1', validFrom: '2023-01-01' });
    expect(quarterFromName('October 2022 Web Addendum B')).toEqual({ release: '2022Q4', validFrom: '2022-10-01' });
    expect(quarterFromName('2023_January_Web_Addendum_B.12212022.xlsx')?.release).toBe('2023Q1');
    expect(quarterFromName('opps_addendum_b_2025.xlsx')).toBeUndefined();
  });

  test('dates a renamed workbook by its sheet name and title, maps columns by header, and ends each release with its quarter', async () => {
    const build = await buildFixture(
      {
        'opps/2023_January_Web_Addendum_B.12212022.xlsx': sheet2023([
          ['G0463 ', 'Hospital outpt clinic visit', 'J2', '5012', '1.2488', '106.88', '.', '21.38', null, null, null],
          ['J1429\u00a0', 'Injection drug 10 mg', 'G', '9356', null, '166.201', '.', '33.25', null, '*', '*'],
          ['C9145', 'Injection drug 1 mg', 'K', '9170', '0.1', '2000.00', '0', '400', '*', null, null],
          [],
        ]),
        'opps/opps_addendum_b_2025.xlsx': sheet2025('Addendum B.-- OPPS Payment by HCPCS Code for CY 2025', [
          ['G0463', 'Hospital outpt clinic visit', 'J2', '5012', '1.1926', '106.34', '.', '$21.27', '', '', '', '', ''],
          ['J1429', 'Injection drug 10 mg', 'N', '', '', ' ', '', '', '', '', '', '', '*'],
          [
            'C9145',
            'Injection drug 1 mg',
            'K',
            '9170',
            '0.1',
            '$8,380.00',
            '.',
            '$1,676.00',
            '19.648%',
            '$1,676.00',
            '',
            'Copayments capped at inpatient deductible of $1,676.00.',
            '',
          ],
        ]),
        'opps/derived/addendum-b-2026-04-softek-sample.csv': Buffer.from(DERIVED, 'latin1'),
      },
      [oppsAddendumBLoader],
    );
    const db = build.open();
    expect(build.result.units.map((u) => [u.dataset, u.release, u.rows])).toEqual([
      ['opps-addendum-b', '2023Q1', 3],
      ['opps-addendum-b', '2025Q1', 3],
      ['opps-addendum-b-derived', '2026Q2', 3],
    ]);
    const rows = db
      .prepare(
        `SELECT hcpcs, status_indicator si, apc, relative_weight w, payment_rate rate, national_copay nat, minimum_copay min, adjusted_copay adj,
           ira_coinsurance_pct ira, copay_capped capped, pass_through_expiring pt, changed, derived, valid_from, valid_to, line
         FROM opps_addendum_b WHERE hcpcs IN ('J1429', 'C9145') ORDER BY hcpcs, valid_from`,
      )
      .all();
    expect(rows).toEqual([
      {
        hcpcs: 'C9145',
        si: 'K',
        apc: '9170',
        w: 0.1,
        rate: 2000,
        nat: 0,
        min: 400,
        adj: null,
        ira: null,
        capped: 1,
        pt: 0,
        changed: 0,
        derived: 0,
        valid_from: '2023-01-01',
        valid_to: '2023-03-31',
        line: 7,
      },
      {
        hcpcs: 'C9145',
        si: 'K',
        apc: '9170',
        w: 0.1,
        rate: 8380,
        nat: null,
        min: 1676,
        adj: 1676,
        ira: 19.648,
        capped: 1,
        pt: 0,
        changed: 0,
        derived: 0,
        valid_from: '2025-01-01',
        valid_to: '2025-03-31',
        line: 8,
      },
      {
        hcpcs: 'J1429',
        si: 'G',
        apc: '9356',
        w: null,
        rate: 166.201,
        nat: null,
        min: 33.25,
        adj: null,
        ira: null,
        capped: 0,
        pt: 1,
        changed: 1,
        derived: 0,
        valid_from: '2023-01-01',
        valid_to: '2023-03-31',
        line: 6,
      },
      {
        hcpcs: 'J1429',
        si: 'N',
        apc: null,
        w: null,
        rate: null,
        nat: null,
        min: null,
        adj: null,
        ira: null,
        capped: 0,
        pt: 0,
        changed: 1,
        derived: 0,
        valid_from: '2025-01-01',
        valid_to: '2025-03-31',
        line: 7,
      },
      {
        hcpcs: 'J1429',
        si: 'E2',
        apc: null,
        w: null,
        rate: null,
        nat: null,
        min: null,
        adj: null,
        ira: null,
        capped: 0,
        pt: 0,
        changed: 1,
        derived: 1,
        valid_from: '2026-04-01',
        valid_to: '2026-06-30',
        line: 4,
      },
    ]);
    expect(
      db.prepare('SELECT hcpcs, payment_rate FROM opps_addendum_b WHERE derived = 1 ORDER BY hcpcs').all(),
    ).toEqual([
      { hcpcs: 'A4341', payment_rate: null },
      { hcpcs: 'G0463', payment_rate: 136.59 },
      { hcpcs: 'J1429', payment_rate: null },
    ]);
    db.close();
  });

  test('refuses a workbook whose title year disagrees with its sheet name', async () => {
    const bad = sheet2025('Addendum B.-- OPPS Payment by HCPCS Code for CY 2024', [
      ['G0463', 'Clinic visit', 'J2', '5012', '', '', '', '', '', '', '', '', ''],
    ]);
    await expect(buildFixture({ 'opps/addendum_b.xlsx': bad }, [oppsAddendumBLoader])).rejects.toThrow(
      /opps\/addendum_b\.xlsx:1: title says CY 2024/,
    );
  });

  test('fails the build with file and sheet row on a row without a status indicator', async () => {
    const bad = sheet2023([
      ['G0463', 'Hospital outpt clinic visit', 'J2', '5012', '1.2488', '106.88', '.', '21.38'],
      ['G0008', 'Admin influenza virus vac', null, null, null, null, null, null],
    ]);
    await expect(buildFixture({ 'opps/2023_January_Web_Addendum_B.xlsx': bad }, [oppsAddendumBLoader])).rejects.toThrow(
      /opps\/2023_January_Web_Addendum_B\.xlsx:6: expected a HCPCS\/CPT code and a status indicator/,
    );
  });

  test('fails the build with the line number on a malformed derived row', async () => {
    const bad = `${DERIVED}"G0008","Admin influenza virus vac","L",abc,false,"2026-04"\n`;
    await expect(
      buildFixture({ 'opps/derived/addendum-b-2026-04.csv': Buffer.from(bad, 'latin1') }, [oppsAddendumBLoader]),
    ).rejects.toThrow(/addendum-b-2026-04\.csv:5: code G0008: "abc" is not an amount/);
  });
});
