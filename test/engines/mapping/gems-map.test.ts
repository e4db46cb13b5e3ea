// GemsMap over the full reference database (operations.md "GemsMap"; wire.md §13 for A02.1).
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { gemsMap, gemsMapCode, parseMapCodeType } from '../../../src/engines/mapping/index.js';
import type { Reference } from '../../../src/reference/index.js';
import { GemsMapItem } from '../../../src/schemas/mapping.js';
import { openSharedReference } from '../../helpers/reference-db.js';

const DATE = '2025-10-15';
let ref: Reference;
beforeAll(async () => {
  ref = await openSharedReference();
});
afterAll(() => ref.close());

const flagsOf = (i: GemsMapItem): string =>
  `${i.isApproximate}${i.isNotMappable}${i.isCombination}${i.scenario}${i.choiceList}`;

describe('gemsMap', () => {
  test('answers are remembered per connection from the second request: the same frozen items again, whatever the batch around them', () => {
    const once = gemsMap(ref, ['A02.1'], 'ICD-10 CM', DATE);
    const first = gemsMap(ref, ['K50.011', 'A02.1'], 'ICD-10 CM', DATE);
    const again = gemsMap(ref, ['A02.1'], 'ICD-10 CM', DATE);
    const a021 = first.result.filter((i) => i.sourceCode === 'A02.1');
    expect(once.result).toEqual(a021);
    // Asked once, a code is answered but only marked; asked again, its answer is kept and shared from then on.
    expect(once.result[0]).not.toBe(a021[0]);
    expect(again.result).toEqual(a021);
    expect(again.result[0]).toBe(a021[0]);
    expect(Object.isFrozen(again.result[0])).toBe(true);
    // Another date or code set is another answer, read afresh.
    const otherDate = gemsMap(ref, ['A02.1'], 'ICD-10 CM', '2024-10-15');
    expect(otherDate.result[0]).not.toBe(a021[0]);
    expect(otherDate.result.map(flagsOf)).toEqual(a021.map(flagsOf));
  });

  test('a code repeated within its first call is computed once: both copies are the same items', () => {
    const { result } = gemsMap(ref, ['K51.011', 'E11.9', 'K51.011'], 'ICD-10 CM', '2025-11-01');
    const k51 = result.filter((i) => i.sourceCode === 'K51.011');
    expect(k51.length).toBeGreaterThan(0);
    expect(k51.length % 2).toBe(0);
    const half = k51.length / 2;
    expect(k51.slice(half)).toEqual(k51.slice(0, half));
    k51.slice(half).forEach((item, i) => expect(item).toBe(k51[i]));
  });

  test('maps A02.1 to two rows of combination scenario 1, with both descriptions', () => {
    const { result, messages } = gemsMapCode(ref, 'A02.1', 'ICD-10 CM', DATE);
    expect(result).toEqual([
      {
        sourceCode: 'A02.1',
        sourceCodeDesc: 'Salmonella sepsis',
        sourceCodeType: 'ICD-10 CM',
        code: '003.1',
        codeDesc: 'Salmonella septicemia',
        codeType: 'ICD-9 CM',
        isApproximate: 1,
        isCombination: 1,
        isNotMappable: 0,
        scenario: 1,
        choiceList: 1,
      },
      {
        sourceCode: 'A02.1',
        sourceCodeDesc: 'Salmonella sepsis',
        sourceCodeType: 'ICD-10 CM',
        code: '995.91',
        codeDesc: 'Sepsis',
        codeType: 'ICD-9 CM',
        isApproximate: 1,
        isCombination: 1,
        isNotMappable: 0,
        scenario: 1,
        choiceList: 2,
      },
    ]);
    expect(messages).toEqual([]);
    for (const item of result) {
      expect(GemsMapItem.safeParse(item).success).toBe(true);
    }
  });

  test('keeps request order, and GEM file order within a code', () => {
    const { result } = gemsMap(ref, ['J44.9', 'a021', ' e11.9 ', 'A02.1'], 'ICD-10 CM', DATE);
    expect(result.map((i) => `${i.sourceCode}>${i.code}`)).toEqual([
      'J44.9>491.20',
      'J44.9>493.20',
      'J44.9>496',
      'A02.1>003.1',
      'A02.1>995.91',
      'E11.9>250.00',
      'A02.1>003.1',
      'A02.1>995.91',
    ]);
  });

  test('maps ICD-10-PCS to undotted ICD-9-CM procedures', () => {
    const { result } = gemsMapCode(ref, '0016070', 'ICD-10 PCS', DATE);
    expect(result).toMatchObject([{ sourceCode: '0016070', code: '0231', codeType: 'ICD-9 CM', isNotMappable: 0 }]);
    expect(result[0]?.codeDesc).not.toBe('');
  });

  test('copies a NoDx row as not mappable with an empty code, and says so', () => {
    const { result, messages } = gemsMapCode(ref, 'R29.700', 'ICD-10 CM', DATE);
    expect(result).toMatchObject([
      { sourceCode: 'R29.700', code: '', codeDesc: '', isApproximate: 1, isNotMappable: 1 },
    ]);
    expect(messages).toMatchObject([{ sourceCode: 'R29.700', code: 'GEM_NO_MAP' }]);
  });

  test('treats a NoI9 target as no map even where the flag says 0 (the 29 quirk rows of gem_pcsi9.txt)', () => {
    const { result } = gemsMapCode(ref, '02H40NZ', 'ICD-10 PCS', DATE);
    expect(result).toMatchObject([{ code: '', isApproximate: 1, isNotMappable: 1, isCombination: 0 }]);
  });

  test('answers a code of the wrong type with a not-mappable item and a message, not an error', () => {
    const pcsAsCm = gemsMapCode(ref, '0016070', 'ICD-10 CM', DATE);
    expect(pcsAsCm.result).toEqual([
      {
        sourceCode: '0016070',
        sourceCodeDesc: '',
        sourceCodeType: 'ICD-10 CM',
        code: '',
        codeDesc: '',
        codeType: 'ICD-9 CM',
        isApproximate: 0,
        isCombination: 0,
        isNotMappable: 1,
        scenario: 0,
        choiceList: 0,
      },
    ]);
    expect(pcsAsCm.messages).toEqual([
      { sourceCode: '0016070', code: 'GEM_WRONG_TYPE', message: '0016070 is an ICD-10-PCS code, not ICD-10 CM.' },
    ]);
    expect(gemsMapCode(ref, 'E11.9', 'ICD-10 PCS', DATE).messages).toMatchObject([{ code: 'GEM_WRONG_TYPE' }]);
    // The spelling counts: a dotted A02.10 is no HCPCS code (A0210 is).
    expect(gemsMapCode(ref, 'A02.10', 'ICD-10 CM', DATE).messages).toMatchObject([{ code: 'GEM_NOT_FOUND' }]);
    expect(gemsMapCode(ref, 'A0210', 'ICD-10 CM', DATE).messages).toMatchObject([
      { code: 'GEM_WRONG_TYPE', message: 'A0210 is a HCPCS Level II code, not ICD-10 CM.' },
    ]);
    expect(gemsMapCode(ref, '250.00', 'ICD-10 CM', DATE).messages[0]?.message).toBe(
      '25000 is an ICD-9-CM diagnosis code, not ICD-10 CM.',
    );
  });

  test('maps a FY2026 code through the conversion table to the code it replaced, and says so', () => {
    const { result, messages } = gemsMapCode(ref, 'B88.01', 'ICD-10 CM', DATE);
    expect(result).toMatchObject([
      { sourceCode: 'B88.01', sourceCodeDesc: 'Infestation by Demodex mites', code: '133.8', isNotMappable: 0 },
    ]);
    expect(messages).toEqual([
      {
        sourceCode: 'B88.01',
        code: 'GEM_BRIDGED',
        message:
          'B88.01 is not in the FY2018 GEM: mapped through the CDC ICD-10-CM conversion table, B88.01 (effective 2025-10-01) replaced B88.0.',
      },
    ]);
  });

  test('bridges through several links, a former header, a range and several previous codes', () => {
    const codes = (code: string): string[] => gemsMapCode(ref, code, 'ICD-10 CM', DATE).result.map((i) => i.code);
    // D57.04 (FY2024) replaced D57.09 (FY2021), which replaced D57.00.
    expect(codes('D57.04')).toEqual(['282.62']);
    expect(gemsMapCode(ref, 'D57.04', 'ICD-10 CM', DATE).messages[0]?.message).toContain(
      'D57.09 (effective 2020-10-01) replaced D57.00',
    );
    // C44.1321 replaced C44.19, a header in FY2018: its billable codes were the GEM sources.
    expect(codes('C44.1321')).toEqual(['173.19']);
    // H02.151 replaced the range H02.101-H02.106 and H02.109; identical rows are answered once.
    expect(codes('H02.151')).toEqual(['374.10']);
    // C50.A0 replaced C50.919 and C50.929.
    expect(codes('C50.A0')).toEqual(['174.9', '175.9']);
  });

  test('bridges through a range or category only to previous codes of the same 7th character', () => {
    const codes = (code: string): string[] => gemsMapCode(ref, code, 'ICD-10 CM', DATE).result.map((i) => i.code);
    // S06.A0XA replaced S06.890A-S06.899A: the initial encounters (854.0x), not S06.890D's V58.89 or S06.890S's 907.0.
    expect(codes('S06.A0XA')).toEqual(['854.01', '854.02', '854.03', '854.04', '854.05', '854.06']);
    // W44.A0XA, W44.A0XD and W44.H9XS replaced "Codes in Categories T15-T19": the same encounter of those codes.
    expect(codes('W44.A0XA')).not.toContain('V58.89');
    expect(codes('W44.A0XA')).toContain('930.0');
    expect(codes('W44.A0XD')).toEqual(['V58.89']);
    expect(codes('W44.H9XS')).toEqual(['908.5']);
  });

  test('says why a code has no map: new concept, header, not found, malformed', () => {
    const why = (code: string): [string, number, string | undefined] => {
      const { result, messages } = gemsMapCode(ref, code, 'ICD-10 CM', DATE);
      return [result.map(flagsOf).join(' '), result.length, messages[0]?.code];
    };
    expect(why('Y35.009A')).toEqual(['01000', 1, 'GEM_NEW_CONCEPT']);
    expect(why('E11')).toEqual(['01000', 1, 'GEM_HEADER']);
    expect(why('Q99.99')).toEqual(['01000', 1, 'GEM_NOT_FOUND']);
    expect(why('??')).toEqual(['01000', 1, 'GEM_NOT_FOUND']);
    expect(why('')).toEqual(['01000', 1, 'GEM_NOT_FOUND']);
  });

  test('maps ICD-9-CM forward (ext); an undotted code that is both a diagnosis and a procedure answers both', () => {
    expect(gemsMapCode(ref, '250.00', 'ICD-9 CM', DATE).result).toMatchObject([
      { sourceCode: '250.00', sourceCodeType: 'ICD-9 CM', code: 'E11.9', codeType: 'ICD-10 CM' },
    ]);
    const dotted = gemsMapCode(ref, '00.10', 'ICD-9 CM', DATE);
    expect(new Set(dotted.result.map((i) => i.codeType))).toEqual(new Set(['ICD-10 PCS']));
    expect(dotted.messages).toEqual([]);
    const both = gemsMapCode(ref, '0010', 'ICD-9 CM', DATE);
    expect(both.result[0]).toMatchObject({ sourceCode: '001.0', code: 'A00.0', codeType: 'ICD-10 CM' });
    expect(both.result.slice(1).every((i) => i.sourceCode === '0010' && i.codeType === 'ICD-10 PCS')).toBe(true);
    expect(both.messages).toMatchObject([{ code: 'GEM_AMBIGUOUS' }]);
  });
});

describe('parseMapCodeType', () => {
  test.each([
    ['ICD-10 CM', 'ICD-10 CM'],
    ['icd-10-cm', 'ICD-10 CM'],
    ['ICD10CM', 'ICD-10 CM'],
    [' icd 10 cm ', 'ICD-10 CM'],
    ['ICD-10 PCS', 'ICD-10 PCS'],
    ['icd10pcs', 'ICD-10 PCS'],
    ['ICD-10-PCS', 'ICD-10 PCS'],
    ['ICD-9 CM', 'ICD-9 CM'],
    ['icd9cm', 'ICD-9 CM'],
  ])('reads %j as %s', (name, type) => {
    expect(parseMapCodeType(name)).toBe(type);
  });

  test.each(['ICD-11', 'CPT', 'HCPCS', 'ICD10', 'ICD_10_CM', ''])('does not know %j', (name) => {
    expect(parseMapCodeType(name)).toBeUndefined();
  });
});
