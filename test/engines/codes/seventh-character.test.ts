import { afterAll, beforeAll, expect, test } from 'vitest';
import { codeDetail, codeDetails } from '../../../src/engines/codes/index.js';
import type { Reference } from '../../../src/reference/index.js';
import { CodeDetail } from '../../../src/schemas/codes.js';
import { openSharedReference } from '../../helpers/reference-db.js';

let ref: Reference;
beforeAll(async () => {
  ref = await openSharedReference();
});
afterAll(() => ref.close());

test('answers S72.001A as valid and S72.001 as Invalid, listing the 7th characters its sevenChrDef allows', () => {
  const [full, stem] = codeDetails(ref, ['S72.001A', 'S72.001'], '2026-06-15');
  expect(full).toMatchObject({
    code: 'S72.001A',
    codeAlt: 'S72001A',
    codeType: 'ICD-10 CM',
    isValid: true,
    release: 'FY2026',
  });
  expect(full?.invalidReason).toBeUndefined();
  expect(stem).toMatchObject({
    code: 'S72.001',
    isValid: false,
    invalidReason: 'Invalid',
    reasonCode: 'CODE_NEEDS_7TH',
  });
  expect(stem?.message).toMatch(/^S72\.001 needs a 7th character: A \(initial encounter for closed fracture\), B /);
  expect(stem?.message).toMatch(/ and S \(sequela\) \(sevenChrDef at S72, FY20\d\d Tabular List\)\.$/);
  expect(stem?.suggestions?.slice(0, 3)).toEqual(['S72.001A', 'S72.001B', 'S72.001C']);
  expect(CodeDetail.safeParse(stem).success).toBe(true);
});

test('answers a 7th character the stem does not allow as Invalid, naming the allowed ones', () => {
  const detail = codeDetail(ref, 'S72.001Z', '2026-06-15');
  expect(detail).toMatchObject({ isValid: false, invalidReason: 'Invalid', reasonCode: 'CODE_BAD_7TH' });
  expect(detail.message).toMatch(
    /^Z is not a 7th character of S72\.001: allowed are A \(initial encounter for closed fracture\)/,
  );
});
