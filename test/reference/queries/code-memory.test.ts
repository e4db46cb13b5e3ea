// billableUnder's date views on a hand-made table: dates whose answers differ must never share a view, and dates
// between the same validity boundaries do.
import Database from 'better-sqlite3';
import { describe, expect, test } from 'vitest';
import { codeIndex } from '../../../src/reference/queries/code-index.js';
import {
  billableUnder,
  loadCodeTable,
  type CodeTable,
  type CodeVersion,
} from '../../../src/reference/queries/code-memory.js';

const version = (code: string, validFrom: string, validTo: string | null, billable = true): CodeVersion => ({
  system: 'HCPCS',
  code,
  validFrom,
  validTo,
  billable,
  shortTitle: null,
  longTitle: null,
  firstRelease: 'r',
  lastRelease: 'r',
});

function table(versions: CodeVersion[][]): CodeTable {
  const all = versions.flat();
  const codes = versions.map((v) => (v[0] as CodeVersion).code);
  return {
    system: 'HCPCS',
    codes,
    versionsAt: versions,
    index: codeIndex(codes),
    starts: [...new Set(all.map((v) => v.validFrom))].sort(),
    ends: [...new Set(all.flatMap((v) => (v.validTo ? [v.validTo] : [])))].sort(),
    views: new Map(),
  };
}

test('a code that ends mid-epoch drops out of the count from the day after its last day', () => {
  const t = table([
    [version('A1', '2020-01-01', '2020-06-30')],
    [version('A11', '2020-01-01', null)],
    [version('A12', '2020-01-01', '2020-08-31', false), version('A12', '2020-09-01', null)],
    [version('A2', '2020-01-01', null)],
    [version('B1', '2020-01-01', null)],
  ]);
  expect(billableUnder(t, 'A', '2020-06-30', 10)).toEqual({ codes: ['A1', 'A11', 'A2'], total: 3 });
  expect(billableUnder(t, 'A', '2020-07-01', 10)).toEqual({ codes: ['A11', 'A2'], total: 2 });
  expect(billableUnder(t, 'A', '2020-06-15', 10)).toEqual({ codes: ['A1', 'A11', 'A2'], total: 3 });
  expect(billableUnder(t, 'A', '2020-09-01', 2)).toEqual({ codes: ['A11', 'A12'], total: 3 });
  // A proper prefix: the code itself is not counted; a leaf has none.
  expect(billableUnder(t, 'A1', '2020-09-01', 10)).toEqual({ codes: ['A11', 'A12'], total: 2 });
  expect(billableUnder(t, 'B1', '2020-09-01', 10)).toBeUndefined();
  expect(billableUnder(t, 'C', '2020-09-01', 10)).toBeUndefined();
  expect(billableUnder(t, 'A', '2019-12-31', 10)).toBeUndefined();
  // 2020-06-15 and 2020-06-30 lie between the same boundaries: one view; 2020-07-01, 2020-09-01 and 2019-12-31 have
  // their own.
  expect(t.views.size).toBe(4);
});

describe('loadCodeTable', () => {
  const CODE_TABLE = `CREATE TABLE code (system TEXT NOT NULL, code TEXT NOT NULL, valid_from TEXT NOT NULL, valid_to TEXT,
    billable INTEGER NOT NULL, short_title TEXT, long_title TEXT, ord INTEGER, first_source_id INTEGER NOT NULL,
    last_source_id INTEGER NOT NULL, PRIMARY KEY (system, code, valid_from)) WITHOUT ROWID`;
  const releases = new Map([
    [1, 'FY2024'],
    [2, 'FY2025'],
  ]);

  function tableOf(rows: unknown[][]): ReturnType<typeof loadCodeTable> {
    const db = new Database(':memory:');
    db.exec(CODE_TABLE);
    const insert = db.prepare('INSERT INTO code VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?, ?)');
    for (const r of rows) {
      insert.run(...r);
    }
    return loadCodeTable(db, 'ICD10CM', releases);
  }

  // Each row as the plain query reads it: NULLs, numbers and titles kept, whichever way the table was read.
  const rows = [
    ['ICD10CM', 'A00', '2023-10-01', null, 0, null, 'Cholera', 1, 2],
    ['ICD10CM', 'A000', '2023-10-01', '2024-09-30', 1, 'Cholera d/t V. cholerae', null, 1, 1],
    ['ICD10CM', 'A000', '2024-10-01', null, 1, '', 'Cholera due to Vibrio cholerae 01, biovar cholerae', 2, 2],
    ['HCPCS', 'A0021', '2023-10-01', null, 1, 'Outside state ambulance', 'x', 1, 2],
  ];
  const expected = (table: ReturnType<typeof loadCodeTable>): unknown => ({
    codes: table.codes,
    versions: table.versionsAt.map((vs) => vs.map((v) => ({ ...v }))),
  });

  test('reads NULLs, flags, titles and releases as the columns hold them', () => {
    const table = tableOf(rows);
    expect(expected(table)).toEqual({
      codes: ['A00', 'A000'],
      versions: [
        [
          {
            system: 'ICD10CM',
            code: 'A00',
            validFrom: '2023-10-01',
            validTo: null,
            billable: false,
            shortTitle: null,
            longTitle: 'Cholera',
            firstRelease: 'FY2024',
            lastRelease: 'FY2025',
          },
        ],
        [
          {
            system: 'ICD10CM',
            code: 'A000',
            validFrom: '2023-10-01',
            validTo: '2024-09-30',
            billable: true,
            shortTitle: 'Cholera d/t V. cholerae',
            longTitle: null,
            firstRelease: 'FY2024',
            lastRelease: 'FY2024',
          },
          {
            system: 'ICD10CM',
            code: 'A000',
            validFrom: '2024-10-01',
            validTo: null,
            billable: true,
            shortTitle: '',
            longTitle: 'Cholera due to Vibrio cholerae 01, biovar cholerae',
            firstRelease: 'FY2025',
            lastRelease: 'FY2025',
          },
        ],
      ],
    });
    expect(table.starts).toEqual(['2023-10-01', '2024-10-01']);
    expect(table.ends).toEqual(['2024-09-30']);
  });

  test('reads a title holding the character rows are joined with, or one that is the NULL mark', () => {
    const withSeparator = rows.map((r) => [...r]);
    (withSeparator[0] as unknown[])[6] = 'Chol\u001fera';
    const a = tableOf(withSeparator);
    expect(a.versionsAt[0]?.[0]?.longTitle).toBe('Chol\u001fera');
    expect(a.versionsAt[1]?.[1]?.longTitle).toBe('Cholera due to Vibrio cholerae 01, biovar cholerae');
    expect(a.versionsAt[0]?.[0]?.shortTitle).toBeNull();
    for (const column of [3, 5, 6]) {
      const marked = rows.map((r) => [...r]);
      (marked[1] as unknown[])[column] = '\u001e';
      const b = tableOf(marked);
      const v = b.versionsAt[1]?.[0] as CodeVersion;
      expect([v.validTo, v.shortTitle, v.longTitle][[3, 5, 6].indexOf(column)], String(column)).toBe('\u001e');
      expect(b.versionsAt[0]?.[0]?.validTo).toBeNull();
      expect(b.versionsAt[0]?.[0]?.shortTitle).toBeNull();
    }
  });
});
