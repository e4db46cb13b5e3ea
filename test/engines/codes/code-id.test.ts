import { expect, test } from 'vitest';
import { codeFromId, codeIdOf } from '../../../src/engines/codes/index.js';
import type { CodeSystem } from '../../../src/schemas/code-systems.js';

test('gives every code a codeId that decodes back to it, within int32 for codes of up to 5 characters', () => {
  const cases: [CodeSystem, string][] = [
    ['ICD10CM', 'E119'],
    ['ICD10CM', 'S72001A'],
    ['ICD10PCS', '0DTJ0ZZ'],
    ['ICD9CM_DX', '0010'],
    ['ICD9CM_PROC', '0010'],
    ['HCPCS', 'V2020'],
    ['CPT', '99999'],
    ['CPT', '0001F'],
  ];
  const ids = cases.map(([system, code]) => codeIdOf(system, code));
  expect(new Set(ids).size).toBe(cases.length);
  cases.forEach(([system, code], i) => expect(codeFromId(ids[i] as number)).toEqual({ system, code }));
  for (const [system, code] of cases.filter(([, c]) => c.length <= 5)) {
    expect(codeIdOf(system, code)).toBeLessThan(2 ** 31);
  }
  expect(codeIdOf('HCPCS', 'ZZZZZ')).toBeLessThan(2 ** 31);
  expect(codeFromId(0)).toBeUndefined();
  expect(codeFromId(-5)).toBeUndefined();
  expect(() => codeIdOf('ICD10CM', 'E11.9')).toThrow(RangeError);
});
