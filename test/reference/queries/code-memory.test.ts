// billableUnder's date views on a hand-made table: dates whose answers differ must never share a view, and dates
// between the same validity boundaries do.
import { expect, test } from 'vitest';
import { codeIndex } from '../../../src/reference/queries/code-index.js';
import { billableUnder, type CodeTable, type CodeVersion } from '../../../src/reference/queries/code-memory.js';

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
