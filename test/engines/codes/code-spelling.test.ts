import { describe, expect, test } from 'vitest';
import { alternateCode, displayCode, parseCode, shapeSystems } from '../../../src/engines/codes/index.js';

describe('code spelling', () => {
  test('reads a code in any case, with or without its dot and surrounding spaces', () => {
    for (const input of [' e11.9 ', 'E119', 'e 11.9', 'E11.9']) {
      expect(parseCode(input)).toMatchObject({ code: 'E119', clean: true });
    }
    expect(parseCode('E1.1.9').clean).toBe(false);
    expect(parseCode('E11-9').clean).toBe(false);
  });

  test('shows ICD-10-CM and ICD-9-CM diagnoses dotted and the other code sets undotted, with the other form as codeAlt', () => {
    expect(displayCode('ICD10CM', 'E119')).toBe('E11.9');
    expect(displayCode('ICD10CM', 'S72001A')).toBe('S72.001A');
    expect(displayCode('ICD10CM', 'O80')).toBe('O80');
    expect(displayCode('ICD9CM_DX', '25000')).toBe('250.00');
    expect(displayCode('ICD9CM_DX', 'V1000')).toBe('V10.00');
    // ICD-9-CM E codes are dotted after the 4th character.
    expect(displayCode('ICD9CM_DX', 'E8889')).toBe('E888.9');
    expect(displayCode('ICD9CM_PROC', '0010')).toBe('0010');
    expect(alternateCode('ICD9CM_PROC', '0010')).toBe('00.10');
    expect(alternateCode('ICD10CM', 'E119')).toBe('E119');
    expect(displayCode('ICD10PCS', '0DTJ0ZZ')).toBe('0DTJ0ZZ');
    expect(displayCode('HCPCS', 'J1100')).toBe('J1100');
  });

  test('lists every code set whose shape a string fits, the dot position included', () => {
    expect(shapeSystems(parseCode('0010'))).toEqual(['ICD9CM_DX', 'ICD9CM_PROC']);
    expect(shapeSystems(parseCode('00.10'))).toEqual(['ICD9CM_PROC']);
    expect(shapeSystems(parseCode('001.0'))).toEqual(['ICD9CM_DX']);
    expect(shapeSystems(parseCode('A0100'))).toEqual(['ICD10CM', 'HCPCS']);
    expect(shapeSystems(parseCode('E11.9'))).toEqual(['ICD10CM']);
    expect(shapeSystems(parseCode('25000'))).toEqual(['ICD9CM_DX', 'CPT']);
    expect(shapeSystems(parseCode('0DTJ0ZZ'))).toEqual(['ICD10PCS']);
    expect(shapeSystems(parseCode('0001F'))).toEqual(['CPT']);
    expect(shapeSystems(parseCode('N/A'))).toEqual([]);
    expect(shapeSystems(parseCode('12345678'))).toEqual([]);
  });
});
