import type Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { dmeposLoader } from '../../../src/refdata/loaders/dmepos.js';
import { hcpcsLoader } from '../../../src/refdata/loaders/hcpcs.js';
import { oppsAddendumBLoader } from '../../../src/refdata/loaders/opps-addendum-b.js';
import { createProcedureQueries, type ProcedureQueries } from '../../../src/reference/queries/procedures.js';
import { buildFixture } from '../../helpers/build.js';
import { hcpcsFile, hcpcsRecord as rec } from '../../helpers/hcpcs-record.js';
import { makeXlsx, makeZip } from '../../helpers/zip.js';

const HCPCS = makeZip({
  'HCPC2019_CONTR_ANWEB.txt': hcpcsFile([
    rec({
      4: 'CP',
      6: '00100',
      11: '7',
      12: 'C-apc adjunctive service',
      92: 'C-apc adjunctive service',
      230: 'C',
      269: '20160101',
      277: '20180101',
      285: '20171231',
      293: 'N',
    }),
    rec({
      1: 'A9999',
      6: '00100',
      11: '3',
      12: 'Miscellaneous dme supply or accessory, not otherwise specified',
      92: 'Dme supply or accessory, nos',
      120: '46',
      128: 'A',
      230: 'C',
      257: 'D1E',
      261: 'P',
      266: '  0',
      269: '20040101',
      277: '20040101',
      293: 'N',
    }),
    rec({
      1: 'S0091',
      6: '00100',
      11: '3',
      12: 'Granisetron hydrochloride, 1 mg (for circumstances falling under the medicare',
      92: 'Granisetron HCl 1 mg oral',
      120: '00',
      128: '9',
      230: 'I',
      253: '0088',
      257: 'O1E',
      261: '1',
      266: '  0',
      269: '20020101',
      277: '20010701',
      293: 'N',
    }),
    rec({ 1: 'S0091', 6: '00200', 11: '4', 12: 'statute, use Q0166)' }),
    rec({
      1: 'C9034',
      6: '00100',
      11: '3',
      12: 'Injection, dexamethasone 9%, intraocular, 1 mcg',
      92: 'Injection, dexamethasone 9%',
      120: '53',
      230: 'D',
      257: 'O1E',
      261: '9F',
      269: '20181001',
      277: '20181001',
      293: 'A',
    }),
  ]),
  'proc_notes_2019.txt': '          0088--"S" CODES ARE NOT VALID NOR PAYABLE BY MEDICARE.             *\r\n',
});
const NOC = makeZip({
  'NOC_Codes_2019.xlsx': makeXlsx({
    NOC_Codes_2019: [
      ['HCPCS', 'LONG DESCRIPTION', 'ADD DATE', 'TERM DATE'],
      ['A9999', 'Miscellaneous dme supply or accessory, not otherwise specified', '20040101'],
    ],
  }),
});
const CORRECTIONS = makeZip({
  'HCPC2019_Corrections_ALPHA.xlsx': makeXlsx({
    Corrections: [
      [
        'CODE',
        'ACTION',
        'EFF DATE',
        'SHORT DESC',
        'LONG DESC',
        'TOS',
        'BETOS',
        'COV',
        'PRICE',
        'XREF CODE',
        'ASC IND',
        'ASC DATE',
        'COMMENTS',
      ],
      ['C9034', 'Discontinue', 43466, null, null, null, null, null, null, 'J1095'],
      ['A9999', 'Change Cov to D', 43466, null, null, null, null, 'D'],
    ],
  }),
});

const OPPS_HEADER = [
  'HCPCS Code',
  'Short Descriptor',
  'SI',
  'APC',
  'Relative Weight',
  'Payment Rate',
  'National Unadjusted Copayment',
  'Minimum Unadjusted Copayment',
];
const opps = (year: number, rows: (string | null)[][]): Buffer =>
  makeXlsx({
    [`${year} January Addendum B`]: [
      [null, `Addendum B.-- OPPS Payment by HCPCS Code for CY ${year}`],
      OPPS_HEADER,
      ...rows,
    ],
  });

const DMEPOS = makeXlsx({
  DMEPOS26_Jan: [
    ['January 2026 Fee Schedule'],
    ['HCPCS', 'Mod', 'Mod2', 'JURIS', 'CATG', 'Ceiling', 'Floor', 'AL (NR)', 'AL (R)', 'Description'],
    ['A4217', '', '', 'J', 'SU', '4.47', '3.8', '3.8', '0', 'Sterile water/saline, 500 ml'],
    ['A4217', 'AU', '', 'J', 'OS', '4.47', '3.8', '3.9', '0', 'Sterile water/saline, 500 ml'],
    ['E0601', 'RR', '', 'D', 'CR', '0', '0', '51.94', '97.02', 'Cont airway pressure device'],
  ],
});

let db: Database.Database;
let q: ProcedureQueries;

beforeAll(async () => {
  const build = await buildFixture(
    {
      'hcpcs/2019-Alpha-Numeric-HCPCS-File.zip': HCPCS,
      'hcpcs/2019-HCPCS-NOC-Codes.zip': NOC,
      'hcpcs/2019-HCPCS-Alpha-Numeric-Corrections.zip': CORRECTIONS,
      'opps/2023_January_Web_Addendum_B.xlsx': opps(2023, [
        ['G0463', 'Hospital outpt clinic visit', 'J2', '5012', '1.4122', '120.86', '.', '24.18'],
        ['C9034', 'Injection, dexamethasone 9%', 'G', '9500', null, '50.00', '.', '10.00'],
      ]),
      'opps/opps_addendum_b_2025.xlsx': opps(2025, [
        ['G0463', 'Hospital outpt clinic visit', 'J2', '5012', '1.4452', '128.87', '.', '$25.78'],
      ]),
      'opps/derived/addendum-b-2026-04-sample.csv': [
        'HCPCSCode,ShortDescriptor,StatusIndicator,PaymentRate,Changed?,Source',
        '"G0463","Hospital outpt clinic visit","J2",136.02,false,"2026-04"',
        '"G0552","Supply of new digital mental health device","S1",,true,"2026-04"',
        '',
      ].join('\n'),
      'dmepos/DMEPOS26_JAN.xlsx': DMEPOS,
    },
    [hcpcsLoader, oppsAddendumBLoader, dmeposLoader],
  );
  db = build.open();
  q = createProcedureQueries(db);
});

