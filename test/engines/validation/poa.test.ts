import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Reference } from '../../../src/reference/index.js';
import { runRule } from '../../helpers/mce.js';
import { openSharedReference } from '../../helpers/reference-db.js';

let ref: Reference;
beforeAll(async () => {
  ref = await openSharedReference();
});
afterAll(() => ref.close());

const run = (dx: { code: string; poa?: 'Y' | 'N' | 'U' | 'W' | '1' }[], fields = {}): ReturnType<typeof runRule> =>
  runRule(ref, 'poa', [], [], { diagnoses: dx, ...fields });

// The FY2026 POA exempt list (in force from 2025-10-01): Z37.0 and Z87.891 are on it; J18.9 and I10 are not.
test('accepts reported indicators on non-exempt codes and blank ones on exempt codes', () => {
  const r = run([
    { code: 'J18.9', poa: 'Y' },
    { code: 'I10', poa: 'W' },
    { code: 'Z87.891' },
    { code: 'Z37.0', poa: '1' },
  ]);
  expect(r.findings).toEqual([]);
  expect(r.notChecked).toEqual([]);
});

test('warns on an exempt code reported with Y/N/U/W, naming the exempt list release', () => {
  const r = run([
    { code: 'J18.9', poa: 'Y' },
    { code: 'Z87.891', poa: 'N' },
  ]);
  expect(r.findings).toEqual([
    expect.objectContaining({
      rule: 'poa',
      code: 'POA_EXEMPT_REPORTED',
      severity: 'warning',
      codes: ['Z87.891'],
      source: { dataset: 'icd10cm-poa-exempt', release: 'FY2026' },
    }),
  ]);
});

test('warns on a non-exempt code without an indicator or with the exempt value 1', () => {
  const r = run([{ code: 'J18.9' }, { code: 'I10', poa: '1' }]);
  expect(r.findings.map((f) => [f.code, f.codes[0]])).toEqual([
    ['POA_MISSING', 'J18.9'],
    ['POA_MISSING', 'I10'],
  ]);
});

test('does not apply to professional claims', () => {
  expect(run([{ code: 'J18.9' }], { claimType: 'professional' }).findings).toEqual([]);
});

test('lists the check as not checked on a date no loaded POA exempt list covers', () => {
  const r = run([{ code: 'J18.9' }], { dateOfServiceFrom: '2023-05-15' });
  expect(r.findings).toEqual([]);
  expect(r.notChecked.map((n) => n.missing)).toEqual(['ICD-10-CM POA exempt list FY2023']);
});

test("lists the check as not checked after the newest list's fiscal year: the FY2026 list says nothing of FY2027", () => {
  expect(run([{ code: 'J18.9' }], { dateOfServiceFrom: '2026-09-30' }).findings).toMatchObject([
    { code: 'POA_MISSING' },
  ]);
  const r = run([{ code: 'J18.9' }], { dateOfServiceFrom: '2026-10-01' });
  expect(r.findings).toEqual([]);
  expect(r.notChecked.map((n) => n.missing)).toEqual(['ICD-10-CM POA exempt list FY2027']);
});
