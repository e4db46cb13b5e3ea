import { afterAll, beforeAll, expect, test } from 'vitest';
import { codeDetail } from '../../../src/engines/codes/index.js';
import type { Reference } from '../../../src/reference/index.js';
import { openSharedReference } from '../../helpers/reference-db.js';

let ref: Reference;
beforeAll(async () => {
  ref = await openSharedReference();
});
afterAll(() => ref.close());

test('answers a code dropped in FY2025 as Deleted, naming the release and its replacements from the conversion table', () => {
  const detail = codeDetail(ref, 'T81.32XA', '2025-03-01');
  expect(detail).toMatchObject({
    code: 'T81.32XA',
    isValid: false,
    invalidReason: 'Deleted',
    reasonCode: 'CODE_DELETED',
    deletedIn: 'FY2025',
    release: 'FY2024',
  });
  expect(detail.suggestions).toEqual(['T81.320A', 'T81.321A', 'T81.328A', 'T81.329A']);
  expect(detail.message).toBe(
    'T81.32XA was deleted in FY2025 (last valid 2024-09-30); replaced by T81.320A, T81.321A, T81.328A and T81.329A (FY2025 ICD-10-CM conversion table).',
  );
  // The same code on a date of the release that still had it.
  expect(codeDetail(ref, 'T81.32XA', '2024-05-01')).toMatchObject({ isValid: true, release: 'FY2024' });
});

test('answers a code dropped in FY2026 as Deleted with its FY2026 replacements', () => {
  const detail = codeDetail(ref, 'S30.1XXA', '2025-10-01');
  expect(detail).toMatchObject({
    invalidReason: 'Deleted',
    deletedIn: 'FY2026',
    suggestions: ['S30.11XA', 'S30.12XA', 'S30.13XA'],
  });
  expect(detail.shortDescription).toBe('Contusion of abdominal wall, initial encounter');
  expect(codeDetail(ref, 'S30.1XXA', '2025-09-30').isValid).toBe(true);
});

test('answers a code added in a later release as not found on an earlier date, naming when it takes effect', () => {
  const detail = codeDetail(ref, 'S30.11XA', '2025-09-30');
  expect(detail).toMatchObject({ isValid: false, invalidReason: 'NotFound', reasonCode: 'CODE_NOT_YET_VALID' });
  expect(detail.message).toBe(
    'S30.11XA takes effect on 2025-10-01 (FY2026): it is not in the ICD-10-CM code set on 2025-09-30.',
  );
});

test('answers a terminated HCPCS code as Deleted with the code its record cross-references', () => {
  const detail = codeDetail(ref, 'G0202', '2026-06-15', 'HCPCS');
  expect(detail).toMatchObject({
    codeType: 'HCPCS',
    invalidReason: 'Deleted',
    reasonCode: 'CODE_DELETED',
    suggestions: ['77067'],
  });
  expect(detail.deletedIn).toBeUndefined();
  expect(detail.message).toBe('G0202 was deleted (last valid 2017-12-31); replaced by 77067 (HCPCS cross-reference).');
  expect(codeDetail(ref, 'G0202', '2017-06-15', 'HCPCS').isValid).toBe(true);
});
