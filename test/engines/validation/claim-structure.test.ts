import { afterAll, beforeAll, expect, test } from 'vitest';
import { claimOfCodeValidate, codeValidate, validateClaim } from '../../../src/engines/validation/index.js';
import type { CodeValidate } from '../../../src/schemas/code-validate.js';
import type { Reference } from '../../../src/reference/index.js';
import { claimOf } from '../../helpers/claims.js';
import { openSharedReference } from '../../helpers/reference-db.js';

let ref: Reference;
beforeAll(async () => {
  ref = await openSharedReference();
});
afterAll(() => ref.close());

const run = (claim: ReturnType<typeof claimOf>): ReturnType<typeof validateClaim> =>
  validateClaim(ref, claim, { checks: ['claim.structure'] });

test('reports a pointer past the last diagnosis instead of dropping it', () => {
  const r = run(claimOf({}, ['E11.9'], [{ procedureCode: '83036', diagnosisPointers: [1, 3] }]));
  expect(r.findings).toMatchObject([
    { code: 'CLAIM_POINTER_INVALID', severity: 'error', lines: [1], codes: ['83036'] },
  ]);
  expect(r.findings[0]?.message).toBe('Line 1 points to diagnosis 3, but the claim has 1 diagnosis.');
});

test('reports a line number used twice', () => {
  const r = run(
    claimOf(
      {},
      ['E11.9'],
      [
        { procedureCode: '83036', lineNumber: 1 },
        { procedureCode: '99213', lineNumber: 1 },
      ],
    ),
  );
  expect(r.findings.map((f) => f.code)).toEqual(['CLAIM_DUPLICATE_LINE']);
});

test('is silent on a well-formed claim', () => {
  expect(run(claimOf({}, ['E11.9', 'I10'], [{ procedureCode: '83036', diagnosisPointers: [2, 1] }])).findings).toEqual(
    [],
  );
});

test('reports a patient born after the date of service, without quoting the birth date', () => {
  const claim = claimOf({ patient: { birthDate: '2030-01-01', sex: 'F' } }, ['O80'], ['59400']);
  const r = run(claim);
  expect(r.findings).toMatchObject([{ code: 'CLAIM_BIRTH_AFTER_SERVICE', severity: 'error', lines: [] }]);
  expect(r.findings[0]?.message).not.toContain('2030');
  // The MCE's own answer to such an age is its edit 14 (invalid age): its lists are not read.
  const age = validateClaim(ref, claim, { checks: ['mce.age-conflict'] });
  expect(age.findings).toEqual([]);
  expect(age.notChecked[0]?.reason).toMatch(/outside 0-124 \(MCE edit 14, invalid age\)/);
  // Born on the date of service is age 0, not a fault.
  expect(run(claimOf({ patient: { birthDate: '2026-05-15' } }, ['Z38.00'], ['99460'])).findings).toEqual([]);
});

test('reports a pointer given twice, and reads its diagnosis once: no finding of the line is doubled', () => {
  const claim = claimOf({ dateOfServiceFrom: '2026-02-15' }, ['J06.9', 'I10'], [{ procedureCode: '83036', diagnosisPointers: [1, 1, 2, 2] }]);
  const r = run(claim);
  expect(r.findings).toMatchObject([{ code: 'CLAIM_POINTER_REPEATED', severity: 'error', lines: [1], codes: ['83036'] }]);
  expect(r.findings[0]?.message).toBe('Line 1 points to diagnosis 1, 2 more than once: a pointer given again names no other diagnosis.');
  // The lab NCD (on a date its January 2026 list covers) reads J06.9 and I10 once each, as with pointers 1|2.
  const ncd = (c: typeof claim): string[] =>
    validateClaim(ref, c, { checks: ['ncd.lab'] }).findings.map((f) => `${f.code} ${f.codes.join('+')}`);
  expect(ncd(claim)).toEqual(['NCD_NOT_LISTED 83036+J06.9', 'NCD_NOT_LISTED 83036+I10']);
});

