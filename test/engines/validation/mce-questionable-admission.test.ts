import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Reference } from '../../../src/reference/index.js';
import { runRule } from '../../helpers/mce.js';
import { openSharedReference } from '../../helpers/reference-db.js';

let ref: Reference;
beforeAll(async () => {
  ref = await openSharedReference();
});
afterAll(() => ref.close());

const run = (dx: string[], lines: string[] = [], fields = {}): ReturnType<typeof runRule> =>
  runRule(ref, 'mce.questionable-admission', dx, lines, fields);

// v43.1 edit 8A list (principal only): I10, R03.0. 8B1 cesarean 10D00Z1, 8B2 vaginal 10E0XZZ, 8B3 outcome Z37.0.
test('flags a questionable-admission code as principal (8A), as a warning', () => {
  const r = run(['I10']);
  expect(r.findings).toEqual([
    expect.objectContaining({
      code: 'MCE_QUESTIONABLE_ADMISSION',
      severity: 'warning',
      codes: ['I10'],
      source: { dataset: 'mce', release: 'v43.1' },
    }),
  ]);
});

test('accepts the same code as a secondary diagnosis', () => {
  expect(run(['I50.9', 'I10']).findings).toEqual([]);
});

test('flags a delivery procedure without an outcome-of-delivery secondary diagnosis (8B) on its line', () => {
  const r = run(['O80'], ['10E0XZZ']);
  expect(r.findings).toEqual([expect.objectContaining({ codes: ['10E0XZZ'], lines: [1] })]);
  expect(r.findings[0]?.fix).toMatch(/Z37/);
});

test('accepts a cesarean or vaginal delivery with Z37.0 as a secondary diagnosis', () => {
  expect(run(['O80', 'Z37.0'], ['10E0XZZ']).findings).toEqual([]);
  expect(run(['O82', 'Z37.0'], ['10D00Z1']).findings).toEqual([]);
});

test('does not count an outcome code in principal position', () => {
  expect(run(['Z37.0'], ['10D00Z1']).findings.map((f) => f.codes[0])).toEqual(['10D00Z1']);
});

test('names the MCE version that would apply on a date no loaded version covers', () => {
  expect(run(['I10'], [], { dateOfServiceFrom: '2025-05-15' }).notChecked.map((n) => n.missing)).toEqual([
    'MCE v42.1 definitions',
  ]);
});
