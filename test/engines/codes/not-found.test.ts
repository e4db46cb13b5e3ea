import { afterAll, beforeAll, expect, test } from 'vitest';
import { codeDetail } from '../../../src/engines/codes/index.js';
import type { Reference } from '../../../src/reference/index.js';
import { openSharedReference } from '../../helpers/reference-db.js';

let ref: Reference;
beforeAll(async () => {
  ref = await openSharedReference();
});
afterAll(() => ref.close());

test('answers a well-formed code in no loaded release as NotFound, naming the releases searched', () => {
  const detail = codeDetail(ref, 'Z99.999', '2026-06-15');
  expect(detail).toMatchObject({
    code: 'Z99.999',
    codeType: 'ICD-10 CM',
    isValid: false,
    invalidReason: 'NotFound',
    reasonCode: 'CODE_NOT_FOUND',
  });
  expect(detail.message).toBe('Z99.999 is not an ICD-10-CM code in any loaded release (FY2024–FY2026).');
});

test('answers a malformed string as Invalid, for the code set named or for all', () => {
  expect(codeDetail(ref, 'N/A', '2026-06-15')).toMatchObject({
    codeId: 0,
    isValid: false,
    invalidReason: 'Invalid',
    reasonCode: 'CODE_MALFORMED',
    message: '"N/A" has the shape of no ICD-10-CM, ICD-10-PCS, ICD-9-CM, CPT or HCPCS code.',
  });
  expect(codeDetail(ref, '99213', '2026-06-15', 'HCPCS')).toMatchObject({
    reasonCode: 'CODE_MALFORMED',
    message: '"99213" is not a well-formed HCPCS Level II code.',
  });
});
