// The in-memory GEM files and conversion table against SQL on the full reference database: the undated lookups
// (memory) must return the same rows, flags and order as the dated ones (SQL) on a date inside the newest release.
import { expect, test } from 'vitest';
import type { GemDirection, GemKind } from '../../../src/reference/queries/mapping.js';
import { sharedReferenceAndSql } from '../../helpers/reference-db.js';

const shared = sharedReferenceAndSql();

const FILES: readonly [GemKind, GemDirection, string][] = [
  ['dx', 'backward', 'gems-dx-i10-i9'],
  ['dx', 'forward', 'gems-dx-i9-i10'],
  ['pcs', 'backward', 'gems-pcs-i10-i9'],
  ['pcs', 'forward', 'gems-pcs-i9-i10'],
];
const IN_FY2018 = '2018-06-01';

test('every source code of every GEM file: the same rows from memory as from SQL', () => {
  const sources = shared.db.prepare('SELECT DISTINCT source FROM gem WHERE dataset = ?').pluck();
  const wrong: string[] = [];
  let rows = 0;
  for (const [kind, direction, dataset] of FILES) {
    for (const code of sources.all(dataset) as string[]) {
      const memory = shared.ref.mapping.gemsBySource(kind, direction, code);
      const sql = shared.ref.mapping.gemsBySource(kind, direction, code, IN_FY2018);
      if (JSON.stringify(memory) !== JSON.stringify(sql)) {
        wrong.push(`${dataset} ${code}`);
      }
      rows += memory.length;
    }
  }
  expect(wrong.slice(0, 20)).toEqual([]);
  expect(rows).toBe(shared.db.prepare('SELECT count(*) FROM gem').pluck().get());
  expect(shared.ref.mapping.gemsBySource('dx', 'backward', 'NOPE')).toEqual([]);
});

test('source ranges, the last bound read as a prefix: the same rows from memory as from SQL', () => {
  const ranges: [GemKind, GemDirection, string, string][] = [
    ['dx', 'backward', 'C4419', 'C4419'],
    ['dx', 'backward', 'H02101', 'H02106'],
    ['dx', 'backward', 'I63', 'I63'],
    ['dx', 'backward', 'S72', 'S73'],
    ['dx', 'backward', 'A', 'B'],
    ['pcs', 'backward', '0DT', '0DT'],
    ['pcs', 'forward', '02', '02'],
    ['dx', 'forward', '250', '2509'],
    ['dx', 'backward', 'ZZZ', 'ZZZ'],
  ];
  for (const [kind, direction, first, last] of ranges) {
    const memory = shared.ref.mapping.gemsBySourceRange(kind, direction, first, last);
    expect(memory).toEqual(shared.ref.mapping.gemsBySourceRange(kind, direction, first, last, IN_FY2018));
    expect(memory.every((r) => r.source >= first && r.source.slice(0, last.length) <= last)).toBe(true);
  }
  expect(shared.ref.mapping.gemsBySourceRange('dx', 'backward', 'I63', 'I63').map((r) => r.source)).toContain('I6300');
});

test('conversion-table links of every current code: the same from memory as from SQL', () => {
  const current = shared.db.prepare('SELECT DISTINCT current_code FROM icd10cm_conversion').pluck().all() as string[];
  const wrong = current.filter(
    (code) =>
      JSON.stringify(shared.ref.mapping.previousCodes(code)) !==
      JSON.stringify(shared.ref.mapping.previousCodes(code, '2026-06-15')),
  );
  expect(current.length).toBeGreaterThan(1000);
  expect(wrong.slice(0, 20)).toEqual([]);
  expect(shared.ref.mapping.previousCodes('B88.01')[0]).toMatchObject({ previousCode: 'B880' });
});
