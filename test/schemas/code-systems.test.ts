// The one module of code-system rules (src/schemas/code-systems.ts), run over the cases of both engines that used
// to carry their own copy: the code engine (src/engines/codes: code-format.ts, code-sets.ts; this file takes over its
// code-spelling.test.ts) and the mapping engine (src/engines/mapping: code-format.ts, code-types.ts). Where the two
// copies answered differently, the case says what each answered, what the answer is now and why (domain.md
// section 1 and the official files).
import { describe, expect, test } from 'vitest';
import {
  alternateCode,
  codeSetsPhrase,
  codeTypeOf,
  CODE_SYSTEMS,
  displayCode,
  dottedCode,
  fitsShape,
  hasShapeOf,
  normaliseCode,
  parseCode,
  parseCodeSet,
  parseCodeType,
  shapeSystems,
  systemLabel,
  type CodeSystem,
} from '../../src/schemas/code-systems.js';
import { parseMapCodeType } from '../../src/engines/mapping/index.js';

describe('reading a code string', () => {
  test('reads a code in any case, with or without its dot and surrounding spaces', () => {
    for (const input of [' e11.9 ', 'E119', 'e 11.9', 'E11.9']) {
      expect(parseCode(input)).toMatchObject({ code: 'E119', clean: true });
      expect(normaliseCode(input)).toBe('E119');
    }
    expect(parseCode('00.10')).toEqual({ input: '00.10', code: '0010', dot: 2, clean: true });
    expect(parseCode(' 250.00 ')).toMatchObject({ code: '25000', dot: 3 });
  });

  test('marks a string with two dots or other punctuation as not clean', () => {
    expect(parseCode('E1.1.9').clean).toBe(false);
    expect(parseCode('E11-9').clean).toBe(false);
    expect(parseCode('N/A').clean).toBe(false);
  });
});

describe('dotted and display forms', () => {
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

  test('writes the dotted form the mapping messages quote', () => {
    expect(dottedCode('ICD9CM_PROC', '0010')).toBe('00.10');
    expect(dottedCode('ICD10CM', 'B8801')).toBe('B88.01');
    expect(dottedCode('ICD10CM', 'A70')).toBe('A70');
    expect(dottedCode('CPT', '99213')).toBe('99213');
  });
});

describe('shapes the two old modules agreed on', () => {
  // Every code string the codes and mapping engine tests use, with the systems whose shape it fits.
  test.each<[string, CodeSystem[]]>([
    ['A02.1', ['ICD10CM']],
    ['K50.011', ['ICD10CM']],
    ['S72.001A', ['ICD10CM']],
    ['W21.89XA', ['ICD10CM']],
    ['E11', ['ICD10CM']],
    ['O80', ['ICD10CM']],
    ['C50.A0', ['ICD10CM']],
    ['Z99.999', ['ICD10CM']],
    ['ZZZZZ', ['ICD10CM']],
    // FY2026's QA0 category: a letter in the second position.
    ['QA00', ['ICD10CM']],
    ['E11.9', ['ICD10CM']],
    ['A0100', ['ICD10CM', 'HCPCS']],
    ['0016070', ['ICD10PCS']],
    ['02H40NZ', ['ICD10PCS']],
    ['0DTJ0ZZ', ['ICD10PCS']],
    ['25000', ['ICD9CM_DX', 'CPT']],
    ['250.00', ['ICD9CM_DX']],
    ['003.1', ['ICD9CM_DX']],
    ['V01.0', ['ICD10CM', 'ICD9CM_DX']],
    ['E888.9', ['ICD9CM_DX']],
    ['0010', ['ICD9CM_DX', 'ICD9CM_PROC']],
    ['00.10', ['ICD9CM_PROC']],
    ['001.0', ['ICD9CM_DX']],
    ['02.31', ['ICD9CM_PROC']],
    ['99213', ['ICD9CM_DX', 'CPT']],
    ['0001F', ['CPT']],
    ['J1100', ['ICD10CM', 'HCPCS']],
    ['G0202', ['ICD10CM', 'HCPCS']],
    ['E1', []],
    ['E1.1.9', []],
    ['N/A', []],
    ['12345678', []],
    ['', []],
  ])('%j fits %j', (input, systems) => {
    expect(shapeSystems(parseCode(input))).toEqual(systems);
  });

  test('answers shape lists in CODE_SYSTEMS order, shared between calls', () => {
    expect(shapeSystems(parseCode('E0114'))).toEqual(['ICD10CM', 'ICD9CM_DX', 'HCPCS']);
    expect(shapeSystems(parseCode('E0114'))).toBe(shapeSystems(parseCode('E8889')));
    expect(CODE_SYSTEMS).toHaveLength(6);
  });
});

