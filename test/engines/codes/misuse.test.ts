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
