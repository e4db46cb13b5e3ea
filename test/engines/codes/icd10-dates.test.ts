import { afterAll, beforeAll, expect, test } from 'vitest';
import { codeDetail } from '../../../src/engines/codes/index.js';
import type { Reference } from '../../../src/reference/index.js';
import { openSharedReference } from '../../helpers/reference-db.js';

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
