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
  runRule(ref, 'mce.unspecified-code', dx, [], fields);

// v43.1 edit 20 list: H20.019 (primary iridocyclitis, unspecified eye); H20.011 (right eye) is not on it.
test('flags an unspecified-laterality diagnosis in any position, as a warning', () => {
  const r = run(['I50.9', 'H20.019']);
  expect(r.findings).toEqual([
    expect.objectContaining({
      code: 'MCE_UNSPECIFIED_CODE',
      severity: 'warning',
      codes: ['H20.019'],
      source: { dataset: 'mce', release: 'v43.1' },
    }),
  ]);
  expect(run(['H20.019']).findings).toHaveLength(1);
});

test('accepts the code for the side', () => {
  expect(run(['H20.011']).findings).toEqual([]);
});

test('does not apply to professional claims', () => {
  expect(run(['H20.019'], { claimType: 'professional' }).findings).toEqual([]);
});

test('names the MCE version that would apply on a date no loaded version covers', () => {
  expect(run(['H20.019'], { dateOfServiceFrom: '2025-05-15' }).notChecked.map((n) => n.missing)).toEqual([
    'MCE v42.1 definitions',
  ]);
});
