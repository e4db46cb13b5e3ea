import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Reference } from '../../../src/reference/index.js';
import { runRule } from '../../helpers/mce.js';
import { openSharedReference } from '../../helpers/reference-db.js';

let ref: Reference;
beforeAll(async () => {
  ref = await openSharedReference();
});
afterAll(() => ref.close());

// v43.1 edit 18 list: Y65.51 (wrong procedure on correct patient), Y65.52, Y65.53.
test('flags a wrong-procedure code in any position and names the procedure lines', () => {
  const r = runRule(ref, 'mce.wrong-procedure', ['K35.80', 'Y65.51'], ['0DTJ4ZZ', '99213']);
  expect(r.findings).toEqual([
    expect.objectContaining({
      code: 'MCE_WRONG_PROCEDURE',
      codes: ['Y65.51'],
      lines: [1],
      source: { dataset: 'mce', release: 'v43.1' },
    }),
  ]);
});

test('reports nothing without a listed code, or on a professional claim', () => {
  expect(runRule(ref, 'mce.wrong-procedure', ['K35.80'], ['0DTJ4ZZ']).findings).toEqual([]);
  expect(runRule(ref, 'mce.wrong-procedure', ['Y65.51'], [], { claimType: 'professional' }).findings).toEqual([]);
});

test('names the MCE version that would apply on a date no loaded version covers', () => {
  const r = runRule(ref, 'mce.wrong-procedure', ['Y65.51'], [], { dateOfServiceFrom: '2025-05-15' });
  expect(r.notChecked.map((n) => n.missing)).toEqual(['MCE v42.1 definitions']);
});
