import { afterAll, beforeAll, expect, test } from 'vitest';
import { codeDetail } from '../../../src/engines/codes/index.js';
import type { Reference } from '../../../src/reference/index.js';
import { openSharedReference } from '../../helpers/reference-db.js';

let ref: Reference;
beforeAll(async () => {
  ref = await openSharedReference();
});
afterAll(() => ref.close());

test('answers an ICD-9-CM code on a 2014 date from v32, saying so', () => {
  const detail = codeDetail(ref, '250.00', '2014-05-01');
  expect(detail).toMatchObject({
    code: '250.00',
    codeAlt: '25000',
    codeType: 'ICD-9 CM',
    isValid: true,
    release: 'v32',
  });
  expect(detail.notes).toEqual([
    'ICD-9-CM checked against v32 (in force from 2014-10-01) for 2014-05-01: older ICD-9-CM releases are not loaded.',
  ]);
  expect(codeDetail(ref, '25000', '2015-09-30')).toMatchObject({ isValid: true, release: 'v32' });
  expect(codeDetail(ref, '25000', '2015-09-30').notes).toBeUndefined();
});

test('answers an ICD-9-CM code on a 2016 date as Deleted: ICD-9-CM ended on 2015-09-30', () => {
  const detail = codeDetail(ref, '250.00', '2016-05-01');
  expect(detail).toMatchObject({
    isValid: false,
    invalidReason: 'Deleted',
    reasonCode: 'CODE_ICD9_ENDED',
    release: 'v32',
  });
  expect(detail.message).toMatch(/ICD-9-CM ended for services on 2015-09-30/);
});

test('answers a code of the other ICD revision than the one named by its revision, when the date is outside it', () => {
  // An ICD-9-CM code on an ICD-10-CM claim after the switch: ICD-9-CM ended (was: not a well-formed ICD-10-CM code).
  expect(codeDetail(ref, '250.00', '2026-05-04', 'ICD-10 CM')).toMatchObject({
    isValid: false,
    codeType: 'ICD-9 CM',
    reasonCode: 'CODE_ICD9_ENDED',
    release: 'v32',
  });
  // An ICD-10-CM code on an ICD-9-CM claim before it: not yet valid.
  expect(codeDetail(ref, 'E11.9', '2014-05-04', 'ICD-9 CM')).toMatchObject({
    isValid: false,
    codeType: 'ICD-10 CM',
    reasonCode: 'CODE_ICD10_NOT_YET',
  });
  // Neither revision lists it, or the other revision covers the date (the claim names the wrong set): malformed.
  expect(codeDetail(ref, '999.99', '2026-05-04', 'ICD-10 CM')).toMatchObject({ reasonCode: 'CODE_MALFORMED' });
  expect(codeDetail(ref, 'E11.9', '2026-05-04', 'ICD-9 CM')).toMatchObject({ reasonCode: 'CODE_MALFORMED' });
  expect(codeDetail(ref, '250.00', '2014-05-04', 'ICD-10 CM')).toMatchObject({ reasonCode: 'CODE_MALFORMED' });
});
