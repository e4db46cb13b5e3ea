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
  runRule(ref, 'mce.e-code-as-pdx', dx, [], fields);

// Edit 2 has no list: any ICD-10-CM code of chapter 20 (V00-Y99) as principal. W01.0XXA (fall on same level from
// slipping, initial encounter) and S52.501A (fracture of right radius) are valid FY2026 codes.
test('flags an external-cause code reported as principal', () => {
  const r = run(['W01.0XXA', 'S52.501A']);
  expect(r.findings).toEqual([
    expect.objectContaining({
      code: 'MCE_E_CODE_AS_PDX',
      codes: ['W01.0XXA'],
      lines: [],
      source: { dataset: 'mce', release: 'v43.1' },
    }),
  ]);
  expect(r.findings[0]?.fix).toMatch(/injury .* as principal/);
});

test('accepts the external-cause code as a secondary diagnosis', () => {
  expect(run(['S52.501A', 'W01.0XXA']).findings).toEqual([]);
});

test('does not apply to professional claims', () => {
  expect(run(['W01.0XXA'], { claimType: 'professional' }).findings).toEqual([]);
});

test('names the MCE version that would apply on a date no loaded version covers', () => {
  const r = run(['W01.0XXA'], { dateOfServiceFrom: '2026-02-01' });
  expect(r.notChecked.map((n) => n.missing)).toEqual(['MCE v43.0 definitions']);
});
