import { afterAll, beforeAll, expect, test } from 'vitest';
import { validateClaim } from '../../../src/engines/validation/index.js';
import type { Reference } from '../../../src/reference/index.js';
import { claimOf } from '../../helpers/claims.js';
import { openSharedReference } from '../../helpers/reference-db.js';

let ref: Reference;
beforeAll(async () => {
  ref = await openSharedReference();
});
afterAll(() => ref.close());

const run = (dx: string[], lines: string[], date = '2026-05-15'): ReturnType<typeof validateClaim> =>
  validateClaim(ref, claimOf({ dateOfServiceFrom: date }, dx, lines), { checks: ['code.validity'] });

test('reports nothing for billable codes valid on the date', () => {
  const r = run(['E11.9', 'I10'], ['99213', 'G0439']);
  expect(r.findings).toEqual([]);
  expect(r.notChecked).toEqual([]);
});

test('flags a header diagnosis with its billable children as the fix', () => {
  const r = run(['E11'], ['99213']);
  expect(r.findings).toHaveLength(1);
  expect(r.findings[0]).toMatchObject({
    rule: 'code.validity',
    code: 'CODE_HEADER',
    severity: 'error',
    codes: ['E11'],
    lines: [1],
    source: { dataset: 'icd10cm-order', release: 'FY2026' },
  });
  expect(r.findings[0]?.fix).toMatch(/E11\.00/);
});

test('flags a 7th-character code written without its placeholder', () => {
  const r = run(['W21.89A'], ['99213']);
  expect(r.findings.map((f) => f.code)).toEqual(['CODE_PLACEHOLDER_MISSING']);
  expect(r.findings[0]?.fix).toContain('W21.89XA');
});

test('flags an ICD-9 code on a service after 2015-09-30 and an ICD-10 code before 2015-10-01', () => {
  const late = validateClaim(ref, claimOf({ icdType: 'ICD-9 CM' }, ['250.00'], ['99213']), {
    checks: ['code.validity'],
  });
  expect(late.findings.map((f) => f.code)).toEqual(['CODE_ICD9_ENDED']);
  const early = validateClaim(ref, claimOf({ dateOfServiceFrom: '2015-06-01', icdType: 'ICD-10 CM' }, ['E11.9'], []), {
    checks: ['code.validity'],
  });
  expect(early.findings.map((f) => f.code)).toEqual(['CODE_ICD10_NOT_YET']);
});

test('flags a diagnosis code on a procedure line as the wrong code set', () => {
  const r = run(['E11.9'], ['E11.9']);
  expect(r.findings).toMatchObject([{ code: 'CODE_WRONG_SET', lines: [1] }]);
});

test('flags an ICD-10-PCS procedure on a claim that is not inpatient as the wrong code set', () => {
  const r = run(['K35.80'], ['0DTJ4ZZ', '99213']);
  expect(r.findings).toMatchObject([{ code: 'CODE_WRONG_SET', lines: [1], codes: ['0DTJ4ZZ'] }]);
  expect(r.findings[0]?.message).toMatch(/ICD-10-PCS code, which only an inpatient claim reports; a professional claim reports procedures in CPT\/HCPCS/);
  const inpatient = (billType?: string): ReturnType<typeof validateClaim> =>
    validateClaim(ref, claimOf({ claimType: 'institutional', billType, dateOfServiceFrom: '2026-05-15', dateOfServiceTo: '2026-05-18' }, ['K35.80'], ['0DTJ4ZZ']), {
      checks: ['code.validity'],
    });
  expect(inpatient('111').findings).toEqual([]);
  expect(inpatient(undefined).findings).toEqual([]);
  expect(inpatient('131').findings).toMatchObject([{ code: 'CODE_WRONG_SET', codes: ['0DTJ4ZZ'] }]);
});

test('flags an unknown HCPCS code and names only the line it is on', () => {
  // G9999 is a quality-measure code in the April 2026 addendum; G0000 is in no loaded HCPCS file or addendum.
  expect(run(['E11.9'], ['99213', 'G9999']).findings).toEqual([]);
  const r = run(['E11.9'], ['99213', 'G0000']);
  const f = r.findings.find((x) => x.codes.includes('G0000'));
  expect(f).toMatchObject({ code: 'CODE_NOT_FOUND', lines: [2] });
});

test('lists a diagnosis as not checked when no ICD-10-CM release covers the date, never as a pass', () => {
  const r = run(['E11.9'], [], '2020-06-01');
  expect(r.findings).toEqual([]);
  expect(r.notChecked).toHaveLength(1);
  expect(r.notChecked[0]).toMatchObject({ rule: 'code.validity', lines: [] });
  expect(r.notChecked[0]?.missing).toMatch(/ICD-10 CM/);
});

test("reads an inpatient claim's ICD-10-PCS procedures on its discharge date, as its diagnoses (domain.md section 8)", () => {
  // X27H385 ended with FY2024 (2024-09-30): a stay from 2024-09-28 to 2024-10-02 is coded with FY2025, where it is
  // deleted, whatever the procedure's own date.
  const stay = (billType: string): ReturnType<typeof validateClaim> =>
    validateClaim(
      ref,
      claimOf(
        { claimType: 'institutional', billType, dateOfServiceFrom: '2024-09-28', dateOfServiceTo: '2024-10-02' },
        ['I10'],
        [{ procedureCode: 'X27H385', dateOfService: '2024-09-28' }, { procedureCode: '99213', dateOfService: '2024-09-28' }],
      ),
      { checks: ['code.validity'] },
    );
  const inpatient = stay('111');
  expect(inpatient.findings.map((f) => [f.code, f.codes])).toEqual([['CODE_DELETED', ['X27H385']]]);
  // An outpatient bill reads each line on its own date: the procedure was valid then (not deleted), though an
  // outpatient bill reports procedures in CPT/HCPCS.
  expect(stay('131').findings.map((f) => [f.code, f.codes])).toEqual([['CODE_WRONG_SET', ['X27H385']]]);
});

test('reads an ICD-9-CM claim\'s diagnoses as ICD-9-CM diagnoses, never as procedures (4019 is 401.9, not 40.19)', () => {
  const claim = claimOf({ icdType: 'ICD-9 CM', dateOfServiceFrom: '2015-05-01' }, ['25000', '4019'], ['99213']);
  const r = validateClaim(ref, claim, { checks: ['code.validity'] });
  expect(r.findings.filter((f) => f.codes.includes('4019') || f.codes.includes('401.9'))).toEqual([]);
  // After ICD-10's start the same codes are ICD-9-CM diagnoses that ended, not ambiguous ones.
  const late = validateClaim(ref, { ...claim, dateOfServiceFrom: '2026-05-04' }, { checks: ['code.validity'] });
  expect(late.findings.map((f) => [f.code, f.codes])).toEqual([
    ['CODE_ICD9_ENDED', ['25000']],
    ['CODE_ICD9_ENDED', ['4019']],
  ]);
});
