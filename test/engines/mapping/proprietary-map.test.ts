// ProprietaryMap over the full reference database (operations.md "ProprietaryMap"): logic, logicLimit, the
// confidence scale, sort order and the dotted/undotted twins.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CONFIDENCE, confidenceOf, proprietaryMap, proprietaryMapCode } from '../../../src/engines/mapping/index.js';
import type { Reference } from '../../../src/reference/index.js';
import { ProprietaryMapItem } from '../../../src/schemas/mapping.js';
import { openSharedReference } from '../../helpers/reference-db.js';

const DATE = '2025-10-15';
let ref: Reference;
beforeAll(async () => {
  ref = await openSharedReference();
});
afterAll(() => ref.close());

const rows = (code: string, type: 'ICD-10 CM' | 'ICD-10 PCS' = 'ICD-10 CM'): string[] =>
  proprietaryMapCode(ref, code, type, undefined, DATE).result.map((i) => `${i.code} ${i.confidenceLvl} ${i.logic}`);

describe('proprietaryMap', () => {
  test('an exact, two-way, sole target has logic 0 and confidence 100', () => {
    const { result } = proprietaryMapCode(ref, 'a00.0', 'ICD-10 CM', undefined, DATE);
    expect(result).toEqual([
      {
        sourceCode: 'A00.0',
        sourceCodeDesc: 'Cholera due to Vibrio cholerae 01, biovar cholerae',
        sourceCodeType: 'ICD-10 CM',
        sourceCodeAlt: 'A000',
        code: '001.0',
        codeAlt: '0010',
        codeDesc: 'Cholera due to vibrio cholerae',
        codeType: 'ICD-9 CM',
        confidenceLvl: 100,
        logic: 0,
      },
    ]);
    expect(ProprietaryMapItem.safeParse(result[0]).success).toBe(true);
  });

  test('a combination needs all its codes (logic 2); the target that maps back ranks first', () => {
    // A02.1 → 003.1 + 995.91, both approximate; 995.91 maps forward to R65.20/A41.9, not back to A02.1.
    expect(rows('A02.1')).toEqual([
      `003.1 ${100 + CONFIDENCE.approximate} 2`,
      `995.91 ${100 + CONFIDENCE.approximate + CONFIDENCE.notBidirectional} 2`,
    ]);
  });

  test('several non-combination targets are alternatives (logic 1), as is a choice list of several codes', () => {
    expect(rows('J44.9').map((r) => r.split(' ')[2])).toEqual(['1', '1', '1']);
    // A40.3: choice list 1 holds 038.0 or 038.2 (pick one), choice list 2 holds 995.91 (required).
    expect(rows('A40.3')).toEqual(['038.2 75 1', '995.91 65 2', '038.0 60 1']);
  });

  test('rows of each code are sorted by confidence, best first, and request order is kept across codes', () => {
    const { result } = proprietaryMap(ref, ['P91.821', 'A02.1', 'A18.01'], 'ICD-10 CM', undefined, DATE);
    expect([...new Set(result.map((i) => i.sourceCode))]).toEqual(['P91.821', 'A02.1', 'A18.01']);
    for (const code of ['P91.821', 'A02.1', 'A18.01']) {
      const levels = result.filter((i) => i.sourceCode === code).map((i) => i.confidenceLvl);
      expect(levels).toEqual([...levels].sort((a, b) => b - a));
    }
  });

  test('logicLimit keeps the rows with that logic only', () => {
    const limited = (logic: 0 | 1 | 2): string[] =>
      proprietaryMap(ref, ['E11.9', 'J44.9', 'A02.1'], 'ICD-10 CM', logic, DATE).result.map(
        (i) => `${i.sourceCode}>${i.code}`,
      );
    expect(limited(0)).toEqual(['E11.9>250.00']);
    expect(limited(1)).toEqual(['J44.9>491.20', 'J44.9>493.20', 'J44.9>496']);
    expect(limited(2)).toEqual(['A02.1>003.1', 'A02.1>995.91']);
  });

  test('a conversion-table hop lowers confidence, and the message says so', () => {
    const { result, messages } = proprietaryMapCode(ref, 'B88.01', 'ICD-10 CM', undefined, DATE);
    // 133.8 is approximate for B88.0, which maps back to it.
    expect(result).toMatchObject([
      {
        sourceCode: 'B88.01',
        sourceCodeAlt: 'B8801',
        code: '133.8',
        codeAlt: '1338',
        logic: 0,
        confidenceLvl: 100 + CONFIDENCE.approximate + CONFIDENCE.perHop,
      },
    ]);
    expect(messages).toMatchObject([{ code: 'GEM_BRIDGED' }]);
    // Two hops (D57.04 → D57.09 → D57.00) cost twice.
    expect(rows('D57.04')).toEqual([`282.62 ${100 + CONFIDENCE.approximate + 2 * CONFIDENCE.perHop} 0`]);
  });

  test('ICD-9-CM procedures come undotted with the dotted twin; a code with no target has no rows, only a message', () => {
    expect(proprietaryMapCode(ref, '0016070', 'ICD-10 PCS', undefined, DATE).result).toMatchObject([
      { sourceCode: '0016070', sourceCodeAlt: '0016070', code: '0231', codeAlt: '02.31', codeType: 'ICD-9 CM' },
    ]);
    const none = proprietaryMapCode(ref, '02H40NZ', 'ICD-10 PCS', undefined, DATE);
    expect(none.result).toEqual([]);
    expect(none.messages).toMatchObject([{ sourceCode: '02H40NZ', code: 'GEM_NO_MAP' }]);
  });
});

describe('confidenceOf', () => {
  test('starts at 100 and stays within 10–100', () => {
    expect(confidenceOf({ approximate: false, bidirectional: true, alternatives: 0, hops: 0, fanOut: false })).toBe(
      100,
    );
    expect(confidenceOf({ approximate: true, bidirectional: false, alternatives: 99, hops: 9, fanOut: true })).toBe(10);
  });
});
