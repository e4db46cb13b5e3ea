import { afterAll, beforeAll, expect, test } from 'vitest';
import { codeDetail } from '../../../src/engines/codes/index.js';
import type { Reference } from '../../../src/reference/index.js';
import { allLoaders } from '../../../src/refdata/loaders/index.js';
import { openReference } from '../../../src/reference/index.js';
import { buildFixture } from '../../helpers/build.js';
import { openSharedReference } from '../../helpers/reference-db.js';
import { orderLine } from '../../helpers/order-line.js';
import { makeZip } from '../../helpers/zip.js';

let ref: Reference;
beforeAll(async () => {
  ref = await openSharedReference();
});
afterAll(() => ref.close());

test('answers an ICD-10 code before 2015-10-01 as Invalid', () => {
  const detail = codeDetail(ref, 'E11.9', '2015-09-30');
  expect(detail).toMatchObject({ isValid: false, invalidReason: 'Invalid', reasonCode: 'CODE_ICD10_NOT_YET' });
});

test('answers an ICD-10 code on a date no loaded release covers as unknown (noData), never valid', () => {
  const detail = codeDetail(ref, 'E11.9', '2018-01-01');
  expect(detail).toMatchObject({ isValid: false, noData: true, reasonCode: 'CODE_NO_DATA' });
  expect(detail.invalidReason).toBeUndefined();
  expect(detail.message).toMatch(
    /^No ICD-10-CM release is loaded for 2018-01-01 \(the oldest loaded starts 20\d\d-10-01\)/,
  );
});

test('answers an ICD-10 code as unknown when the database holds no release of its code set (a partial build)', async () => {
  // A database of the ICD-10-CM order file alone: ICD-10-PCS has no release at all, which is no data, not "not found".
  const build = await buildFixture(
    { 'order.zip': makeZip({ 'icd10cm_order_2026.txt': `${orderLine(1, 'E11', 0, 'Type 2 diabetes')}\r\n${orderLine(2, 'E119', 1, 'Type 2 diabetes without complications')}\r\n` }) },
    allLoaders,
  );
  const partial = openReference(build.dbPath);
  try {
    const pcs = codeDetail(partial, '0DTJ4ZZ', '2026-05-15', 'ICD-10 PCS');
    expect(pcs).toMatchObject({ isValid: false, noData: true, reasonCode: 'CODE_NO_DATA' });
    expect(pcs.message).toBe(
      'No ICD-10-PCS release is loaded for 2026-05-15 (the reference database holds no release of it): the validity of 0DTJ4ZZ on that date is unknown.',
    );
    expect(codeDetail(partial, 'E11.9', '2026-05-15')).toMatchObject({ isValid: true });
  } finally {
    partial.close();
  }
});
