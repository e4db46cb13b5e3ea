import { describe, expect, test } from 'vitest';
import { parsePoaLine, poaExemptLoader } from '../../../src/refdata/loaders/poa-exempt.js';
import { buildFixture } from '../../helpers/build.js';
import { makeZip } from '../../helpers/zip.js';

const tsv = (lines: string[]): string => `${lines.join('\r\n')}\r\n`;

// The CDC layout: tab-delimited, header line, dotted codes, descriptions quoted when they hold a comma, CRLF.
const fy26 = (
  list: string[] = [
    '01238\tB90.0\tSequelae of central nervous system tuberculosis',
    '30402\tQ89.81\tKabuki syndrome',
    '30497\tQA0.0101\tSCN2A-related neurodevelopmental disorder',
    '97331\tZ68.54\t"Body mass index [BMI] pediatric, 95th percentile for age to less than 120% of the 95th percentile for age"',
  ],
): Buffer =>
  makeZip({
    'POAexemptCodesFY26.txt': tsv(['Order26\tPOAexemptCode\tDescription', ...list]),
    'POAexemptAddCodesFY26.txt': tsv(['Order26\tPOAexemptCode\tDescription', '30402\tQ89.81\tKabuki syndrome']),
    'POAexemptDeleteCodesFY26.txt': tsv([
      'POAexemptCode\tDescription',
      'Q89.8\tOther specified congenital malformations',
      'S30.1XXD\t"Contusion of abdominal wall, subsequent encounter"',
    ]),
    'POAexemptReviseCodesFY26.txt': tsv([
      'Order26\tAction\tPOAexemptCode\tDescription',
      '30219\tRevise from:\tQ75.001\t"Craniosynostosis unspecified, unilateral"',
      '30219\tRevise to:\tQ75.001\t"Craniosynostosis, unspecified type, unilateral"',
    ]),
    'POAexemptCodesFY26.xlsx': 'PK',
    'ReadMePOAexemptFY26.txt': tsv(['Description of Present On Admission (POA) files']),
  });

const fy25 = makeZip({
  'POAexemptCodesFY25.txt': tsv([
    'OrdFY25\tPOAexemptCode\tDescription',
    '01236\tB90.0\tSequelae of central nervous system tuberculosis',
    '30187\tQ89.8\tOther specified congenital malformations',
  ]),
  'ReadMePOAexemptFY25.txt': tsv(['Description of Present On Admission (POA) files']),
});

