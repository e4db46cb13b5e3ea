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
  const [j1100, a0100] = codeDetails(ref, ['J1100', 'a0100'], '2025-02-15', 'HCPCS');
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
  const [hip, none] = codeDetails(ref, ['27130', '99999'], '2025-02-15', 'CPT');
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
    'No CPT release is loaded for 2020-01-01 (the OPPS Addendum B is loaded for 2023Q1, 2025Q1 and 2026Q2 only): the validity of 99213 on that date is unknown.',
  );
  expect(codeDetail(ref, '99213', '2023-01-01', 'CPT')).toMatchObject({ isValid: true, release: '2023Q1' });
  expect(codeDetail(ref, '99999', '2023-01-01', 'CPT')).toMatchObject({ isValid: false, invalidReason: 'NotFound' });
});

test('each addendum answers for its own quarter: a date between loaded quarters or after the newest is not checked', () => {
  // 99459 is new in 2024: the January 2023 addendum cannot say it is not a code in June 2024.
  for (const date of ['2023-04-01', '2024-06-01', '2025-04-01', '2026-01-15', '2026-07-01']) {
    expect(codeDetail(ref, '99459', date, 'CPT'), date).toMatchObject({ isValid: false, reasonCode: 'CODE_NO_DATA' });
  }
  // In the 2023Q1 quarter, the 2025Q1 addendum shows 99459 is a later code; 99999 is in no addendum at all.
  expect(codeDetail(ref, '99459', '2023-03-31', 'CPT')).toMatchObject({ reasonCode: 'CODE_NOT_YET_VALID' });
  expect(codeDetail(ref, '99999', '2025-03-31', 'CPT').message).toBe(
    '99999 is not a CPT code in any loaded release (OPPS Addendum B 2023Q1, 2025Q1 and 2026Q2; no CPT descriptor file).',
  );
  // A code an earlier addendum listed and the one in force lacks is deleted, not unknown to every release.
  expect(codeDetail(ref, 'C9769', '2025-02-01', 'HCPCS')).toMatchObject({
    invalidReason: 'Deleted',
    release: '2023Q1',
  });
  expect(codeDetail(ref, 'C9769', '2025-02-01', 'HCPCS').message).toBe(
    'C9769 was deleted (in the 2023Q1 OPPS Addendum B, not in the OPPS Addendum B in force on 2025-02-01); no replacement is recorded.',
  );
  expect(codeDetail(ref, '99459', '2025-03-31', 'CPT')).toMatchObject({ isValid: true, release: '2025Q1' });
  expect(codeDetail(ref, '99459', '2026-06-30', 'CPT')).toMatchObject({ isValid: true, release: '2026Q2' });
  // Without a code set named, a CPT code no addendum has on the date still reads as CPT (it is in an addendum), from
  // 2015-10-01 on: before, an undotted code of both shapes is the ICD-9-CM diagnosis it then was.
  for (const date of ['2020-06-01', '2026-07-01']) {
    expect(codeDetail(ref, '99213', date), date).toMatchObject({ codeType: 'CPT', reasonCode: 'CODE_NO_DATA' });
    expect(codeDetail(ref, 'G2211', date), date).toMatchObject({ codeType: 'HCPCS', reasonCode: 'CODE_NO_DATA' });
  }
});

