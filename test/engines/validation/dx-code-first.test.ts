// Code-first expectations read from the FY2023 Tabular List: G63 "Polyneuropathy in diseases classified elsewhere"
// carries "code first" notes naming amyloidosis (E85.-), endocrine disease except diabetes (E00-E07, E15-E16,
// E20-E34), metabolic diseases (E70-E88), neoplasm (C00-D49) and nutritional deficiency (E40-E64).
import { afterAll, beforeAll, expect, test } from 'vitest';
import { validateClaim } from '../../../src/engines/validation/index.js';
import type { Reference } from '../../../src/reference/index.js';
import { claimOf } from '../../helpers/claims.js';
import { openSharedReference } from '../../helpers/reference-db.js';

let ref: Reference;
beforeAll(async () => {
  ref = await openSharedReference();
});
afterAll(() => ref.close());

const run = (dx: string[]): ReturnType<typeof validateClaim> =>
  validateClaim(ref, claimOf({}, dx, ['99213']), { checks: ['dx.code-first'] });

test('warns about a manifestation code reported without any etiology its note names', () => {
  const r = run(['G63', 'I10']);
  expect(r.findings).toMatchObject([
    { rule: 'dx.code-first', code: 'DX_CODE_FIRST', severity: 'warning', codes: ['G63'] },
  ]);
});

test('accepts the manifestation after an etiology its note names', () => {
  expect(run(['E85.1', 'G63']).findings).toEqual([]);
});

test('warns when the etiology is sequenced after the manifestation', () => {
  const r = run(['G63', 'E85.1']);
  expect(r.findings).toMatchObject([{ codes: ['G63', 'E85.1'] }]);
  expect(r.findings[0]?.fix).toBe('Sequence E85.1 before G63.');
});

test('codes of the MCE manifestation list count whatever their title says (F02.80, D63.1)', () => {
  // F02.80 "Dementia in other diseases classified elsewhere..." (code first G30.- and others) and D63.1 "Anemia in
  // chronic kidney disease" (code first N18.-) are on the v43.1 manifestation list; neither title has the phrase.
  expect(run(['F02.80', 'I10']).findings).toMatchObject([{ rule: 'dx.code-first', codes: ['F02.80'] }]);
  expect(run(['D63.1']).findings).toMatchObject([{ rule: 'dx.code-first', codes: ['D63.1'] }]);
  expect(run(['G30.9', 'F02.80']).findings).toEqual([]);
  expect(run(['N18.4', 'D63.1']).findings).toEqual([]);
  expect(run(['D63.1', 'N18.4']).findings).toMatchObject([{ codes: ['D63.1', 'N18.4'] }]);
});

test('is not checked on a date before every loaded tabular release, never passed', () => {
  const r = validateClaim(ref, claimOf({ dateOfServiceFrom: '2016-06-01' }, ['G63', 'I10'], ['99213']), {
    checks: ['dx.code-first'],
  });
  expect(r.findings).toEqual([]);
  expect(r.notChecked.map((n) => n.missing)).toEqual(['icd10cm-tabular for 2016-06-01']);
});
