import { afterAll, beforeAll, expect, test } from 'vitest';
import type { Reference } from '../../../src/reference/index.js';
import { runRule } from '../../helpers/mce.js';
import { openSharedReference } from '../../helpers/reference-db.js';

let ref: Reference;
beforeAll(async () => {
  ref = await openSharedReference();
});
afterAll(() => ref.close());

// v43.1 edit 19 list: 5A1955Z (respiratory ventilation, greater than 96 consecutive hours).
const stay = (from: string, to: string | undefined): { dateOfServiceFrom: string; dateOfServiceTo?: string } =>
  to === undefined ? { dateOfServiceFrom: from } : { dateOfServiceFrom: from, dateOfServiceTo: to };

test('flags ventilation over 96 hours on a stay of under 4 days, naming the length of stay', () => {
  const r = runRule(ref, 'mce.procedure-los', ['J96.00'], ['0BH17EZ', '5A1955Z'], stay('2026-05-01', '2026-05-04'));
  expect(r.findings).toEqual([
    expect.objectContaining({
      code: 'MCE_PROCEDURE_LOS',
      severity: 'error',
      lines: [2],
      codes: ['5A1955Z'],
      source: { dataset: 'mce', release: 'v43.1' },
    }),
  ]);
  expect(r.findings[0]?.message).toMatch(/length of stay of 3 days \(2026-05-01 to 2026-05-04; MCE edit 19\)/);
  expect(runRule(ref, 'mce.procedure-los', ['J96.00'], ['5a1955z'], stay('2026-05-04', '2026-05-04')).findings).toHaveLength(1);
});

test('passes a stay of 4 days or more, other ventilation codes and outpatient bills', () => {
  expect(runRule(ref, 'mce.procedure-los', ['J96.00'], ['5A1955Z'], stay('2026-05-01', '2026-05-05')).findings).toEqual([]);
  expect(runRule(ref, 'mce.procedure-los', ['J96.00'], ['5A1945Z'], stay('2026-05-01', '2026-05-02')).findings).toEqual([]);
  const outpatient = { ...stay('2026-05-01', '2026-05-02'), billType: '131' };
  expect(runRule(ref, 'mce.procedure-los', ['J96.00'], ['5A1955Z'], outpatient)).toMatchObject({ findings: [], notChecked: [] });
});

test('lists the line as not checked when the claim gives no discharge date', () => {
  const r = runRule(ref, 'mce.procedure-los', ['J96.00'], ['5A1955Z'], stay('2026-05-15', undefined));
  expect(r.findings).toEqual([]);
  expect(r.notChecked).toEqual([expect.objectContaining({ rule: 'mce.procedure-los', lines: [1], missing: 'discharge date (dateOfServiceTo)' })]);
});
