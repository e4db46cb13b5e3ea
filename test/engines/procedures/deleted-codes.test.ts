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

test('includes codes terminated before targetDate by default, and leaves them out when asked', () => {
  const all = items({ targetDate: '2026-06-15', codeList: ['A4466', 'J1100'] });
  expect(all.records.map((r) => [r.code, r.isDeleted, r.terminationDate])).toEqual([
    ['A4466', true, '2016-12-31'],
    ['J1100', false, ''],
  ]);
  expect(
    items({ targetDate: '2026-06-15', codeList: ['A4466', 'J1100'], includeDeletedCodes: false }).records.map(
      (r) => r.code,
    ),
  ).toEqual(['J1100']);
  // On a date before its termination the code is in force.
  expect(items({ targetDate: '2016-06-15', codeList: ['A4466'], includeDeletedCodes: false }).records[0]).toMatchObject(
    { code: 'A4466', isDeleted: false },
  );
});
