import { describe, expect, test } from 'vitest';
import { dmeposLoader } from '../../../src/refdata/loaders/dmepos.js';
import { buildFixture } from '../../helpers/build.js';
import { makeXlsx } from '../../helpers/zip.js';

const TITLE = [
  ['Durable Medical Equipment,'],
  ['Prosthetics, Orthotics, and Supplies'],
  ['(DMEPOS)'],
  ['January 2026 Fee Schedule'],
  [],
  [],
];
const HEADER = [
  'HCPCS',
  'Mod',
  'Mod2',
  'JURIS',
  'CATG',
  'Ceiling',
  'Floor',
  'AL (NR)',
  'AL (R)',
  'AK (NR)',
  'AK (R)',
  'Description',
];
const dmepos = (rows: (string | number | null)[][], title = TITLE): Buffer =>
  makeXlsx({ DMEPOS26_Jan: [...title, HEADER, ...rows] });

const PEN = makeXlsx({
  DMEPEN26_JAN: [
    ['2026 Parenteral and Enteral Nutrition Items and Services (PEN) Fee Schedule'],
    ['January 2026 Fee Schedule'],
    [],
    [],
    ['HCPCS', 'MOD', 'MOD2', 'AL(NR)', 'AL(R)', 'AK(NR)', 'AK(R)', 'Desc'],
    ['B4035', '', '', '7.09', '11.38', '11.71', '0', 'Enteral feed supp pump per d'],
    ['E0776', 'UE', 'BA', '49.57', '76.92', '0', '0', 'Iv pole'],
  ],
});

describe('dmepos loader', () => {
  test('stores each code and modifier pair with its jurisdiction, category, ceiling and floor, and the state amounts narrow', async () => {
    const build = await buildFixture(
      {
        'dmepos/DMEPOS26_JAN.xlsx': dmepos([
          [
            'A4216',
            '',
            '',
            'J',
            'OS',
            '0.63',
            '0.54',
            '0.57999999999999996',
            '0',
            '0.63',
            '0',
            'Sterile water/saline, 10 ml',
          ],
          ['E0601', 'RR', '', 'D', 'CR', '0', '0', '51.94', '97.02', '60.1', '0', 'Cont airway pressure device'],
          [
            'L3000',
            '',
            '',
            'L',
            'PO',
            '459.83',
            '344.87',
            '388.16',
            '0',
            '459.83',
            '0',
            'Ft insert ucb berkeley shell',
          ],
        ]),
        'dmepos/DMEPEN26_JAN.xlsx': PEN,
      },
      [dmeposLoader],
    );
    const db = build.open();
    expect(build.result.units.map((u) => [u.dataset, u.release, u.rows])).toEqual([
      ['dmepen-fee', '2026Q1', 2],
      ['dmepos-fee', '2026Q1', 3],
    ]);
    expect(
      db
        .prepare(
          'SELECT schedule, hcpcs, mod, mod2, jurisdiction, category, ceiling, floor, description, valid_from, line FROM dmepos_fee ORDER BY hcpcs',
        )
        .all(),
    ).toEqual([
      {
        schedule: 'DMEPOS',
        hcpcs: 'A4216',
        mod: '',
        mod2: '',
        jurisdiction: 'J',
        category: 'OS',
        ceiling: 0.63,
        floor: 0.54,
        description: 'Sterile water/saline, 10 ml',
        valid_from: '2026-01-01',
        line: 8,
      },
      {
        schedule: 'PEN',
        hcpcs: 'B4035',
        mod: '',
        mod2: '',
        jurisdiction: null,
        category: null,
        ceiling: null,
        floor: null,
        description: 'Enteral feed supp pump per d',
        valid_from: '2026-01-01',
        line: 6,
      },
      {
        schedule: 'DMEPOS',
        hcpcs: 'E0601',
        mod: 'RR',
        mod2: '',
        jurisdiction: 'D',
        category: 'CR',
        ceiling: 0,
        floor: 0,
        description: 'Cont airway pressure device',
        valid_from: '2026-01-01',
        line: 9,
      },
      {
        schedule: 'PEN',
        hcpcs: 'E0776',
        mod: 'UE',
        mod2: 'BA',
        jurisdiction: null,
        category: null,
        ceiling: null,
        floor: null,
        description: 'Iv pole',
        valid_from: '2026-01-01',
        line: 7,
      },
      {
        schedule: 'DMEPOS',
        hcpcs: 'L3000',
        mod: '',
        mod2: '',
        jurisdiction: 'L',
        category: 'PO',
        ceiling: 459.83,
        floor: 344.87,
        description: 'Ft insert ucb berkeley shell',
        valid_from: '2026-01-01',
        line: 10,
      },
    ]);
    expect(db.prepare("SELECT state, nr, r FROM dmepos_fee_state WHERE hcpcs = 'A4216' ORDER BY state").all()).toEqual([
      { state: 'AK', nr: 0.63, r: 0 },
      { state: 'AL', nr: 0.58, r: 0 },
    ]);
    expect(db.prepare('SELECT count(*) n FROM dmepos_fee_state').get()).toEqual({ n: 10 });
    db.close();
  });

  test('refuses a workbook whose title names another quarter than its file name', async () => {
    const title = [...TITLE.slice(0, 3), ['April 2026 Fee Schedule'], [], []];
    await expect(
      buildFixture(
        {
          'DMEPOS26_JAN.xlsx': dmepos(
            [['A4216', '', '', 'J', 'OS', '0.63', '0.54', '0.58', '0', '0.63', '0', 'x']],
            title,
          ),
        },
        [dmeposLoader],
      ),
    ).rejects.toThrow(/DMEPOS26_JAN\.xlsx:7: no title row "JANUARY 2026 FEE SCHEDULE"/);
  });

  test('fails the build with file and sheet row on an unknown jurisdiction or a non-numeric fee', async () => {
    await expect(
      buildFixture(
        {
          'DMEPOS26_JAN.xlsx': dmepos([
            ['A4216', '', '', 'J', 'OS', '0.63', '0.54', '0.58', '0', '0.63', '0', 'x'],
            ['A4217', '', '', 'X', 'SU', '4.47', '3.8', '3.8', '0', '4.47', '0', 'y'],
          ]),
        },
        [dmeposLoader],
      ),
    ).rejects.toThrow(/DMEPOS26_JAN\.xlsx:9: expected HCPCS, modifiers and JURIS D, L or J/);
    await expect(
      buildFixture(
        { 'DMEPOS26_JAN.xlsx': dmepos([['A4216', '', '', 'J', 'OS', '0.63', '0.54', 'n/a', '0', '0.63', '0', 'x']]) },
        [dmeposLoader],
      ),
    ).rejects.toThrow(/DMEPOS26_JAN\.xlsx:8: A4216: "n\/a" is not an amount/);
  });
});
