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
  // The MCE's admission edits are written for inpatient claims: 111 hospital inpatient (11 without its frequency, 11Q
  // a reopening), 181 swing bed, 211 SNF inpatient. Inpatient Part B (121, 221), outpatient 131, other Part B 141,
  // clinic 721 and ASC 831 bills go through the outpatient edits.
  for (const billType of ['111', '11', '11Q', '181', '211']) {
    expect(
      run(['B95.0', 'J02.0'], { billType }).findings.map((f) => f.code),
      billType,
    ).toEqual(['MCE_UNACCEPTABLE_PDX']);
  }
  for (const billType of ['121', '131', '141', '221', '721', '831']) {
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
