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

  test('fails the build with file, member and line number on a malformed record', async () => {
    const bad = fy(2026, [orderLine(1, 'A00', 0, 'Cholera'), '00002 A000    X Cholera broken flag']);
    await expect(buildFixture({ 'cm/bad.zip': bad }, [icd10OrderLoader])).rejects.toThrow(/cm\/bad\.zip\[icd10cm_order_2026\.txt\]:2: not an order-file record/);
  });
});
