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
    source: { dataset: 'icd10cm-tabular', release: 'FY2023 + FY2026 addenda' },
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
  // FY2023's own period before its first addenda (April 2023), then FY2023 with the addenda in force on the date.
  expect(on('2023-03-31').findings.map((f) => f.source?.release)).toEqual(['FY2023']);
  expect(on('2024-06-01').findings.map((f) => f.source?.release)).toEqual(['FY2023 + April 2024 addenda']);
  expect(on('2026-05-15').findings.map((f) => f.source?.release)).toEqual(['FY2023 + FY2026 addenda']);
});

// The FY2026 Tabular List addenda (icd10cm-tabular-addenda-2026.pdf): D12.6's Excludes1 "inflammatory polyp of colon
// (K51.4-)" becomes an Excludes2 (page 2), and E11.9 gets the Excludes1 "type 2 diabetes mellitus, without
// complications in remission (E11.A)" with the new code E11.A (page 5).
test('reads the Tabular List addenda from their date: a note moved to Excludes2, a note added', () => {
  const on = (date: string, dx: string[]): ReturnType<typeof validateClaim> =>
    validateClaim(ref, claimOf({ dateOfServiceFrom: date }, dx, ['99213']), { checks: ['dx.excludes1'] });
  const moved = on('2025-09-30', ['D12.6', 'K51.40']);
  expect(moved.findings.map((f) => [f.codes, f.source?.release])).toEqual([[['D12.6', 'K51.40'], 'FY2023 + April 2025 addenda']]);
  expect(on('2025-10-01', ['D12.6', 'K51.40']).findings).toEqual([]);
  expect(on('2025-09-30', ['E11.9', 'E11.A']).findings).toEqual([]);
  const added = on('2025-10-01', ['E11.9', 'E11.A']).findings;
  expect(added.map((f) => f.codes)).toEqual([['E11.9', 'E11.A']]);
  expect(added[0]?.message).toContain('type 2 diabetes mellitus, without complications in remission (E11.A)');
});

test('reads notes of a section above sub-sections, places a category added since, and qualifies a list of codes', () => {
  const on = (date: string, dx: string[]): string[][] =>
    validateClaim(ref, claimOf({ dateOfServiceFrom: date }, dx, ['99213']), { checks: ['dx.excludes1'] }).findings.map((f) => f.codes);
  // Section V00-V99 holds only sub-sections (V40-V49...): its Excludes1 names Y32 and X82.
  expect(on('2026-05-15', ['V43.52XA', 'Y32.XXXA'])).toEqual([['V43.52XA', 'Y32.XXXA']]);
  // W44 (FY2024) is not in the FY2023 XML: placed in section W20-W49 by its range, whose notes name Y36.
  expect(on('2026-05-15', ['W44.A9XA', 'Y36.200A'])).toEqual([['W44.A9XA', 'Y36.200A']]);
  // E87.0's FY2024 note names "E08, E09, E11, E13 with final characters .00 or .01": E11.00, never E11.9.
  expect(on('2023-10-01', ['E87.0', 'E11.00'])).toEqual([['E87.0', 'E11.00']]);
  expect(on('2023-10-01', ['E87.0', 'E13.00'])).toEqual([['E87.0', 'E13.00']]);
  expect(on('2023-10-01', ['E87.0', 'E11.9'])).toEqual([]);
});

test('applies every Excludes1 change of the addenda to a note the Tabular XML or an earlier addendum has', () => {
  const index = ref.tabular.noteIndex('excludes1', '2026-05-15');
  // 339 changes in six addenda (April 2023 to FY2026), each deletion matched to the note it takes out.
  expect(index?.addenda).toEqual({ applied: 339, unmatched: [] });
  expect(index?.byOwner.get('diag:D126') ?? []).toEqual([]);
  expect(ref.tabular.noteIndex('excludes1', '2022-10-01')?.addenda).toBeUndefined();
});
