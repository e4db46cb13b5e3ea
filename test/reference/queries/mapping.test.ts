import type Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { gemsLoader } from '../../../src/refdata/loaders/gems.js';
import { icd10cmConversionLoader } from '../../../src/refdata/loaders/icd10cm-conversion.js';
import { icd9cmLoader } from '../../../src/refdata/loaders/icd9cm.js';
import { icd10OrderLoader } from '../../../src/refdata/loaders/icd10-order.js';
import { poaExemptLoader } from '../../../src/refdata/loaders/poa-exempt.js';
import { createMappingQueries, type MappingQueries } from '../../../src/reference/queries/mapping.js';
import { buildFixture } from '../../helpers/build.js';
import { orderLine } from '../../helpers/order-line.js';
import { makeXlsx, makeZip } from '../../helpers/zip.js';

const crlf = (lines: string[]): string => `${lines.join('\r\n')}\r\n`;

const files = {
  // Two GEM releases of the backward dx file: FY2017 (older) and FY2018 (newest).
  'gems/2017/2017_I10gem.txt': crlf(['A021    0031  00000']),
  'gems/Dxgem_2018.zip': makeZip({
    '2018_I10gem.txt': crlf([
      'A000    0010  00000',
      'A021    0031  10111',
      'A021    99591 10112',
      'O3680X0 NoDx  11000',
    ]),
    '2018_I9gem.txt': crlf([
      '0010  A000    00000',
      '0031  A021    10000',
      '99591 R6520   10000',
      '99591 A419    10000',
    ]),
  }),
  'gems/gem_pcsi9.txt': crlf(['0016070 0231  10000', '02H40NZ NoI9  10000']),
  'gems/gem_i9pcs.txt': crlf(['0231  0016070 10000', '0231  0016071 10000']),
  'icd10cm/ICD-10-CM-CONVERSION-TABLE-FY2026.xlsx': makeXlsx({
    Sheet1: [
      ['preface', null, null],
      ['Current code assignment', 'Effective', 'Previous Code(s) Assignment'],
      ['A04.71', '2017', 'A04.7'],
      ['A04.72', '2017', 'A04.7'],
      ['H36.811', '2023', 'H35.20-H35.23'],
      ['P91.821', '2020', 'I63.- and P91.88'],
      ['B88.01', '2025', 'B88.0'],
      ['M04.8', '2016', 'None'],
    ],
  }),
  'icd10cm/icd-10-cm-conversion-table-FY2025.xlsx': makeXlsx({
    Sheet1: [
      ['Current code assignment', 'Effective', 'Previous Code(s) Assignment'],
      ['A04.71', '2017', 'A04.7'],
    ],
  }),
  'icd10cm/POAexemptCodesFY25.zip': makeZip({
    'POAexemptCodesFY25.txt': crlf([
      'OrdFY25\tPOAexemptCode\tDescription',
      '30187\tQ89.8\tOther specified congenital malformations',
    ]),
  }),
  'icd10cm/POAexemptCodesFY26.zip': makeZip({
    'POAexemptCodesFY26.txt': crlf(['Order26\tPOAexemptCode\tDescription', '30402\tQ89.81\tKabuki syndrome']),
    'POAexemptDeleteCodesFY26.txt': crlf([
      'POAexemptCode\tDescription',
      'Q89.8\tOther specified congenital malformations',
    ]),
  }),
  'icd9cm/ICD-9-CM-v32-master-descriptions.zip': makeZip({
    'CMS32_DESC_LONG_DX.txt':
      '0031  Salmonella septicemia\n25000 Diabetes mellitus without mention of complication, type II or unspecified type, not stated as uncontrolled\n',
    'CMS32_DESC_SHORT_DX.txt': '0031  Salmonella septicemia\n25000 DMII wo cmp nt st uncntr\n',
    'CMS32_DESC_LONG_SG.txt': '0231 Other cerebral shunt\n',
    'CMS32_DESC_SHORT_SG.txt': '0231 Other cerebral shunt NEC\n',
  }),
};

let db: Database.Database;
let mapping: MappingQueries;

beforeAll(async () => {
  const build = await buildFixture(files, [icd9cmLoader, gemsLoader, poaExemptLoader, icd10cmConversionLoader]);
  db = build.open();
  mapping = createMappingQueries(db);
});

afterAll(() => db.close());

