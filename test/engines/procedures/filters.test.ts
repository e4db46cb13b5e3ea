import { afterAll, beforeAll, expect, test } from 'vitest';
import { procedureItem, procedureItems } from '../../../src/engines/procedures/index.js';
import type { Reference } from '../../../src/reference/index.js';
import {
  ProcedureItemPage,
  ProcedureItemQuery,
  type ProcedureItemQueryInput,
} from '../../../src/schemas/procedures.js';
import { openSharedReference } from '../../helpers/reference-db.js';

let ref: Reference;
beforeAll(async () => {
  ref = await openSharedReference();
});
afterAll(() => ref.close());

const items = (input: ProcedureItemQueryInput) => procedureItems(ref, ProcedureItemQuery.parse(input));

test('ANDs the filters: a keyword inside a code range', () => {
  const page = items({
    targetDate: '2026-06-15',
    keyword: 'Dexamethasone',
    codeRange: { codeStart: 'J0000', codeEnd: 'J1999' },
  });
  expect(page.records.map((r) => r.code)).toEqual(['J1094', 'J1095', 'J1100']);
  expect(page.totalCount).toBe(3);
  expect(ProcedureItemPage.safeParse(page).success).toBe(true);
});

test('reads a keyword as words that must all occur, in any case, in either description', () => {
  const page = items({ targetDate: '2026-06-15', keyword: '  WHEELCHAIR   cushion ' });
  expect(page.totalCount).toBeGreaterThan(0);
  for (const r of page.records) {
    expect(`${r.shortDescription} ${r.longDescription}`.toLowerCase()).toMatch(/wheelchair/);
    expect(`${r.shortDescription} ${r.longDescription}`.toLowerCase()).toMatch(/cushion/);
  }
});

test('takes a code range as inclusive, and a range without an end as that one code', () => {
  expect(
    items({ targetDate: '2026-06-15', codeRange: { codeStart: 'j1100', codeEnd: 'J1120' } }).records.map((r) => r.code),
  ).toEqual(['J1100', 'J1110', 'J1120']);
  expect(items({ targetDate: '2026-06-15', codeRange: { codeStart: 'J1100' } }).records.map((r) => r.code)).toEqual([
    'J1100',
  ]);
});

test('finds a code by its codeId or in a code list, and nothing for an id of another code set', () => {
  const j1100 = procedureItem(ref, 'J1100', '2026-06-15');
  expect(items({ targetDate: '2026-06-15', codeId: j1100?.codeId }).records.map((r) => r.code)).toEqual(['J1100']);
  expect(items({ targetDate: '2026-06-15', codeList: ['e0100', 'J1100', 'ZZZZZ'] }).records.map((r) => r.code)).toEqual(
    ['E0100', 'J1100'],
  );
  expect(items({ targetDate: '2026-06-15', codeId: j1100?.codeId, codeList: ['E0100'] }).totalCount).toBe(0);
  expect(items({ targetDate: '2026-06-15', codeId: 5620113 /* ICD-10-CM E11.9 */ }).totalCount).toBe(0);
});
