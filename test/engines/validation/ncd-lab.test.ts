// Lab NCD expectations read from the real January 2026 spreadsheet (table ncd_lab_icd10 of the built database):
// 83036 (HbA1c) is listed by NCD 190.21 (the spreadsheet's code list 190.21B); under it E11.9 has resolution 1 (covered), Z00.00 resolution 2 (denied),
// J06.9 is not listed (the NCD's @@@@@@@ row: resolution 3). 85025 (CBC) is under NCD 190.15, which lists A18.59 with
// resolution 3 (does not support medical necessity). The spreadsheet's release answers for 2026Q1 only.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { validateClaim } from '../../../src/engines/validation/index.js';
import type { Reference } from '../../../src/reference/index.js';
import type { ClaimLine } from '../../../src/schemas/claim.js';
import { claimOf } from '../../helpers/claims.js';
import { openSharedReference } from '../../helpers/reference-db.js';

let ref: Reference;
beforeAll(async () => {
  ref = await openSharedReference();
});
afterAll(() => ref.close());

const run = (
  dx: string[],
  line: string | (Partial<ClaimLine> & { procedureCode: string }),
  date = '2026-02-15',
): ReturnType<typeof validateClaim> =>
  validateClaim(ref, claimOf({ dateOfServiceFrom: date }, dx, [line]), { checks: ['ncd.lab'] });

test('a covered diagnosis supports the test and says under which NCD', () => {
  const r = run(['E11.9'], '83036');
  expect(r.findings).toMatchObject([
    {
      code: 'NCD_SUPPORTED',
      severity: 'info',
      codes: ['83036', 'E11.9'],
      source: { dataset: 'ncd-lab', release: '2026Q1', policyId: 'NCD 190.21' },
    },
  ]);
  // The label is the NCD number CMS publishes; the spreadsheet's code list (190.21B) is named in the message.
  expect(r.findings[0]?.message).toBe(
    'E11.9 supports 83036 under NCD 190.21 (Glycated Hemoglobin/Glycated Protein, code list 190.21B).',
  );
});

test('a denied diagnosis alone is an error', () => {
  const r = run(['Z00.00'], '83036');
  expect(r.findings).toMatchObject([{ code: 'NCD_DENIED', severity: 'error', codes: ['83036', 'Z00.00'] }]);
  expect(r.findings[0]?.fix).toMatch(/ABN/);
});

test('a diagnosis the NCD does not list is "not listed as covered"', () => {
  const r = run(['J06.9'], '83036');
  expect(r.findings).toMatchObject([{ code: 'NCD_NOT_LISTED', severity: 'error' }]);
  expect(r.findings[0]?.message).toMatch(/not listed as covered/);
});

test('a listed diagnosis that does not support medical necessity is an error', () => {
  const r = run(['A18.59'], '85025');
  expect(r.findings).toMatchObject([
    { code: 'NCD_NOT_SUPPORTING', severity: 'error', source: { policyId: 'NCD 190.15' } },
  ]);
});

test('one supporting diagnosis makes the line necessary: the others are reported as info naming it', () => {
  const r = run(['Z00.00', 'E11.9'], '83036');
  expect(r.findings.map((f) => [f.code, f.severity])).toEqual([
    ['NCD_DENIED', 'info'],
    ['NCD_SUPPORTED', 'info'],
  ]);
  expect(r.findings[0]?.message).toMatch(/supported by E11\.9/);
});

test('only the diagnoses the line points to count', () => {
  const r = run(['Z00.00', 'E11.9'], { procedureCode: '83036', diagnosisPointers: [1] });
  expect(r.findings).toMatchObject([{ code: 'NCD_DENIED', severity: 'error', codes: ['83036', 'Z00.00'] }]);
});

test('a procedure no lab NCD lists gets no finding', () => {
  const r = run(['Z00.00'], '99213');
  expect(r.findings).toEqual([]);
  expect(r.notChecked).toEqual([]);
});

test('a date before the loaded spreadsheet takes effect is not checked, never passed', () => {
  const r = run(['E11.9'], '83036', '2025-12-31');
  expect(r.findings).toEqual([]);
  expect(r.notChecked).toMatchObject([{ rule: 'ncd.lab', lines: [1], missing: 'ncd-lab for 2025-12-31' }]);
});

test("a date after the loaded spreadsheet's quarter is not checked either: the April 2026 list is not loaded", () => {
  expect(run(['E11.9'], '83036', '2026-03-31').findings).toMatchObject([{ code: 'NCD_SUPPORTED' }]);
  for (const date of ['2026-04-01', '2035-06-01']) {
    const r = run(['E11.9'], '83036', date);
    expect(r.findings).toEqual([]);
    expect(r.notChecked).toMatchObject([{ rule: 'ncd.lab', lines: [1], missing: `ncd-lab for ${date}` }]);
  }
});

test('an ICD-10-PCS inpatient procedure on a line is no lab test: no list is read for it, so none is missing', () => {
  const r = run(['E11.9'], '0BH17EZ', '2026-04-01');
  expect(r.findings).toEqual([]);
  expect(r.notChecked).toEqual([]);
});

test('a diagnosis that is not a valid code on the date supports nothing, not even through the "all other codes" row', () => {
  // NCD 190.15 (85032) covers every code it does not list (its @@@@@@@ row, resolution 1): E11.9 supports the test.
  expect(run(['E11.9'], '85032').findings.map((f) => f.code)).toEqual(['NCD_SUPPORTED']);
  // A deleted code (S30.1XXA), a header (E11) and a malformed one do not; the line is then supported by none.
  for (const bad of ['S30.1XXA', 'E11', 'W21.89A']) {
    const r = run([bad], '85032');
    expect(r.findings).toMatchObject([{ code: 'NCD_NOT_LISTED', severity: 'error', codes: ['85032'] }]);
    expect(r.findings[0]?.message).toMatch(/none of the line's diagnoses is a valid ICD-10-CM code on 2026-02-15/);
  }
  // Beside a valid supporting code, an invalid one is left to the code validity check.
  expect(run(['E11', 'E11.9'], '85032').findings.map((f) => [f.code, f.codes])).toEqual([
    ['NCD_SUPPORTED', ['85032', 'E11.9']],
  ]);
});
