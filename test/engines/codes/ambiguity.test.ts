import { afterAll, beforeAll, expect, test } from 'vitest';
import { codeDetail, codeDetails, detectCodeSystem, detectCodeSystems } from '../../../src/engines/codes/index.js';
import type { Reference } from '../../../src/reference/index.js';
import { openSharedReference } from '../../helpers/reference-db.js';

let ref: Reference;
beforeAll(async () => {
  ref = await openSharedReference();
});
afterAll(() => ref.close());

test('reports 0010 as ambiguous between ICD-9-CM diagnosis 001.0 and procedure 00.10 instead of guessing', () => {
  const detail = codeDetail(ref, '0010', '2015-01-15');
  expect(detail).toMatchObject({ codeId: 0, isValid: false, reasonCode: 'CODE_AMBIGUOUS' });
  expect(detail.codeType).toBeUndefined();
  expect(detail.candidates).toEqual([
    { codeType: 'ICD-9 CM', code: '001.0', description: 'Cholera due to vibrio cholerae' },
    { codeType: 'ICD-9 CM', code: '0010', description: 'Implantation of chemotherapeutic agent' },
  ]);
  expect(detectCodeSystem(ref, '0010', '2015-01-15')).toMatchObject({
    status: 'ambiguous',
    systems: ['ICD9CM_DX', 'ICD9CM_PROC'],
  });
});

test('settles a string by its dot, by the code set named, or by existence in one code set only', () => {
  const [proc, dx, cm, pcs] = codeDetails(ref, ['00.10', '001.0', 'E119', '0DTJ0ZZ'], '2015-01-15');
  expect(proc).toMatchObject({ codeType: 'ICD-9 CM', code: '0010', codeAlt: '00.10', isValid: true });
  expect(dx).toMatchObject({ codeType: 'ICD-9 CM', code: '001.0', isValid: true });
  expect(cm).toMatchObject({ codeType: 'ICD-10 CM', code: 'E11.9' });
  expect(pcs).toMatchObject({ codeType: 'ICD-10 PCS', code: '0DTJ0ZZ' });
  expect(codeDetail(ref, 'A0100', '2026-05-15')).toMatchObject({ reasonCode: 'CODE_AMBIGUOUS' });
  expect(codeDetail(ref, 'A0100', '2026-05-15', 'HCPCS')).toMatchObject({ codeType: 'HCPCS', isValid: true });
  expect(codeDetail(ref, 'A0100', '2026-05-15', 'ICD-10-CM')).toMatchObject({
    codeType: 'ICD-10 CM',
    code: 'A01.00',
    isValid: true,
  });
});

test('detects code systems by shape, then existence', () => {
  const found = detectCodeSystems(ref, ['E11.9', 'A0100', 'Z999', 'N/A'], '2026-01-15');
  expect(found.map((d) => [d.status, d.systems])).toEqual([
    ['detected', ['ICD10CM']],
    ['ambiguous', ['ICD10CM', 'HCPCS']],
    ['not-found', ['ICD10CM']],
    ['malformed', []],
  ]);
});
