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
