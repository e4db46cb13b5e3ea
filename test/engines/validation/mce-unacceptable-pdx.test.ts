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
  runRule(ref, 'mce.unacceptable-pdx', dx, [], fields);

// v43.1 edit 9 list: B95.0 (streptococcus group A as the cause of diseases classified elsewhere) and Z37.0 (single
// live birth); Z51.89 is the asterisked code, acceptable with a secondary diagnosis (mce.requires-sdx).
test('flags a code of the unacceptable-principal-diagnosis list reported as principal', () => {
  const r = run(['B95.0', 'J02.0']);
  expect(r.findings).toEqual([
    expect.objectContaining({
      code: 'MCE_UNACCEPTABLE_PDX',
      codes: ['B95.0'],
      source: { dataset: 'mce', release: 'v43.1' },
    }),
  ]);
  expect(r.findings[0]?.fix).toMatch(/principal diagnosis/);
});

test('runs on inpatient bills and institutional claims without a type of bill, not on outpatient bills', () => {
  // The MCE's admission edits are written for inpatient claims: 111 hospital inpatient, 181 swing bed, 211 SNF
  // inpatient; 131 hospital outpatient, 141 other Part B, 721 clinic and 831 ASC bills are not edited.
  for (const billType of ['111', '121', '181', '211']) {
    expect(
      run(['B95.0', 'J02.0'], { billType }).findings.map((f) => f.code),
      billType,
    ).toEqual(['MCE_UNACCEPTABLE_PDX']);
  }
  for (const billType of ['131', '141', '721', '831']) {
    expect(run(['B95.0', 'J02.0'], { billType }), billType).toEqual(
      expect.objectContaining({ findings: [], notChecked: [] }),
    );
  }
});

test('accepts the same code as a secondary diagnosis', () => {
  expect(run(['J02.0', 'B95.0']).findings).toEqual([]);
});

test('leaves the asterisked Z51.89 to the requires-secondary-diagnosis rule', () => {
  expect(run(['Z51.89']).findings).toEqual([]);
  expect(run(['Z51.89', 'C50.911']).findings).toEqual([]);
});

test('names the MCE version that would apply on a date no loaded version covers', () => {
  expect(run(['Z37.0'], { dateOfServiceFrom: '2024-12-01' }).notChecked.map((n) => n.missing)).toEqual([
    'MCE v42.0 definitions',
  ]);
});
