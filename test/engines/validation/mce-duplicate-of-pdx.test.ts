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
  runRule(ref, 'mce.duplicate-of-pdx', dx, [], fields);

// Edit 3 has no list: "Whenever a secondary diagnosis is coded the same as the principal diagnosis".
test('flags a secondary diagnosis that repeats the principal, however it is written', () => {
  const r = run(['J18.9', 'I10', 'j189']);
  expect(r.findings).toEqual([
    expect.objectContaining({
      code: 'MCE_DUPLICATE_OF_PDX',
      codes: ['j189'],
      diagnoses: [3],
      source: { dataset: 'mce', release: 'v43.1' },
    }),
  ]);
  expect(r.findings[0]?.message).toMatch(/position 3/);
});

test('does not flag two equal secondary diagnoses (the edit compares with the principal only)', () => {
  expect(run(['J18.9', 'I10', 'I10']).findings).toEqual([]);
});

test('does not apply to professional claims', () => {
  expect(run(['J18.9', 'J18.9'], { claimType: 'professional' }).findings).toEqual([]);
});

test('names the MCE version that would apply on a date no loaded version covers', () => {
  expect(run(['J18.9', 'J18.9'], { dateOfServiceFrom: '2025-05-15' }).notChecked.map((n) => n.missing)).toEqual([
    'MCE v42.1 definitions',
  ]);
});
