import { afterAll, beforeAll, expect, test } from 'vitest';
import { codeDetails } from '../../../src/engines/codes/index.js';
import type { Reference } from '../../../src/reference/index.js';
import { openSharedReference } from '../../helpers/reference-db.js';

let ref: Reference;
beforeAll(async () => {
  ref = await openSharedReference();
});
afterAll(() => ref.close());

test('throws a RangeError naming the argument for a date that is not YYYY-MM-DD or an unknown code set', () => {
  expect(() => codeDetails(ref, ['E11.9'], '06/15/2026')).toThrow(/"date".*06\/15\/2026/);
  expect(() => codeDetails(ref, ['E11.9'], '2026-06-15', 'ICD-11')).toThrow(/"codeSet".*ICD-11/);
  expect(() => codeDetails(ref, ['E11.9'], '2026-06-15', 'icd-10-cm')).not.toThrow();
  expect(codeDetails(ref, [], '2026-06-15')).toEqual([]);
});

test('checks every call: a repeated valid date and code set are read once, a bad one after them still throws', () => {
  const first = codeDetails(ref, ['E11.9'], '2026-06-15', 'ICD-10 CM');
  expect(codeDetails(ref, ['E11.9'], '2026-06-15', 'ICD-10 CM')).toEqual(first);
  expect(() => codeDetails(ref, ['E11.9'], '2026-06-15', 'ICD-11')).toThrow(/"codeSet".*ICD-11/);
  expect(() => codeDetails(ref, ['E11.9'], '2026-6-15', 'ICD-10 CM')).toThrow(/"date".*2026-6-15/);
  // The same date with another code set (or none) is another call.
  expect(codeDetails(ref, ['G0439'], '2026-06-15', 'HCPCS')[0]?.codeType).toBe('HCPCS');
  expect(codeDetails(ref, ['E11.9'], '2026-06-15')[0]?.codeType).toBe('ICD-10 CM');
  expect(codeDetails(ref, ['E11.9'], '2026-06-15', 'ICD-10 CM')).toEqual(first);
});
