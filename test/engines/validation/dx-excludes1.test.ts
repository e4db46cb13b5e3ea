// Excludes1 expectations read from the FY2023 Tabular List loaded in the reference database: category E11 carries
// "type 1 diabetes mellitus (E10.-)" and E10 carries "type 2 diabetes mellitus (E11.-)"; I10 carries
// "hypertensive disease complicating pregnancy, childbirth and the puerperium (O10-O11, O13-O16)".
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

const run = (dx: string[], severity?: 'error'): ReturnType<typeof validateClaim> =>
  validateClaim(ref, claimOf({}, dx, ['99213']), { checks: ['dx.excludes1'], excludes1Severity: severity });

test('reports type 1 and type 2 diabetes together once, through the category notes', () => {
  const r = run(['E11.9', 'E10.9']);
  expect(r.findings).toHaveLength(1);
  expect(r.findings[0]).toMatchObject({
    rule: 'dx.excludes1',
    code: 'DX_EXCLUDES1',
    severity: 'warning',
    codes: ['E11.9', 'E10.9'],
    lines: [1],
    source: { dataset: 'icd10cm-tabular', release: 'FY2023' },
  });
  expect(r.findings[0]?.message).toMatch(/E11/);
});

test('reads a range note: essential hypertension with pre-existing hypertension in pregnancy', () => {
  const r = run(['I10', 'O10.011']);
  expect(r.findings.map((f) => f.codes)).toEqual([['I10', 'O10.011']]);
});

test('leaves codes an Excludes1 note does not name alone', () => {
  expect(run(['E11.9', 'I10']).findings).toEqual([]);
});

test('is an error when the run says so', () => {
  expect(run(['E11.9', 'E10.9'], 'error').findings[0]?.severity).toBe('error');
});

test('applies a note that names only some 7th characters: open fractures, by letter or by the kind of encounter', () => {
  // S91: "open fracture of ankle, foot and toes (S92.-with 7th character B)": the sequela of a closed one is not named.
  expect(run(['S91.234S', 'S92.414S']).findings).toEqual([]);
  expect(run(['S91.234A', 'S92.414B']).findings.map((f) => f.codes)).toEqual([['S91.234A', 'S92.414B']]);
  // S61: "(S62.- with 7th character B)": an open fracture is named, its subsequent encounter (D) is not.
  expect(run(['S61.001A', 'S62.302B', 'S62.302D']).findings.map((f) => f.codes)).toEqual([['S61.001A', 'S62.302B']]);
  // S51: "(S52.- with open fracture 7th character)": the 7th characters S52 defines for open fractures (C is
  // "initial encounter for open fracture type IIIA, IIIB, or IIIC"), not the closed ones (A).
  expect(run(['S51.011A', 'S52.501C', 'S52.501A']).findings.map((f) => f.codes)).toEqual([['S51.011A', 'S52.501C']]);
});

test('applies a note that names the codes of a range by their characters after the category (E08-E13 with .61-)', () => {
  // M14.6: "Charcot's joint in diabetes mellitus (E08-E13 with .610)"; M14: "(E08-E13 with .61-)".
  expect(run(['E11.610', 'M14.671']).findings.map((f) => f.codes)).toEqual([['M14.671', 'E11.610']]);
  // E11.9 is not a diabetic arthropathy: the range covers it, the qualifier does not.
  expect(run(['E11.9', 'M14.671']).findings).toEqual([]);
});

test('reads the notes of the tabular release that started by the date: none before the first, never a later one', () => {
  const on = (date: string): ReturnType<typeof validateClaim> =>
    validateClaim(ref, claimOf({ dateOfServiceFrom: date }, ['E11.9', 'E10.9'], ['99213']), { checks: ['dx.excludes1'] });
  // Before FY2017 (2016-10-01), the first loaded Tabular: not checked, never a pass nor a later release's finding.
  const early = on('2016-06-01');
  expect(early.findings).toEqual([]);
  expect(early.notChecked.map((n) => n.missing)).toEqual(['icd10cm-tabular for 2016-06-01']);
  // Between FY2017 and FY2023: FY2017's notes (still answering after its period), not FY2023's.
  expect(on('2020-06-01').findings.map((f) => f.source?.release)).toEqual(['FY2017']);
  expect(on('2026-05-15').findings.map((f) => f.source?.release)).toEqual(['FY2023']);
});
