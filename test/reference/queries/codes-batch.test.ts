import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Reference } from '../../../src/reference/index.js';
import { openSharedReference } from '../../helpers/reference-db.js';

let ref: Reference;
beforeAll(async () => {
  ref = await openSharedReference();
});
afterAll(() => ref.close());

const CODES = ['E119', 'S72001A', 'S72001', 'T8132XA', 'S301XXA', 'S3011XA', 'Z99999', 'E119'];

test('manyOnDate answers exactly what onDate answers per code, in one batch', () => {
  for (const date of ['2024-05-01', '2025-03-01', '2026-06-15']) {
    const batch = ref.codes.manyOnDate('ICD10CM', CODES, date);
    for (const code of CODES) {
      expect(batch.get(code)).toEqual(ref.codes.onDate('ICD10CM', code, date));
    }
  }
});

test('manyHistory answers exactly what history answers per code, and nothing for codes never loaded', () => {
  const batch = ref.codes.manyHistory('ICD10CM', CODES);
  for (const code of CODES) {
    const history = ref.codes.history('ICD10CM', code);
    expect(batch.get(code)).toEqual(history.length > 0 ? history : undefined);
  }
});

test('manyBillableDescendants gives the first billable codes under each code and their count', () => {
  const batch = ref.codes.manyBillableDescendants('ICD10CM', ['E11', 'S72001', 'E119', 'ZZZ'], '2026-06-15', 10);
  const e11 = batch.get('E11');
  expect(e11?.codes).toHaveLength(10);
  expect(e11?.codes[0]).toBe('E1100');
  expect(e11?.total).toBe(ref.codes.billableDescendants('ICD10CM', 'E11', '2026-06-15', 1000).length);
  expect(new Set(e11?.codes)).toEqual(
    new Set(ref.codes.billableDescendants('ICD10CM', 'E11', '2026-06-15', 10).map((v) => v.code)),
  );
  expect(batch.get('S72001')?.total).toBe(16);
  expect(batch.has('E119')).toBe(false);
  expect(batch.has('ZZZ')).toBe(false);
  // The ICD-9-CM files list no categories; the prefix rule still finds the codes under one.
  expect(ref.codes.manyBillableDescendants('ICD9CM_DX', ['250'], '2015-01-15', 2).get('250')?.codes).toEqual([
    '25000',
    '25001',
  ]);
});

test("releases lists each code system's loaded releases, oldest first", () => {
  expect(ref.codes.releases('ICD10CM').map((r) => r.release)).toEqual(['FY2024', 'FY2025', 'FY2026']);
  expect(ref.codes.releases('ICD9CM_DX')).toEqual([{ release: 'v32', validFrom: '2014-10-01', validTo: '2015-09-30' }]);
  expect(ref.codes.releases('CPT')).toEqual([]);
});

test('find pages through a code system by range and words, with ended codes on request', () => {
  const page = ref.codes.find('ICD10CM', {
    range: { first: 'E11', last: 'E119' },
    words: ['WITHOUT', 'complications'],
    date: '2026-06-15',
    includeEnded: false,
    offset: 0,
    limit: 5,
  });
  expect(page.versions.map((v) => v.code)).toContain('E119');
  expect(
    page.versions.every((v) => /without/i.test(v.longTitle ?? '') && /complications/i.test(v.longTitle ?? '')),
  ).toBe(true);
  expect(page.total).toBe(page.versions.length);
  const ended = { codes: ['T8132XA'], date: '2026-06-15', offset: 0, limit: 5 };
  expect(ref.codes.find('ICD10CM', { ...ended, includeEnded: false }).total).toBe(0);
  expect(ref.codes.find('ICD10CM', { ...ended, includeEnded: true }).versions[0]).toMatchObject({
    code: 'T8132XA',
    validTo: '2024-09-30',
  });
});
