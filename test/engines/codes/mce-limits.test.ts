import { afterAll, beforeAll, expect, test } from 'vitest';
import { codeDetail, codeDetails } from '../../../src/engines/codes/index.js';
import type { Reference } from '../../../src/reference/index.js';
import { openSharedReference } from '../../helpers/reference-db.js';

let ref: Reference;
beforeAll(async () => {
  ref = await openSharedReference();
});
afterAll(() => ref.close());

test('gives a maternity code the age range of the MCE maternity list in force', () => {
  expect(codeDetail(ref, 'O80', '2026-06-15')).toMatchObject({ isValid: true, minAge: 9, maxAge: 64 });
});

test('gives a newborn code ages 0 to 0', () => {
  expect(codeDetail(ref, 'Z38.00', '2026-06-15')).toMatchObject({ isValid: true, minAge: 0, maxAge: 0 });
});

test('flags codes on the MCE unacceptable-principal-diagnosis list and external-cause codes', () => {
  const [outcome, external, plain] = codeDetails(ref, ['Z37.0', 'W21.89XA', 'E11.9'], '2026-06-15');
  expect(outcome?.unacceptablePrincipalDx).toBe(true);
  expect(external?.unacceptablePrincipalDx).toBe(true);
  expect(plain).toMatchObject({ unacceptablePrincipalDx: false, minAge: 0, maxAge: 124 });
  expect(plain?.reqGender).toBeUndefined();
});

test('reads sex limits from the MCE version in force: female for a maternity code under v37', () => {
  // No ICD-10-CM release is loaded for 2020, but the MCE v37 lists are.
  const detail = codeDetail(ref, 'O80', '2020-01-15');
  expect(detail).toMatchObject({ noData: true, reqGender: 'female' });
  expect(detail.notes).toEqual(['MCE v37 list age-maternity gives no age range: default ages shown.']);
});

test('says when no MCE version covers the date and shows the defaults', () => {
  const detail = codeDetail(ref, 'O80', '2025-01-15');
  expect(detail).toMatchObject({ isValid: true, minAge: 0, maxAge: 124 });
  expect(detail.notes?.[0]).toMatch(/^No MCE version covers the date:/);
});
