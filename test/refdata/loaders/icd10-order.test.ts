import { describe, expect, test } from 'vitest';
import { icd10OrderLoader, parseOrderLine } from '../../../src/refdata/loaders/icd10-order.js';
import { buildFixture } from '../../helpers/build.js';
import { orderLine } from '../../helpers/order-line.js';
import { makeZip } from '../../helpers/zip.js';

const fy = (year: number, lines: string[]): Buffer =>
  makeZip({ [`icd10cm_order_${year}.txt`]: `${lines.join('\r\n')}\r\n`, 'icd10OrderFiles.pdf': '%PDF-1.4' });

describe('icd10-order loader', () => {
  test('parses the fixed-width columns of an order-file record', () => {
    expect(parseOrderLine(orderLine(2, 'A000', 1, 'Cholera due to Vibrio cholerae 01, biovar cholerae'))).toEqual({
      ord: 2,
      code: 'A000',
      billable: 1,
      short: 'Cholera due to Vibrio cholerae 01, biovar cholerae',
      long: 'Cholera due to Vibrio cholerae 01, biovar cholerae',
    });
    expect(parseOrderLine('garbage line')).toBeUndefined();
  });

  test('keeps deleted codes with their history and revised titles by date', async () => {
    const build = await buildFixture(
      {
        'cm/2024-code-descriptions.zip': fy(2024, [
          orderLine(1, 'A00', 0, 'Cholera'),
          orderLine(2, 'A000', 1, 'Cholera due to V. cholerae 01, biovar cholerae'),
          orderLine(3, 'A001', 1, 'Cholera due to Vibrio cholerae 01, biovar eltor'),
        ]),
        'cm/2025-code-descriptions.zip': fy(2025, [
          orderLine(1, 'A00', 0, 'Cholera'),
          orderLine(2, 'A000', 1, 'Cholera due to Vibrio cholerae 01, biovar cholerae'),
        ]),
        'cm/2026-code-descriptions.zip': fy(2026, [
          orderLine(1, 'A00', 0, 'Cholera'),
          orderLine(2, 'A000', 1, 'Cholera due to Vibrio cholerae 01, biovar cholerae'),
        ]),
      },
      [icd10OrderLoader],
    );
    const db = build.open();
    const rows = db.prepare('SELECT code, valid_from, valid_to, short_title FROM code ORDER BY code, valid_from').all();
    expect(rows).toEqual([
      { code: 'A00', valid_from: '2023-10-01', valid_to: null, short_title: 'Cholera' },
      { code: 'A000', valid_from: '2023-10-01', valid_to: '2024-09-30', short_title: 'Cholera due to V. cholerae 01, biovar cholerae' },
      { code: 'A000', valid_from: '2024-10-01', valid_to: null, short_title: 'Cholera due to Vibrio cholerae 01, biovar cholerae' },
      { code: 'A001', valid_from: '2023-10-01', valid_to: '2024-09-30', short_title: 'Cholera due to Vibrio cholerae 01, biovar eltor' },
    ]);
    expect(db.prepare("SELECT parent FROM code_parent WHERE code = 'A001'").get()).toEqual({ parent: 'A00' });
    db.close();
  });

  test('reads a ZIP whose addenda compare two files of its fiscal year as the April update, and rebuilds October', async () => {
    // The FY2024 ICD-10-PCS "updated 12/19/2023" ZIP in miniature: the April 1, 2024 set, its addenda against October.
    const change = (label: string, code: string, title: string): string => `${label.padEnd(13)}${code} ${title.padEnd(60)} ${title}`;
    const addenda = [
      change('Add:', '00H005Z', 'Insertion of Pd-103 Colg Implt into Brain, Open Approach'),
      change('Revise from:', '5A0935A', 'Assistance with Resp Ventilation, <24 Hrs, High Nasal Fl Vel'),
      change('Revise to:', '5A0935A', 'Assistance with Resp Ventilation, <24 Hrs, Hi Flw/Velo Canla'),
      change('Delete:', 'GZB1ZZZ', 'Electroconvulsive Therapy, Unilateral-Multiple Seizure'),
      '',
      'Codes',
      '  78603 codes in icd10pcs_order_2024.txt',
      '  78638 codes in icd10pcs_order_2024.txt',
      '      1 additions',
    ].join('\r\n');
    const zip = makeZip({
      'icd10pcs_order_2024.txt': `${[
        orderLine(1, '001', 0, 'Central Nervous System and Cranial Nerves, Bypass'),
        orderLine(2, '00H005Z', 1, 'Insertion of Pd-103 Colg Implt into Brain, Open Approach'),
        orderLine(3, '5A0935A', 1, 'Assistance with Resp Ventilation, <24 Hrs, Hi Flw/Velo Canla'),
        orderLine(4, '0016070', 1, 'Bypass Cereb Vent to Nasophar with Autol Sub, Open Approach'),
      ].join('\r\n')}\r\n`,
      'order_addenda_2024.txt': addenda,
    });
    const build = await buildFixture({ 'pcs/2024-pcs-updated.zip': zip }, [icd10OrderLoader]);
    const db = build.open();
    expect(db.prepare("SELECT release, valid_from, valid_to FROM source WHERE dataset = 'icd10pcs-order' ORDER BY valid_from").all()).toEqual([
      { release: 'FY2024', valid_from: '2023-10-01', valid_to: '2024-03-31' },
      { release: 'FY2024 April', valid_from: '2024-04-01', valid_to: '2024-09-30' },
    ]);
    expect(db.prepare('SELECT code, valid_from, valid_to, short_title FROM code ORDER BY code, valid_from').all()).toEqual([
      { code: '001', valid_from: '2023-10-01', valid_to: null, short_title: 'Central Nervous System and Cranial Nerves, Bypass' },
      { code: '0016070', valid_from: '2023-10-01', valid_to: null, short_title: 'Bypass Cereb Vent to Nasophar with Autol Sub, Open Approach' },
      { code: '00H005Z', valid_from: '2024-04-01', valid_to: null, short_title: 'Insertion of Pd-103 Colg Implt into Brain, Open Approach' },
      { code: '5A0935A', valid_from: '2023-10-01', valid_to: '2024-03-31', short_title: 'Assistance with Resp Ventilation, <24 Hrs, High Nasal Fl Vel' },
      { code: '5A0935A', valid_from: '2024-04-01', valid_to: null, short_title: 'Assistance with Resp Ventilation, <24 Hrs, Hi Flw/Velo Canla' },
      { code: 'GZB1ZZZ', valid_from: '2023-10-01', valid_to: '2024-03-31', short_title: 'Electroconvulsive Therapy, Unilateral-Multiple Seizure' },
    ]);
    db.close();
  });

  test('reads addenda between two fiscal years, or without changes, as no April update', async () => {
    const counts = (from: number, to: number): string =>
      ['Codes', `  74044 codes in icd10cm_order_${String(from)}.txt`, `  74044 codes in icd10cm_order_${String(to)}.txt`].join('\n');
    for (const [from, to] of [[2023, 2024], [2024, 2024]] as const) {
      const zip = makeZip({
        'icd10cm_order_2024.txt': `${orderLine(1, 'A00', 0, 'Cholera')}\r\n`,
        'icd10cm_order_addenda_2024.txt': counts(from, to),
      });
      const build = await buildFixture({ 'cm/2024.zip': zip }, [icd10OrderLoader]);
      const db = build.open();
      expect(db.prepare('SELECT release, valid_from FROM source').all(), `${String(from)}-${String(to)}`).toEqual([
        { release: 'FY2024', valid_from: '2023-10-01' },
      ]);
      db.close();
    }
  });

  test('fails the build with file, member and line number on a malformed record', async () => {
    const bad = fy(2026, [orderLine(1, 'A00', 0, 'Cholera'), '00002 A000    X Cholera broken flag']);
    await expect(buildFixture({ 'cm/bad.zip': bad }, [icd10OrderLoader])).rejects.toThrow(/cm\/bad\.zip\[icd10cm_order_2026\.txt\]:2: not an order-file record/);
  });
});