test("HCPCS Level II after the loaded HCPCS file's quarter is checked against the OPPS addendum on the date", () => {
  // The only HCPCS file is January 2019: G2211 (2024) is not in it, G0297 (replaced in 2021) has no end date there.
  const [g2211, g0297, h0001, s9083] = codeDetails(ref, ['G2211', 'G0297', 'H0001', 'S9083'], '2026-05-15', 'HCPCS');
  expect(g2211).toMatchObject({ isValid: true, statusIndicator: 'B', release: '2026Q2', derived: true });
  expect(g2211?.notes?.[0]).toBe(
    'No loaded HCPCS file covers the date (the newest is 2019Q1): the code was found in the derived OPPS table in force on the date.',
  );
  expect(g0297).toMatchObject({ isValid: false, invalidReason: 'Deleted', reasonCode: 'CODE_DELETED' });
  expect(g0297?.message).toBe(
    'G0297 was deleted (in the 2019Q1 HCPCS file, not in the OPPS Addendum B in force on 2026-05-15); no replacement is recorded.',
  );
  // A code the HCPCS file itself ended keeps its last day and cross-reference, whether an addendum covers the date.
  for (const date of ['2024-06-01', '2026-05-15']) {
    expect(codeDetail(ref, 'G0202', date, 'HCPCS').message, date).toBe(
      'G0202 was deleted (last valid 2017-12-31); replaced by 77067 (HCPCS cross-reference).',
    );
  }
  // The addendum lists no H, S or T codes: their absence proves nothing.
  for (const d of [h0001, s9083]) {
    expect(d).toMatchObject({ isValid: false, reasonCode: 'CODE_NO_DATA' });
    expect(d?.message).toContain('the OPPS Addendum B lists no H, S or T codes');
    expect(d?.notes).toContain(
      'No loaded HCPCS file covers the date (the newest is 2019Q1), and no OPPS Addendum B answers for the code on the date.',
    );
  }
  // Inside the file's own quarter the file answers, as before.
  expect(codeDetail(ref, 'G0297', '2019-02-01', 'HCPCS')).toMatchObject({ isValid: true, release: '2019Q1' });
  expect(codeDetail(ref, 'G2211', '2019-02-01', 'HCPCS')).toMatchObject({ invalidReason: 'NotFound' });
  // A quarter no addendum covers: unknown, never NotFound.
  expect(codeDetail(ref, 'G2211', '2024-06-01', 'HCPCS')).toMatchObject({ reasonCode: 'CODE_NO_DATA' });
});

test('leaves priorAuthReq absent: no prior-authorization list is loaded', () => {
  const detail = codeDetail(ref, 'J1100', '2025-02-15', 'HCPCS');
  expect(detail.isValid).toBe(true);
  expect(detail.priorAuthReq).toBeUndefined();
  expect(JSON.stringify(detail)).not.toContain('priorAuthReq');
});

test('says a status indicator read from the derived April 2026 OPPS table is derived, and an official one is not', () => {
  const [derived] = codeDetails(ref, ['J1100'], '2026-04-15', 'HCPCS');
  expect(derived).toMatchObject({ isValid: true, statusIndicator: 'N', release: '2026Q2', derived: true });
  expect(derived?.notes).toContain(
    'Validity and status indicator from the derived April 2026 OPPS table (not an official CMS file): no official Addendum B covers the date.',
  );

  const [official] = codeDetails(ref, ['J1100'], '2025-02-15', 'HCPCS');
  expect(official).toMatchObject({ isValid: true, statusIndicator: 'N' });
  expect(official?.derived).toBeUndefined();
  expect(official?.notes ?? []).not.toContainEqual(expect.stringMatching(/derived/));
});

test('says a CPT code answered by the derived OPPS table (no descriptor file) rests on a derived file', () => {
  const [hip] = codeDetails(ref, ['27130'], '2026-04-15', 'CPT');
  expect(hip).toMatchObject({ isValid: true, statusIndicator: 'J1', release: '2026Q2', derived: true });
  expect(hip?.notes).toEqual([
    'CPT descriptors are not loaded (AMA content: supply a descriptor file); the code was found in the derived OPPS table in force on the date.',
    'Validity and status indicator from the derived April 2026 OPPS table (not an official CMS file): no official Addendum B covers the date.',
  ]);

  const [official] = codeDetails(ref, ['27130'], '2025-02-15', 'CPT');
  expect(official).toMatchObject({ isValid: true, release: '2025Q1' });
  expect(official?.derived).toBeUndefined();
  expect(official?.notes).toEqual([
    'CPT descriptors are not loaded (AMA content: supply a descriptor file); the code was found in the OPPS Addendum B in force on the date.',
  ]);
});

test('a code an official addendum lists and the derived one in force lacks is of unknown validity, not deleted', () => {
  // L6020 is in the official 2025Q1 addendum (and the April 2026 MUE tables); the derived April 2026 copy lacks it
  // (and L6000, L6010): an incomplete copy proves no deletion. G0297 stays deleted: the official 2023Q1 addendum,
  // after its last listing, lacks it.
  const l6020 = codeDetail(ref, 'L6020', '2026-05-15', 'HCPCS');
  expect(l6020).toMatchObject({ isValid: false, reasonCode: 'CODE_NO_DATA' });
  expect(l6020.message).toContain('only a derived (not official) OPPS Addendum B covers the date, and L6020 is missing from it though 2025Q1 OPPS Addendum B lists it');
  expect(codeDetail(ref, 'L6020', '2025-02-01', 'HCPCS')).toMatchObject({ isValid: true, release: '2025Q1' });
  expect(codeDetail(ref, 'G0297', '2026-05-15', 'HCPCS')).toMatchObject({ reasonCode: 'CODE_DELETED' });
});