describe('mapping queries', () => {
  test('GEM rows by source come back in file order with every flag, from the newest release by default', () => {
    const rows = mapping.gemsBySource('dx', 'backward', 'a02.1');
    expect(rows).toEqual([
      {
        dataset: 'gems-dx-i10-i9',
        release: 'FY2018',
        rowNo: 2,
        source: 'A021',
        target: '0031',
        flags: '10111',
        approximate: 1,
        noMap: 0,
        combination: 1,
        scenario: 1,
        choiceList: 1,
        isNotMappable: false,
      },
      {
        dataset: 'gems-dx-i10-i9',
        release: 'FY2018',
        rowNo: 3,
        source: 'A021',
        target: '99591',
        flags: '10112',
        approximate: 1,
        noMap: 0,
        combination: 1,
        scenario: 1,
        choiceList: 2,
        isNotMappable: false,
      },
    ]);
    expect(mapping.gemsBySource('dx', 'backward', 'A021', '2017-05-01')).toMatchObject([
      { release: 'FY2017', flags: '00000' },
    ]);
    expect(mapping.gemsBySource('dx', 'backward', 'A021', '2016-05-01')).toEqual([]);
    expect(mapping.gemsBySource('dx', 'backward', 'O36.80X0')).toMatchObject([
      { target: null, noMap: 1, isNotMappable: true },
    ]);
  });

  test('GEM rows by target, both directions and both kinds', () => {
    expect(mapping.gemsByTarget('dx', 'backward', '995.91').map((r) => [r.source, r.rowNo])).toEqual([['A021', 3]]);
    expect(mapping.gemsBySource('dx', 'forward', '99591').map((r) => r.target)).toEqual(['R6520', 'A419']);
    expect(mapping.gemsByTarget('dx', 'forward', 'A02.1').map((r) => r.source)).toEqual(['0031']);
    expect(mapping.gemsBySource('pcs', 'backward', '02H40NZ')).toMatchObject([
      { dataset: 'gems-pcs-i10-i9', target: null, flags: '10000', noMap: 0, isNotMappable: true },
    ]);
    expect(mapping.gemsByTarget('pcs', 'backward', '0231').map((r) => r.source)).toEqual(['0016070']);
    expect(mapping.gemsBySource('pcs', 'forward', '02.31').map((r) => r.target)).toEqual(['0016070', '0016071']);
    expect(mapping.gemsByTarget('pcs', 'forward', '0016071')).toMatchObject([{ source: '0231', rowNo: 2 }]);
    expect(mapping.gemsBySource('pcs', 'forward', '9999')).toEqual([]);
  });

  test('GEM rows by source range read the last bound as a prefix, by source then file order', () => {
    const sources = (first: string, last: string): string[] =>
      mapping.gemsBySourceRange('dx', 'backward', first, last).map((r) => `${r.source}:${r.rowNo}`);
    expect(sources('A02', 'A02')).toEqual(['A021:2', 'A021:3']);
    expect(sources('A000', 'A02.1')).toEqual(['A000:1', 'A021:2', 'A021:3']);
    expect(sources('A0', 'A0')).toEqual(['A000:1', 'A021:2', 'A021:3']);
    expect(sources('A001', 'A01')).toEqual([]);
    expect(sources('O36', 'O3680')).toEqual(['O3680X0:4']);
    expect(mapping.gemsBySourceRange('dx', 'backward', 'A02', 'A02', '2017-05-01')).toMatchObject([
      { release: 'FY2017', source: 'A021' },
    ]);
    expect(mapping.gemsBySourceRange('pcs', 'forward', '02', '02').map((r) => r.target)).toEqual([
      '0016070',
      '0016071',
    ]);
  });

  test('conversion links current → previous, from the newest table or the one in force on a date', () => {
    expect(mapping.previousCodes('A04.71')).toEqual([
      {
        release: 'FY2026',
        rowNo: 3,
        currentCode: 'A0471',
        effective: '2017-10-01',
        previousCode: 'A047',
        previousLast: null,
        previousText: 'A04.7',
      },
    ]);
    expect(mapping.previousCodes('A04.71', '2025-01-01')).toMatchObject([{ release: 'FY2025', rowNo: 2 }]);
    expect(mapping.previousCodes('B88.01', '2025-01-01')).toEqual([]);
    expect(mapping.previousCodes('M04.8')).toMatchObject([{ previousCode: null, previousText: 'None' }]);
  });

  test('conversion links previous → current cover single codes, ranges (prefix bounds) and categories', () => {
    expect(mapping.laterCodes('A04.7').map((l) => l.currentCode)).toEqual(['A0471', 'A0472']);
    expect(mapping.laterCodes('H35.22').map((l) => l.currentCode)).toEqual(['H36811']);
    expect(mapping.laterCodes('H35.231').map((l) => l.currentCode)).toEqual(['H36811']);
    expect(mapping.laterCodes('H35.24')).toEqual([]);
    expect(mapping.laterCodes('H35.1')).toEqual([]);
    expect(mapping.laterCodes('I63.9').map((l) => [l.currentCode, l.previousCode, l.previousLast])).toEqual([
      ['P91821', 'I63', 'I63'],
    ]);
    expect(mapping.laterCodes('I64')).toEqual([]);
    expect(mapping.laterCodes('P91.88').map((l) => l.currentCode)).toEqual(['P91821']);
  });

  test('POA exempt status on a date, and no answer before any list is in force', () => {
    expect(mapping.poaExempt('Q89.8', '2025-09-30')).toEqual({
      code: 'Q898',
      exempt: true,
      release: 'FY2025',
      description: 'Other specified congenital malformations',
    });
    expect(mapping.poaExempt('Q89.8', '2025-10-01')).toEqual({
      code: 'Q898',
      exempt: false,
      release: 'FY2026',
      description: null,
    });
    expect(mapping.poaExempt('q89.81', '2026-01-01')).toEqual({
      code: 'Q8981',
      exempt: true,
      release: 'FY2026',
      description: 'Kabuki syndrome',
    });
    expect(mapping.poaExempt('Q89.81', '2024-09-30')).toBeUndefined();
    // Kept per period between change dates: earlier dates asked after later ones get their own answers.
    expect(mapping.poaExempt('Q89.8', '2025-09-30')).toMatchObject({ exempt: true, release: 'FY2025' });
    expect(mapping.poaExempt('Q89.81', '2025-09-30')).toMatchObject({ exempt: false, release: 'FY2025' });
    expect(mapping.poaExempt('Q89.81', '2026-06-30')).toMatchObject({ exempt: true, release: 'FY2026' });
    expect(mapping.poaExempt('Q89.8', '2024-09-30')).toBeUndefined();
    expect(mapping.poaExemptChanges('Q89.8')).toEqual([
      {
        code: 'Q898',
        action: 'delete',
        release: 'FY2026',
        validFrom: '2025-10-01',
        description: 'Other specified congenital malformations',
      },
    ]);
  });

  test('ICD-9 detail with both titles, dotted or not', () => {
    expect(mapping.icd9Detail('dx', '250.00')).toEqual({
      system: 'ICD9CM_DX',
      code: '25000',
      shortTitle: 'DMII wo cmp nt st uncntr',
      longTitle:
        'Diabetes mellitus without mention of complication, type II or unspecified type, not stated as uncontrolled',
      validFrom: '2014-10-01',
      validTo: '2015-09-30',
      release: 'v32',
    });
    expect(mapping.icd9Detail('proc', '02.31')).toMatchObject({
      system: 'ICD9CM_PROC',
      shortTitle: 'Other cerebral shunt NEC',
      longTitle: 'Other cerebral shunt',
    });
    expect(mapping.icd9Detail('proc', '0031')).toBeUndefined();
  });

  test('a database built without these loaders answers with nothing rather than failing', async () => {
    const build = await buildFixture({ 'icd10cm_order_2026.txt': crlf([orderLine(1, 'A00', 0, 'Cholera')]) }, [
      icd10OrderLoader,
    ]);
    const bare = build.open();
    const queries = createMappingQueries(bare);
    expect(queries.gemsBySource('dx', 'backward', 'A021')).toEqual([]);
    expect(queries.gemsBySourceRange('dx', 'backward', 'A0', 'A0')).toEqual([]);
    expect(queries.laterCodes('A047')).toEqual([]);
    expect(queries.poaExempt('Q898', '2026-01-01')).toBeUndefined();
    expect(queries.poaExemptChanges('Q898')).toEqual([]);
    expect(queries.icd9Detail('dx', '25000')).toBeUndefined();
    bare.close();
  });
});
