import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Reference } from '../../../src/reference/index.js';
import { runRule } from '../../helpers/mce.js';
import { openSharedReference } from '../../helpers/reference-db.js';

let ref: Reference;
beforeAll(async () => {
  ref = await openSharedReference();
});
afterAll(() => ref.close());

// The derived v37 table (FY2020) has the sex lists: C61 and N40.1 on 5C male diagnoses, O80 on 5A female diagnoses,
// 0UT90ZZ (resection of uterus) on 5B female procedures, 0VT00ZZ (resection of prostate) on 5D male procedures.
const FY2020 = '2020-05-15';

test('reports nothing in v43.1, whose definitions deactivate the sex-conflict edit since 2024-10-01', () => {
  const r = runRule(ref, 'mce.sex-conflict', ['C61'], ['0UT90ZZ'], { patient: { sex: 'F' } });
  expect(r.findings).toEqual([]);
  expect(r.notChecked).toEqual([]);
});

test('flags a male-only diagnosis on a female patient from the derived v37 lists, marked derived', () => {
  const r = runRule(ref, 'mce.sex-conflict', ['C61'], [], { dateOfServiceFrom: FY2020, patient: { sex: 'F' } });
  expect(r.findings).toEqual([
    expect.objectContaining({
      code: 'MCE_SEX_CONFLICT',
      codes: ['C61'],
      source: { dataset: 'mce-v37-derived', release: 'v37', derived: true },
    }),
  ]);
  expect(r.findings[0]?.message).toMatch(/male-only list, but the patient is female/);
});

test('flags an ICD-10-PCS procedure of the other sex on its line', () => {
  const r = runRule(ref, 'mce.sex-conflict', ['O80'], ['0VT00ZZ', '0UT90ZZ'], {
    dateOfServiceFrom: FY2020,
    patient: { sex: 'F' },
  });
  expect(r.findings).toEqual([expect.objectContaining({ codes: ['0VT00ZZ'], lines: [1] })]);
});

test('accepts codes of the patient’s own sex', () => {
  const r = runRule(ref, 'mce.sex-conflict', ['N40.1'], ['0VT00ZZ'], {
    dateOfServiceFrom: FY2020,
    patient: { sex: 'M' },
  });
  expect(r.findings).toEqual([]);
});

test('lists the check as not checked, naming the patient sex, when a listed code meets a claim without sex', () => {
  const r = runRule(ref, 'mce.sex-conflict', ['O80'], [], { dateOfServiceFrom: FY2020, patient: { sex: 'U' } });
  expect(r.findings).toEqual([]);
  expect(r.notChecked).toEqual([expect.objectContaining({ rule: 'mce.sex-conflict', missing: 'patient sex' })]);
});

test('names the MCE version that would apply on a date no loaded version covers', () => {
  // 2021-01-10 is in FY2021 before its April update: v38.0.
  const r = runRule(ref, 'mce.sex-conflict', ['C61'], [], { dateOfServiceFrom: '2021-01-10', patient: { sex: 'F' } });
  expect(r.notChecked.map((n) => n.missing)).toEqual(['MCE v38.0 definitions']);
});

test('reports nothing, and nothing as not checked, after the 2024-10-01 deactivation when no loaded version covers the date', () => {
  // 2026-02-15 is v43.0, not loaded; the edit has been off since v42 whatever that version's tables would say.
  const r = runRule(ref, 'mce.sex-conflict', ['C61'], [], { dateOfServiceFrom: '2026-02-15', patient: { sex: 'F' } });
  expect(r.findings).toEqual([]);
  expect(r.notChecked).toEqual([]);
  // Other MCE edits still say which version would apply.
  const age = runRule(ref, 'mce.age-conflict', ['C61'], [], { dateOfServiceFrom: '2026-02-15', patient: { sex: 'F', age: 70 } });
  expect(age.notChecked.map((n) => n.missing)).toEqual(['MCE v43.0 definitions']);
});
