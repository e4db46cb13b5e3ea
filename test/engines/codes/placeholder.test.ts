import { afterAll, beforeAll, expect, test } from 'vitest';
import { codeDetail } from '../../../src/engines/codes/index.js';
import type { Reference } from '../../../src/reference/index.js';
import { openSharedReference } from '../../helpers/reference-db.js';

let ref: Reference;
beforeAll(async () => {
  ref = await openSharedReference();
});
afterAll(() => ref.close());

test('answers W21.89A as Invalid with a message naming W21.89XA, the code with its placeholder X', () => {
  const detail = codeDetail(ref, 'W21.89A', '2026-06-15');
  expect(detail).toMatchObject({
    code: 'W21.89A',
    isValid: false,
    invalidReason: 'Invalid',
    reasonCode: 'CODE_PLACEHOLDER_MISSING',
  });
  expect(detail.message).toBe('W21.89A is missing the placeholder X: the code is W21.89XA.');
  expect(detail.suggestions).toEqual(['W21.89XA']);
  expect(codeDetail(ref, 'W21.89XA', '2026-06-15')).toMatchObject({ isValid: true, unacceptablePrincipalDx: true });
});

test('answers W21.89 as needing the placeholder X and a 7th character', () => {
  const detail = codeDetail(ref, 'w2189', '2026-06-15');
  expect(detail).toMatchObject({
    code: 'W21.89',
    isValid: false,
    invalidReason: 'Invalid',
    reasonCode: 'CODE_NEEDS_7TH',
  });
  expect(detail.message).toMatch(
    /^W21\.89 needs the placeholder X and a 7th character: A \(initial encounter\), D \(subsequent encounter\) and S \(sequela\)/,
  );
  expect(detail.suggestions).toEqual(['W21.89XA', 'W21.89XD', 'W21.89XS']);
});