test('reports a line whose list of pointers is empty: it points to no diagnosis', () => {
  const r = run(claimOf({}, ['E11.9'], [{ procedureCode: '83036', diagnosisPointers: [] }]));
  expect(r.findings).toMatchObject([{ code: 'CLAIM_POINTER_INVALID', lines: [1] }]);
  expect(r.findings[0]?.message).toBe('Line 1 points to no diagnosis (its list of pointers is empty): no diagnosis supports it.');
});

test("reports a line dated outside the claim's dates (an 837I statement period, an NDJSON claim's from / to)", () => {
  const claim = claimOf({ dateOfServiceFrom: '2026-05-01', dateOfServiceTo: '2026-05-03' }, ['E11.9'], [
    { procedureCode: '83036', dateOfService: '2026-05-02' },
    { procedureCode: '99213', dateOfService: '2026-05-09' },
  ]);
  const r = run(claim);
  expect(r.findings).toMatchObject([{ code: 'CLAIM_LINE_DATE_OUTSIDE', severity: 'error', lines: [2], codes: ['99213'] }]);
  expect(r.findings[0]?.message).toBe("Line 2 is dated 2026-05-09, outside the claim's dates (2026-05-01 to 2026-05-03).");
  // Without a through date the claim is the one day.
  expect(run(claimOf({ dateOfServiceFrom: '2026-05-01' }, ['E11.9'], [{ procedureCode: '83036', dateOfService: '2026-04-30' }])).findings.map((f) => f.code)).toEqual(['CLAIM_LINE_DATE_OUTSIDE']);
});

test('reports a professional or DME claim with more than 12 diagnoses (837P HI01-HI12, CMS-1500 A-L); an institutional one may have 25', () => {
  const dx = ['E11.9', 'I10', 'E78.5', 'J45.909', 'K21.9', 'M54.50', 'F41.9', 'G47.33', 'N18.30', 'E66.9', 'R51.9', 'Z79.4', 'Z87.891'];
  const twelve = dx.slice(0, 12);
  for (const claimType of ['professional', 'dme'] as const) {
    const r = run(claimOf({ claimType }, dx, [{ procedureCode: '99213', diagnosisPointers: [1] }]));
    expect(r.findings).toMatchObject([{ code: 'CLAIM_TOO_MANY_DIAGNOSES', severity: 'error', lines: [], codes: ['Z87.891'], diagnoses: [13] }]);
    expect(r.findings[0]?.message).toBe(`The ${claimType} claim has 13 diagnoses; an 837P or CMS-1500 carries at most 12 (the codes past the 12th are not sent).`);
    expect(run(claimOf({ claimType }, twelve, [{ procedureCode: '99213', diagnosisPointers: [12] }])).findings).toEqual([]);
  }
  expect(run(claimOf({ claimType: 'institutional' }, dx, [{ procedureCode: '99213', diagnosisPointers: [13] }])).findings).toEqual([]);
});

test('CodeValidate, a list of up to 50 codes and no claim form, is not bound to the 12 diagnoses of an 837P', () => {
  const icdCodes = ['E11.9', 'I10', 'E78.5', 'J45.909', 'K21.9', 'M54.50', 'F41.9', 'G47.33', 'N18.30', 'E66.9', 'R51.9', 'Z79.4', 'Z87.891'];
  const request: CodeValidate = { effectiveDate: '2026-05-15', cptCodes: ['99213'], icdCodes, codeCheckTypes: ['CMS'], patient: { age: 60 } };
  const result = codeValidate(ref, request, claimOfCodeValidate(request, undefined, undefined));
  expect(JSON.stringify(result)).not.toMatch(/837P or CMS-1500/);
  // The claim the request stands for does carry 13 (the scrubber would report them).
  expect(run(claimOfCodeValidate(request, undefined, undefined)).findings.map((f) => f.code)).toEqual(['CLAIM_TOO_MANY_DIAGNOSES']);
});