describe('poa-exempt loader', () => {
  test('reads each list layout, unquoting descriptions and undotting codes', () => {
    expect(parsePoaLine('97331\tZ68.54\t"Body mass index [BMI] pediatric, 95th percentile"', 'list')).toEqual({
      code: 'Z6854',
      ord: 97331,
      description: 'Body mass index [BMI] pediatric, 95th percentile',
    });
    expect(parsePoaLine('Q89.8\tOther specified congenital malformations', 'delete')).toEqual({
      code: 'Q898',
      ord: null,
      description: 'Other specified congenital malformations',
    });
    expect(parsePoaLine('30219\tRevise to:\tQ75.001\tCraniosynostosis', 'revise')).toEqual({
      code: 'Q75001',
      ord: 30219,
      description: 'Craniosynostosis',
      action: 'revise-to',
    });
    expect(parsePoaLine('30219\tRevise:\tQ75.001\tCraniosynostosis', 'revise')).toMatch(/neither "Revise from:"/);
    expect(parsePoaLine('01238\tB900\tSequelae', 'list')).toBe('"B900" is not an ICD-10-CM code');
    expect(parsePoaLine('01238\tB90.0', 'list')).toBe('expected 3 tab-separated fields, found 2');
  });

  test('loads the FY2025 and FY2026 lists side by side, each valid until the next starts, the newest until the end of its fiscal year', async () => {
    const build = await buildFixture(
      { 'icd10cm/POAexemptCodesFY26.zip': fy26(), 'icd10cm/POAexemptCodesFY25.zip': fy25 },
      [poaExemptLoader],
    );
    const db = build.open();
    expect(
      db
        .prepare(
          'SELECT dataset, member, release, valid_from, valid_to, rows FROM source ORDER BY dataset, valid_from, member',
        )
        .all(),
    ).toEqual([
      {
        dataset: 'icd10cm-poa-exempt',
        member: 'POAexemptCodesFY25.txt',
        release: 'FY2025',
        valid_from: '2024-10-01',
        valid_to: '2025-09-30',
        rows: 2,
      },
      {
        dataset: 'icd10cm-poa-exempt',
        member: 'POAexemptCodesFY26.txt',
        release: 'FY2026',
        valid_from: '2025-10-01',
        valid_to: '2026-09-30',
        rows: 4,
      },
      {
        dataset: 'icd10cm-poa-exempt-changes',
        member: 'POAexemptAddCodesFY26.txt',
        release: 'FY2026',
        valid_from: '2025-10-01',
        valid_to: '2026-09-30',
        rows: 1,
      },
      {
        dataset: 'icd10cm-poa-exempt-changes',
        member: 'POAexemptDeleteCodesFY26.txt',
        release: 'FY2026',
        valid_from: '2025-10-01',
        valid_to: '2026-09-30',
        rows: 2,
      },
      {
        dataset: 'icd10cm-poa-exempt-changes',
        member: 'POAexemptReviseCodesFY26.txt',
        release: 'FY2026',
        valid_from: '2025-10-01',
        valid_to: '2026-09-30',
        rows: 2,
      },
    ]);
    expect(
      db.prepare('SELECT code, valid_from, valid_to, ord, description FROM poa_exempt ORDER BY valid_from, ord').all(),
    ).toEqual([
      {
        code: 'B900',
        valid_from: '2024-10-01',
        valid_to: '2025-09-30',
        ord: 1236,
        description: 'Sequelae of central nervous system tuberculosis',
      },
      {
        code: 'Q898',
        valid_from: '2024-10-01',
        valid_to: '2025-09-30',
        ord: 30187,
        description: 'Other specified congenital malformations',
      },
      {
        code: 'B900',
        valid_from: '2025-10-01',
        valid_to: '2026-09-30',
        ord: 1238,
        description: 'Sequelae of central nervous system tuberculosis',
      },
      { code: 'Q8981', valid_from: '2025-10-01', valid_to: '2026-09-30', ord: 30402, description: 'Kabuki syndrome' },
      {
        code: 'QA00101',
        valid_from: '2025-10-01',
        valid_to: '2026-09-30',
        ord: 30497,
        description: 'SCN2A-related neurodevelopmental disorder',
      },
      {
        code: 'Z6854',
        valid_from: '2025-10-01',
        valid_to: '2026-09-30',
        ord: 97331,
        description:
          'Body mass index [BMI] pediatric, 95th percentile for age to less than 120% of the 95th percentile for age',
      },
    ]);
    expect(
      db.prepare('SELECT code, action, ord, description FROM poa_exempt_change ORDER BY source_id, line').all(),
    ).toEqual([
      { code: 'Q8981', action: 'add', ord: 30402, description: 'Kabuki syndrome' },
      { code: 'Q898', action: 'delete', ord: null, description: 'Other specified congenital malformations' },
      {
        code: 'S301XXD',
        action: 'delete',
        ord: null,
        description: 'Contusion of abdominal wall, subsequent encounter',
      },
      { code: 'Q75001', action: 'revise-from', ord: 30219, description: 'Craniosynostosis unspecified, unilateral' },
      {
        code: 'Q75001',
        action: 'revise-to',
        ord: 30219,
        description: 'Craniosynostosis, unspecified type, unilateral',
      },
    ]);
    db.close();
  });

  test('fails the build with file, member and line number on a malformed line', async () => {
    const bad = fy26([
      '01238\tB90.0\tSequelae of central nervous system tuberculosis',
      '30402\tQ89,81\tKabuki syndrome',
    ]);
    await expect(buildFixture({ 'POAexemptCodesFY26.zip': bad }, [poaExemptLoader])).rejects.toThrow(
      /POAexemptCodesFY26\.zip\[POAexemptCodesFY26\.txt\]:3: "Q89,81" is not an ICD-10-CM code/,
    );
  });

  test('fails on a code listed twice in one year', async () => {
    const dup = fy26([
      '01238\tB90.0\tSequelae of central nervous system tuberculosis',
      '01238\tB90.0\tSequelae of central nervous system tuberculosis',
    ]);
    await expect(buildFixture({ 'POAexemptCodesFY26.zip': dup }, [poaExemptLoader])).rejects.toThrow(
      /\[POAexemptCodesFY26\.txt\]:3: code B900: UNIQUE constraint failed/,
    );
  });

  test('skips a file with the list name but another header', async () => {
    const build = await buildFixture({ 'POAexemptCodesFY26.txt': tsv(['code,description', 'B90.0,Sequelae']) }, [
      poaExemptLoader,
    ]);
    expect(build.result.skipped.map((s) => s.file)).toEqual(['POAexemptCodesFY26.txt']);
  });
});
