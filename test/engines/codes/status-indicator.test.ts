import { afterAll, beforeAll, expect, test } from 'vitest';
import { codeDetail, codeDetails } from '../../../src/engines/codes/index.js';
import type { Reference } from '../../../src/reference/index.js';
import { openSharedReference } from '../../helpers/reference-db.js';

let ref: Reference;
beforeAll(async () => {
  ref = await openSharedReference();
});
afterAll(() => ref.close());

test('gives a HCPCS code the OPPS status indicator in force on the date', () => {
  const [j1100, a0100] = codeDetails(ref, ['J1100', 'a0100'], '2026-01-15', 'HCPCS');
  expect(j1100).toMatchObject({
    code: 'J1100',
    codeType: 'HCPCS',
    isValid: true,
    statusIndicator: 'N',
    shortDescription: 'Dexamethasone sodium phos',
  });
  expect(a0100).toMatchObject({ code: 'A0100', isValid: true, statusIndicator: 'E1' });
  expect(j1100?.codeId).toBeLessThan(2 ** 31);
});

test('checks CPT codes against the OPPS addendum when no CPT descriptor file is loaded, with no descriptions', () => {
  const [hip, none] = codeDetails(ref, ['27130', '99999'], '2026-01-15', 'CPT');
  expect(hip).toMatchObject({ code: '27130', codeType: 'CPT', isValid: true, statusIndicator: 'J1' });
  expect(hip?.shortDescription).toBeUndefined();
  expect(hip?.notes?.[0]).toMatch(/^CPT descriptors are not loaded/);
  expect(none).toMatchObject({ isValid: false, invalidReason: 'NotFound' });
});

test('a CPT code on a date before the oldest loaded addendum has unknown validity, not NotFound', () => {
  // The oldest loaded Addendum B starts 2023-01-01; 99213 is in every loaded one.
  const [visit, none] = codeDetails(ref, ['99213', '99999'], '2020-01-01', 'CPT');
  for (const d of [visit, none]) {
    expect(d).toMatchObject({ isValid: false, noData: true, reasonCode: 'CODE_NO_DATA' });
    expect(d?.invalidReason).toBeUndefined();
  }
  expect(visit?.message).toBe(
    'No CPT release is loaded for 2020-01-01 (the oldest loaded starts 2023-01-01): the validity of 99213 on that date is unknown.',
  );
  expect(codeDetail(ref, '99213', '2023-01-01', 'CPT')).toMatchObject({ isValid: true, release: '2023Q1' });
  expect(codeDetail(ref, '99999', '2023-01-01', 'CPT')).toMatchObject({ isValid: false, invalidReason: 'NotFound' });
});

test('leaves priorAuthReq absent: no prior-authorization list is loaded', () => {
  const detail = codeDetail(ref, 'J1100', '2026-01-15', 'HCPCS');
  expect(detail.isValid).toBe(true);
  expect(detail.priorAuthReq).toBeUndefined();
  expect(JSON.stringify(detail)).not.toContain('priorAuthReq');
});

test('says a status indicator read from the derived April 2026 OPPS table is derived, and an official one is not', () => {
  const [derived] = codeDetails(ref, ['J1100'], '2026-04-15', 'HCPCS');
  expect(derived).toMatchObject({ isValid: true, statusIndicator: 'N', release: '2019Q1', derived: true });
  expect(derived?.notes).toContain(
    'Status indicator from the derived April 2026 OPPS table (not an official CMS file): no official Addendum B covers 2026-04-15.',
  );

  const [official] = codeDetails(ref, ['J1100'], '2026-01-15', 'HCPCS');
  expect(official).toMatchObject({ isValid: true, statusIndicator: 'N' });
  expect(official?.derived).toBeUndefined();
  expect(official?.notes ?? []).not.toContainEqual(expect.stringMatching(/derived/));
});

test('says a CPT code answered by the derived OPPS table (no descriptor file) rests on a derived file', () => {
  const [hip] = codeDetails(ref, ['27130'], '2026-04-15', 'CPT');
  expect(hip).toMatchObject({ isValid: true, statusIndicator: 'J1', release: '2026Q2', derived: true });
  expect(hip?.notes).toEqual([
    'CPT descriptors are not loaded (AMA content: supply a descriptor file); the code was found in the derived OPPS table in force on the date.',
    'Validity and status indicator from the derived April 2026 OPPS table (not an official CMS file): no official Addendum B covers 2026-04-15.',
  ]);

  const [official] = codeDetails(ref, ['27130'], '2026-01-15', 'CPT');
  expect(official).toMatchObject({ isValid: true, release: '2025Q1' });
  expect(official?.derived).toBeUndefined();
  expect(official?.notes).toEqual([
    'CPT descriptors are not loaded (AMA content: supply a descriptor file); the code was found in the OPPS Addendum B in force on the date.',
  ]);
});
