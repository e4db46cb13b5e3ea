import { afterAll, beforeAll, expect, test } from 'vitest';
import { procedureItems } from '../../../src/engines/procedures/index.js';
import type { Reference } from '../../../src/reference/index.js';
import { ProcedureItemQuery, type ProcedureItemQueryInput } from '../../../src/schemas/procedures.js';
import { openSharedReference } from '../../helpers/reference-db.js';

let ref: Reference;
beforeAll(async () => {
  ref = await openSharedReference();
});
afterAll(() => ref.close());

const items = (input: ProcedureItemQueryInput) => procedureItems(ref, ProcedureItemQuery.parse(input));

test('pages with a 1-based startRow, 50 records by default, and reports totalCount before paging', () => {
  const first = items({ targetDate: '2026-06-15' });
  expect(first.records).toHaveLength(50);
  const third = items({ targetDate: '2026-06-15', startRow: 3, limit: 2 });
  expect(third.records.map((r) => r.code)).toEqual(first.records.slice(2, 4).map((r) => r.code));
  expect(third.totalCount).toBe(first.totalCount);
  expect(items({ targetDate: '2026-06-15', startRow: first.totalCount + 1 }).records).toEqual([]);
});

test('refuses a limit above 200', () => {
  expect(ProcedureItemQuery.safeParse({ targetDate: '2026-06-15', limit: 201 }).success).toBe(false);
  expect(() =>
    procedureItems(ref, { targetDate: '2026-06-15', includeDeletedCodes: true, startRow: 1, limit: 500 }),
  ).toThrow(RangeError);
});
