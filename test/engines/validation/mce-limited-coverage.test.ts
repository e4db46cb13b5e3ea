import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Reference } from '../../../src/reference/index.js';
import { runRule } from '../../helpers/mce.js';
import { openSharedReference } from '../../helpers/reference-db.js';

let ref: Reference;
beforeAll(async () => {
  ref = await openSharedReference();
});
afterAll(() => ref.close());

// v43.1 edit 17A list: 02YA0Z0 (heart transplant, allogeneic).
test('flags a limited-coverage procedure on its line, as a warning', () => {
  const r = runRule(ref, 'mce.limited-coverage', ['I42.0'], ['02YA0Z0']);
  expect(r.findings).toEqual([
    expect.objectContaining({
      code: 'MCE_LIMITED_COVERAGE',
      severity: 'warning',
      lines: [1],
      codes: ['02YA0Z0'],
      source: { dataset: 'mce', release: 'v43.1' },
    }),
  ]);
});

test('ignores procedures not on the list and professional claims', () => {
  expect(runRule(ref, 'mce.limited-coverage', ['I42.0'], ['00F3XZZ']).findings).toEqual([]);
  expect(runRule(ref, 'mce.limited-coverage', ['I42.0'], ['02YA0Z0'], { claimType: 'professional' }).findings).toEqual(
    [],
  );
});

test('names the MCE version that would apply on a date no loaded version covers', () => {
  const r = runRule(ref, 'mce.limited-coverage', ['I42.0'], ['02YA0Z0'], { dateOfServiceFrom: '2025-05-15' });
  expect(r.notChecked.map((n) => n.missing)).toEqual(['MCE v42.1 definitions']);
});
