import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Reference } from '../../../src/reference/index.js';
import { openSharedReference } from '../../helpers/reference-db.js';

let ref: Reference;
beforeAll(async () => {
  ref = await openSharedReference();
});
afterAll(() => ref.close());

test('oppsMany answers exactly what opps answers per code, official quarter first', () => {
  const codes = ['J1100', 'A0100', '27130', '99213', 'ZZZZZ', 'J1100'];
  for (const date of ['2024-06-01', '2026-01-15', '2026-06-15']) {
    const batch = ref.procedures.oppsMany(codes, date);
    for (const code of codes) {
      expect(batch.get(code)).toEqual(ref.procedures.opps(code, date));
    }
  }
});

test('oppsMany keeps each code per period of the addendum, and still answers as opps on every date', () => {
  const codes = ['J1100', 'A0100', '27130', '99213', 'G0390', 'C9399', 'ZZZZZ'];
  // The addendum's rows start or stop on these days; the days before them fall in the earlier period. Later dates
  // first, then earlier ones, then the later ones again.
  const dates = ['2026-04-01', '2026-03-31', '2026-11-20', '2025-01-01', '2024-12-31', '2023-01-01', '2022-12-31'];
  for (const date of [...dates, ...dates.slice().reverse()]) {
    const batch = ref.procedures.oppsMany(codes, date);
    for (const code of codes) {
      expect(batch.get(code), `${code} on ${date}`).toEqual(ref.procedures.opps(code, date));
    }
  }
  // The periods give different answers for some code: the memory does not hand one period's rows to another.
  const spring = ref.procedures.oppsMany(codes, '2026-04-01');
  const winter = ref.procedures.oppsMany(codes, '2026-03-31');
  expect(codes.some((c) => JSON.stringify(spring.get(c)) !== JSON.stringify(winter.get(c)))).toBe(true);
});

test('hcpcsSearch filters by codes, range and words, pages in code order and counts before paging', () => {
  const base = { date: '2026-06-15', includeTerminated: true, offset: 0, limit: 200 };
  const range = ref.procedures.hcpcsSearch({ ...base, range: { first: 'J1100', last: 'J1200' } });
  expect(range.details[0]?.code).toBe('J1100');
  expect(range.details.map((d) => d.code)).toEqual([...range.details.map((d) => d.code)].sort());
  expect(range.total).toBe(range.details.length);
  const paged = ref.procedures.hcpcsSearch({ ...base, range: { first: 'J1100', last: 'J1200' }, offset: 2, limit: 3 });
  expect(paged.details.map((d) => d.code)).toEqual(range.details.slice(2, 5).map((d) => d.code));
  expect(paged.total).toBe(range.total);
  expect(
    ref.procedures.hcpcsSearch({ ...base, words: ['dexamethasone', 'sodium'] }).details.map((d) => d.code),
  ).toContain('J1100');
  expect(ref.procedures.hcpcsSearch({ ...base, codes: ['A4466'] }).details[0]).toEqual(
    ref.procedures.hcpcs('A4466', '2016-01-01'),
  );
  expect(ref.procedures.hcpcsSearch({ ...base, codes: ['A4466'], includeTerminated: false }).total).toBe(0);
  expect(ref.procedures.hcpcsSearch({ ...base, codes: ['J1100'] }).details[0]).toEqual(
    ref.procedures.hcpcs('J1100', '2026-06-15'),
  );
});

test('hcpcsCrossReferences answers the cross-references of the record hcpcsSearch picks, for every ended code', () => {
  const date = '2026-06-15';
  const ended = ref.codes
    .find('HCPCS', { date, includeEnded: true, offset: 0, limit: 100_000 })
    .versions.filter((v) => v.validTo !== null && v.validTo < date)
    .map((v) => v.code);
  expect(ended.length).toBeGreaterThan(100);
  const batch = ref.procedures.hcpcsCrossReferences([...ended, 'ZZZZZ'], date);
  const details = ref.procedures.hcpcsSearch({
    codes: ended,
    date,
    includeTerminated: true,
    offset: 0,
    limit: ended.length,
  }).details;
  expect(details.length).toBeGreaterThan(100);
  expect(batch.size).toBe(details.length);
  for (const d of details) {
    expect(batch.get(d.code)).toEqual(d.crossReferences);
  }
  expect(details.some((d) => d.crossReferences.length > 0)).toBe(true);
  expect(batch.has('ZZZZZ')).toBe(false);
});