afterAll(() => db.close());

describe('procedure queries', () => {
  test('serve a HCPCS code on a date with its processing note, NOC flag and corrections', () => {
    const detail = q.hcpcs('S0091', '2019-06-01');
    expect(detail).toMatchObject({
      longDescription:
        'Granisetron hydrochloride, 1 mg (for circumstances falling under the medicare statute, use Q0166)',
      coverage: 'I',
      processingNote: '0088',
      processingNoteText: '"S" CODES ARE NOT VALID NOR PAYABLE BY MEDICARE.',
      noc: false,
      corrections: [],
      source: {
        file: 'hcpcs/2019-Alpha-Numeric-HCPCS-File.zip',
        member: 'HCPC2019_CONTR_ANWEB.txt',
        release: '2019Q1',
        line: 9,
      },
    });
    expect(q.hcpcs('S0091', '2001-12-31')).toBeUndefined();
    expect(q.hcpcs('A9999', '2019-06-01')).toMatchObject({
      noc: true,
      coverage: 'C',
      corrections: [{ action: 'Change Cov to D', kind: 'change', coverage: 'D' }],
    });
    expect(q.isNoc('A9999', '2003-12-31')).toBe(false);
  });

  test('end a code the corrections discontinue the day before the correction takes effect', () => {
    expect(q.hcpcs('C9034', '2018-12-31')?.corrections.map((c) => [c.kind, c.crossReference])).toEqual([
      ['discontinue', 'J1095'],
    ]);
    expect(q.hcpcs('C9034', '2019-01-01')).toBeUndefined();
  });

  test('look up a modifier on a date', () => {
    expect(q.hcpcsModifier('CP', '2017-12-31')).toMatchObject({
      shortDescription: 'C-apc adjunctive service',
      terminationDate: '2017-12-31',
    });
    expect(q.hcpcsModifier('CP', '2018-01-01')).toBeUndefined();
  });

  test('take OPPS rows from the newest official quarter in force, and derived rows only where no official row is', () => {
    expect(q.opps('G0463', '2023-03-31')).toMatchObject({
      apc: '5012',
      paymentRate: 120.86,
      derived: false,
      source: { release: '2023Q1' },
    });
    expect(q.opps('G0463', '2025-01-01')).toMatchObject({
      paymentRate: 128.87,
      minimumCopay: 25.78,
      derived: false,
      source: { release: '2025Q1' },
    });
    // Each release answers for its own quarter: none between them.
    expect(q.opps('G0463', '2024-12-31')).toBeUndefined();
    expect(q.opps('G0463', '2026-03-31')).toBeUndefined();
    expect(q.opps('G0463', '2026-04-01')).toMatchObject({
      statusIndicator: 'J2',
      apc: null,
      paymentRate: 136.02,
      derived: true,
    });
    // Absent from the CY2025 workbook: no row for 2025, although CY2023 had one.
    expect(q.opps('C9034', '2025-06-01')).toBeUndefined();
    expect(q.opps('G0552', '2026-05-01')).toMatchObject({ statusIndicator: 'S1', derived: true, changed: true });
    expect(q.opps('G0552', '2026-03-31')).toBeUndefined();
    expect(q.opps('G0463', '2022-12-31')).toBeUndefined();
  });

  test('give the DMEPOS jurisdiction of a code and its fees in a state', () => {
    expect(q.dmeposJurisdiction('A4217', '2026-01-01')).toEqual({
      code: 'A4217',
      jurisdictions: ['J'],
      categories: ['OS', 'SU'],
      release: '2026Q1',
      validFrom: '2026-01-01',
      validTo: null,
    });
    expect(q.dmeposFees('A4217', '2026-01-01', 'AL').map((f) => [f.modifier, f.amounts])).toEqual([
      [null, { state: 'AL', nonRural: 3.8, rural: 0 }],
      ['AU', { state: 'AL', nonRural: 3.9, rural: 0 }],
    ]);
    expect(q.dmeposFees('E0601', '2026-01-01')[0]).toMatchObject({ jurisdiction: 'D', ceiling: 0, amounts: undefined });
    expect(q.dmeposJurisdiction('E0601', '2025-12-31')).toBeUndefined();
  });

  test('answer "no data" for tables a partial build left out', async () => {
    const partial = await buildFixture({ 'dmepos/DMEPOS26_JAN.xlsx': DMEPOS }, [dmeposLoader]);
    const only = partial.open();
    const pq = createProcedureQueries(only);
    expect(pq.hcpcs('A9999', '2019-06-01')).toBeUndefined();
    expect(pq.hcpcsModifier('CP', '2017-06-01')).toBeUndefined();
    expect(pq.isNoc('A9999', '2019-06-01')).toBe(false);
    expect(pq.opps('G0463', '2025-01-01')).toBeUndefined();
    expect(pq.dmeposJurisdiction('E0601', '2026-01-01')?.jurisdictions).toEqual(['D']);
    only.close();
  });
});
