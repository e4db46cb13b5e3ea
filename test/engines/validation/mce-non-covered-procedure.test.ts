import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Reference } from '../../../src/reference/index.js';
import { runRule } from '../../helpers/mce.js';
import { openSharedReference } from '../../helpers/reference-db.js';

let ref: Reference;
beforeAll(async () => {
  ref = await openSharedReference();
});
afterAll(() => ref.close());

const run = (dx: string[], lines: string[], fields = {}): ReturnType<typeof runRule> =>
  runRule(ref, 'mce.non-covered-procedure', dx, lines, fields);
const flagged = (r: ReturnType<typeof runRule>): string[] => r.findings.map((f) => f.codes[0] ?? '');

// v43.1 edit 11 lists, each with its condition.
test('11A: flags an always non-covered procedure on its line', () => {
  const r = run(['I61.9'], ['00F3XZZ']);
  expect(r.findings).toEqual([
    expect.objectContaining({ code: 'MCE_NON_COVERED', lines: [1], source: { dataset: 'mce', release: 'v43.1' } }),
  ]);
  expect(r.findings[0]?.message).toMatch(/11A/);
});

test('11B: a pancreas transplant alone is non-covered unless a listed diagnosis or a kidney transplant comes with it', () => {
  expect(flagged(run(['K86.1'], ['0FYG0Z0']))).toEqual(['0FYG0Z0']);
  expect(flagged(run(['K86.1', 'E10.9'], ['0FYG0Z0']))).toEqual([]);
  expect(flagged(run(['N18.6'], ['0FYG0Z0', '0TY00Z0']))).toEqual([]);
});

test('11D: a stem cell transfusion is non-covered only with a listed leukemia diagnosis, principal or secondary', () => {
  expect(flagged(run(['D61.9'], ['30233Y0']))).toEqual([]);
  expect(flagged(run(['D61.9', 'C91.00'], ['30233Y0']))).toEqual(['30233Y0']);
});

test('11F: a lumbar disc replacement is non-covered over age 60, and not checked without an age', () => {
  expect(flagged(run(['M51.36'], ['0SR20JZ'], { patient: { age: 61 } }))).toEqual(['0SR20JZ']);
  expect(flagged(run(['M51.36'], ['0SR20JZ'], { patient: { age: 60 } }))).toEqual([]);
  const r = run(['M51.36'], ['0SR20JZ']);
  expect(r.notChecked).toEqual([expect.objectContaining({ lines: [1], missing: 'patient age' })]);
});

test('11G: a tubal sterilization is non-covered when Z30.2 is principal or secondary', () => {
  expect(flagged(run(['Z30.2'], ['0UL70ZZ']))).toEqual(['0UL70ZZ']);
  expect(flagged(run(['O80', 'Z30.2'], ['0UL70ZZ']))).toEqual(['0UL70ZZ']);
  expect(flagged(run(['N83.20'], ['0UL70ZZ']))).toEqual([]);
});

test('does not apply to professional claims', () => {
  expect(run(['I61.9'], ['00F3XZZ'], { claimType: 'professional' }).findings).toEqual([]);
});

test('names the MCE version that would apply on a date no loaded version covers', () => {
  expect(run(['I61.9'], ['00F3XZZ'], { dateOfServiceFrom: '2025-05-15' }).notChecked.map((n) => n.missing)).toEqual([
    'MCE v42.1 definitions',
  ]);
});
