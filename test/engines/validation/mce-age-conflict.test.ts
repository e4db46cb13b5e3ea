import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Reference } from '../../../src/reference/index.js';
import { runRule } from '../../helpers/mce.js';
import { openSharedReference } from '../../helpers/reference-db.js';

let ref: Reference;
beforeAll(async () => {
  ref = await openSharedReference();
});
afterAll(() => ref.close());

const run = (
  dx: string[],
  patient: { age?: number; birthDate?: string } | undefined,
  fields: Record<string, unknown> = {},
): ReturnType<typeof runRule> =>
  runRule(ref, 'mce.age-conflict', dx, ['99213'], {
    claimType: 'professional',
    ...(patient ? { patient } : {}),
    ...fields,
  });

// v43.1 lists: Z00.110 on 4A newborn (age 0), A48.51 on 4B pediatric (0-17), O80 on 4C maternity (9-64), N40.1 on 4D
// adult (15-124).
test('flags a newborn diagnosis on a 30-year-old, with its list and the v43.1 source', () => {
  const r = run(['Z00.110'], { age: 30 });
  expect(r.findings).toEqual([
    expect.objectContaining({
      rule: 'mce.age-conflict',
      code: 'MCE_AGE_CONFLICT',
      severity: 'error',
      codes: ['Z00.110'],
      lines: [1],
      source: { dataset: 'mce', release: 'v43.1' },
    }),
  ]);
  expect(r.findings[0]?.message).toMatch(/newborn list \(age 0\).*patient is 30/);
  expect(r.findings[0]?.fix).toBeDefined();
});

test('reads the v43.1 maternity range 9-64: 64 passes, 65 and 8 fail', () => {
  expect(run(['O80'], { age: 64 }).findings).toEqual([]);
  expect(run(['O80'], { age: 9 }).findings).toEqual([]);
  expect(run(['O80'], { age: 65 }).findings.map((f) => f.code)).toEqual(['MCE_AGE_CONFLICT']);
  expect(run(['O80'], { age: 8 }).findings[0]?.message).toMatch(/maternity list \(ages 9-64\)/);
});

test('checks secondary diagnoses as well as the principal (the edit reads any diagnosis)', () => {
  const r = run(['I10', 'A48.51', 'N40.1'], { age: 12 });
  expect(r.findings.map((f) => f.codes[0])).toEqual(['N40.1']);
});

test('takes the age on the date of service from the birth date, which wins over a stated age', () => {
  // 14 on 2026-05-15 (15th birthday on 2026-05-16): pediatric A48.51 fits, adult N40.1 (15-124) does not yet; the
  // stated age 40 would have flagged A48.51 instead.
  const r = run(['A48.51', 'N40.1'], { birthDate: '2011-05-16', age: 40 });
  expect(r.findings.map((f) => f.codes[0])).toEqual(['N40.1']);
});

test('runs on professional and institutional claims alike', () => {
  expect(runRule(ref, 'mce.age-conflict', ['O80'], [], { patient: { age: 70 } }).findings).toHaveLength(1);
});

test('lists the check as not checked, naming the patient age, when a listed code meets a claim without age', () => {
  const r = run(['O80'], undefined);
  expect(r.findings).toEqual([]);
  expect(r.notChecked).toEqual([expect.objectContaining({ rule: 'mce.age-conflict', missing: 'patient age' })]);
});

test('needs no age when no diagnosis is on an age list', () => {
  const r = run(['I10'], undefined);
  expect(r.findings).toEqual([]);
  expect(r.notChecked).toEqual([]);
});

test('names the MCE version that would apply on a date no loaded version covers', () => {
  // 2025-05-15 is in FY2025 after its April update: v42.1, not loaded.
  const r = run(['O80'], { age: 70 }, { dateOfServiceFrom: '2025-05-15' });
  expect(r.findings).toEqual([]);
  expect(r.notChecked).toHaveLength(1);
  expect(r.notChecked[0]?.missing).toBe('MCE v42.1 definitions');
});

test('on a FY2020 date reads the derived v37 table, says so, and leaves its rangeless maternity list not checked', () => {
  const newborn = run(['Z00.110'], { age: 30 }, { dateOfServiceFrom: '2020-05-15' });
  expect(newborn.findings[0]?.source).toEqual({ dataset: 'mce-v37-derived', release: 'v37', derived: true });
  const maternity = run(['O80'], { age: 70 }, { dateOfServiceFrom: '2020-05-15' });
  expect(maternity.findings).toEqual([]);
  expect(maternity.notChecked[0]?.missing).toBe('age range of the MCE v37 age-maternity list');
});
