import { afterAll, beforeAll, expect, test } from 'vitest';
import { codeDetail } from '../../../src/engines/codes/index.js';
import type { Reference } from '../../../src/reference/index.js';
import { openSharedReference } from '../../helpers/reference-db.js';

let ref: Reference;
beforeAll(async () => {
  ref = await openSharedReference();
});
afterAll(() => ref.close());

test('answers a header code as Invalid and lists its first 10 billable children', () => {
  const detail = codeDetail(ref, 'E11', '2026-06-15');
  expect(detail).toMatchObject({
    code: 'E11',
    codeType: 'ICD-10 CM',
    isValid: false,
    invalidReason: 'Invalid',
    reasonCode: 'CODE_HEADER',
  });
  expect(detail.longDescription).toBe('Type 2 diabetes mellitus');
  expect(detail.suggestions).toHaveLength(10);
  expect(detail.suggestions?.[0]).toBe('E11.00');
  expect(detail.message).toMatch(
    /^E11 is a header, not a billable code; billable codes under it: E11\.00, E11\.01, .* \(first 10 of \d+\)\.$/,
  );
});

test('answers an ICD-10-PCS table as a header with its codes', () => {
  const detail = codeDetail(ref, '0DT', '2026-06-15', 'ICD-10 PCS');
  expect(detail).toMatchObject({
    code: '0DT',
    codeType: 'ICD-10 PCS',
    invalidReason: 'Invalid',
    reasonCode: 'CODE_HEADER',
  });
  expect(detail.suggestions?.every((c) => /^0DT[0-9A-Z]{4}$/.test(c))).toBe(true);
});

test('answers an ICD-9-CM category, which the v32 files do not list, as a header with its billable codes', () => {
  const detail = codeDetail(ref, '250', '2015-01-15', 'ICD9CM_DX');
  expect(detail).toMatchObject({
    code: '250',
    codeType: 'ICD-9 CM',
    invalidReason: 'Invalid',
    reasonCode: 'CODE_HEADER',
    release: 'v32',
  });
  expect(detail.suggestions?.slice(0, 2)).toEqual(['250.00', '250.01']);
});