describe('shapes the two old modules disagreed on', () => {
  // [string, system, old code engine, old mapping engine, now, why]
  test.each<[string, CodeSystem, boolean, boolean, boolean, string]>([
    // ICD-10-PCS. Old codes engine: /^[0-9BCDFGHX][0-9A-HJ-NP-Z]{2}(?:[0-9A-HJ-NP-Z]{4})?$/; old mapping engine:
    // /^[0-9A-HJ-NP-Z]{7}$/.
    ['0DT', 'ICD10PCS', true, false, true, 'a 3-character table is a header row of the PCS order file (domain.md §3)'],
    ['250', 'ICD10PCS', true, false, true, 'three PCS characters have the shape of a table; existence decides'],
    ['XW033E5', 'ICD10PCS', true, true, true, 'X (New Technology) is a section'],
    ['S72001A', 'ICD10PCS', false, true, false, 'S is no PCS section (0-9, B-D, F-H, X in FY2024-FY2026)'],
    ['W2189XA', 'ICD10PCS', false, true, false, 'W is no PCS section: this is ICD-10-CM W21.89XA'],
    ['ADTJ0ZZ', 'ICD10PCS', false, true, false, 'A is no PCS section'],
    ['0DTI0ZZ', 'ICD10PCS', false, false, false, 'PCS never uses I or O'],
    // HCPCS Level II. Old codes engine: /^[A-EGHJ-MP-V]\d{4}$/; old mapping engine: /^[A-Z]\d{4}$/.
    ['C8923', 'HCPCS', true, true, true, 'C is a HCPCS Level II section'],
    ['U0001', 'HCPCS', true, true, true, 'U is a HCPCS Level II section (lab codes)'],
    ['F1020', 'HCPCS', false, true, false, 'no HCPCS section uses F (F10.20 is ICD-10-CM)'],
    ['I1000', 'HCPCS', false, true, false, 'no HCPCS section uses I'],
    ['N1000', 'HCPCS', false, true, false, 'no HCPCS section uses N'],
    ['O1000', 'HCPCS', false, true, false, 'no HCPCS section uses O'],
    ['W2189', 'HCPCS', false, true, false, 'HCPCS letters stop at V'],
    ['Z0000', 'HCPCS', false, true, false, 'HCPCS letters stop at V'],
    // ICD-9-CM procedures. Old codes engine: /^\d{2,4}$/; old mapping engine: /^\d{3,4}$/.
    ['36', 'ICD9CM_PROC', true, false, true, 'a 2-digit ICD-9-CM procedure category is a header (36 → 36.01 …)'],
    ['361', 'ICD9CM_PROC', true, true, true, 'the v32 files list 3- and 4-digit procedure codes'],
  ])('%j as %s: code engine %s, mapping engine %s, now %s (%s)', (code, system, _codes, _mapping, now) => {
    expect(hasShapeOf(system, code)).toBe(now);
  });

  test('the mapping engine now reads a 2-digit ICD-9-CM request as a procedure only (it tried diagnoses first)', () => {
    expect(fitsShape('ICD9CM_DX', parseCode('36'))).toBe(false);
    expect(fitsShape('ICD9CM_PROC', parseCode('36'))).toBe(true);
  });

  test('accepts CPT MAAA codes (4 digits + M), which both old modules rejected', () => {
    // Both old regexes allowed only F, T or U after 4 digits; the MUE tables and OPPS Addendum B list 0002M, 0003M ….
    expect(hasShapeOf('CPT', '0002M')).toBe(true);
    expect(shapeSystems(parseCode('0002m'))).toEqual(['CPT']);
    expect(hasShapeOf('CPT', '0001X')).toBe(false);
  });
});

