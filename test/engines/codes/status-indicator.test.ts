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

test('leaves priorAuthReq absent: no prior-authorization list is loaded', () => {
  const detail = codeDetail(ref, 'J1100', '2026-01-15', 'HCPCS');
  expect(detail.isValid).toBe(true);
  expect(detail.priorAuthReq).toBeUndefined();
  expect(JSON.stringify(detail)).not.toContain('priorAuthReq');
});
