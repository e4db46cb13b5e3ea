import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Reference } from '../../../src/reference/index.js';
import { runRule } from '../../helpers/mce.js';
import { openSharedReference } from '../../helpers/reference-db.js';

let ref: Reference;
beforeAll(async () => {
  ref = await openSharedReference();
});
afterAll(() => ref.close());

const run = (dx: string[], fields = {}): ReturnType<typeof runRule> =>
  runRule(ref, 'mce.manifestation-as-pdx', dx, [], fields);

// D63.1 (anemia in chronic kidney disease) is on the v43.1 edit 6 list; N18.4 is its etiology.
test('flags a manifestation code reported as principal, with the etiology-first fix', () => {
  const r = run(['D63.1', 'N18.4']);
  expect(r.findings).toEqual([
    expect.objectContaining({
      code: 'MCE_MANIFESTATION_AS_PDX',
      severity: 'error',
      codes: ['D63.1'],
      source: { dataset: 'mce', release: 'v43.1' },
    }),
  ]);
  expect(r.findings[0]?.fix).toMatch(/etiology .* code first/);
});

test('accepts the manifestation code as a secondary diagnosis (the list applies to the principal only)', () => {
  expect(run(['N18.4', 'D63.1']).findings).toEqual([]);
});

test('does not apply to professional claims', () => {
  expect(run(['D63.1'], { claimType: 'professional' }).findings).toEqual([]);
});

test('names the MCE version that would apply on a date no loaded version covers', () => {
  // 2026-10-15 opens FY2027: v44.0.
  const r = run(['D63.1'], { dateOfServiceFrom: '2026-10-15' });
  expect(r.findings).toEqual([]);
  expect(r.notChecked.map((n) => n.missing)).toEqual(['MCE v44.0 definitions']);
});

test('picks the version by the discharge date of an institutional claim', () => {
  // Admitted in v43.1 (2026-09-28), discharged in FY2027 (v44.0, not loaded).
  const r = run(['D63.1'], { dateOfServiceFrom: '2026-09-28', dateOfServiceTo: '2026-10-02' });
  expect(r.notChecked.map((n) => n.missing)).toEqual(['MCE v44.0 definitions']);
});