describe('ICD-9-CM diagnosis or procedure by the dot (the mapping engine asks this of fitsShape)', () => {
  test.each<[string, boolean, boolean]>([
    ['0010', true, true],
    ['311', true, true],
    ['00.10', false, true],
    ['25.00', false, true],
    ['001.0', true, false],
    ['250.0', true, false],
    ['25000', true, false],
    ['V10.00', true, false],
    ['E849.0', true, false],
    ['E8490', true, false],
    // A dot out of place fits neither: the mapping engine then looks the code up as both kinds.
    ['2500.0', false, false],
  ])('%j: diagnosis %s, procedure %s', (input, dx, proc) => {
    const parsed = parseCode(input);
    expect([fitsShape('ICD9CM_DX', parsed), fitsShape('ICD9CM_PROC', parsed)]).toEqual([dx, proc]);
  });
});

describe('code-set names as requests spell them', () => {
  // [name, wire name, systems (code engine's codeSet), mapping engine's sourceCodeType]: the mapping engine's cases
  // (test/engines/mapping/gems-map.test.ts) and the code engine's (codeSet in test/engines/codes, test/http).
  test.each<[string, string | undefined, CodeSystem[] | undefined, string | undefined]>([
    ['ICD-10 CM', 'ICD-10 CM', ['ICD10CM'], 'ICD-10 CM'],
    [' icd 10 cm ', 'ICD-10 CM', ['ICD10CM'], 'ICD-10 CM'],
    ['icd10pcs', 'ICD-10 PCS', ['ICD10PCS'], 'ICD-10 PCS'],
    ['icd-9-cm', 'ICD-9 CM', ['ICD9CM_DX', 'ICD9CM_PROC'], 'ICD-9 CM'],
    // The GEMs know only the three ICD code sets.
    ['cpt', 'CPT', ['CPT'], undefined],
    ['HCPCS', 'HCPCS', ['HCPCS'], undefined],
    // Stored system names name one half of ICD-9-CM: a code set for the code engine, no wire name.
    ['ICD9CM_DX', undefined, ['ICD9CM_DX'], undefined],
    ['icd9cm_proc', undefined, ['ICD9CM_PROC'], undefined],
    ['ICD-11', undefined, undefined, undefined],
    ['ICD10', undefined, undefined, undefined],
    ['', undefined, undefined, undefined],
    // Underscores: the old code engine dropped them anywhere (`ICD_10_CM` and `icd9cmproc` were code sets), the old
    // mapping engine kept them (`ICD_10_CM` was unknown). operations.md lets only the space or hyphen vary; the
    // underscore belongs to the stored names above, which are read as written.
    ['ICD_10_CM', undefined, undefined, undefined],
    ['icd9cmproc', undefined, undefined, undefined],
  ])('%j: wire name %j, systems %j, mapping %j', (name, type, systems, mapType) => {
    expect(parseCodeType(name)).toBe(type);
    expect(parseCodeSet(name)).toEqual(systems);
    expect(parseMapCodeType(name)).toBe(mapType);
  });

  test('a name that is an Object.prototype member names no code set', () => {
    // Both old tables were plain objects: `constructor` read Object's constructor function as a code set.
    expect(parseCodeSet('constructor')).toBeUndefined();
    expect(parseCodeType('toString')).toBeUndefined();
  });
});

describe('labels', () => {
  test('names each system on the wire and for people', () => {
    expect(CODE_SYSTEMS.map(codeTypeOf)).toEqual(['ICD-10 CM', 'ICD-10 PCS', 'ICD-9 CM', 'ICD-9 CM', 'CPT', 'HCPCS']);
    expect(CODE_SYSTEMS.map(systemLabel)).toEqual([
      'ICD-10-CM',
      'ICD-10-PCS',
      'ICD-9-CM diagnosis',
      'ICD-9-CM procedure',
      'CPT',
      'HCPCS Level II',
    ]);
  });

  test('names code sets with their article', () => {
    expect(codeSetsPhrase(['ICD10PCS'])).toBe('an ICD-10-PCS');
    expect(codeSetsPhrase(['ICD9CM_PROC', 'CPT'])).toBe('an ICD-9-CM procedure or a CPT');
    expect(codeSetsPhrase(['HCPCS'])).toBe('a HCPCS Level II');
  });
});
