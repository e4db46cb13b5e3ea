// Contractor expectations from the real January 2026 ZIP5 carrier-locality file: Virginia is split for Part B
// (domain.md section 12): 22201 (Arlington) is carrier 12202 (JL), 24011 (Roanoke) is 11302 (JM); 02324 (MA) is a ZIP
// whose plus-4 flag says the ZIP+4 decides the locality. California Part B has two numbers in the committed table
// (01112 north, 01182 south), so the state alone proves no single number.
import { afterAll, beforeAll, expect, test } from 'vitest';
import { resolveContractor, validateClaim } from '../../../src/engines/validation/index.js';
import type { Reference } from '../../../src/reference/index.js';
import type { ClaimProvider } from '../../../src/schemas/claim.js';
import { claimOf } from '../../helpers/claims.js';
import { openSharedReference } from '../../helpers/reference-db.js';

let ref: Reference;
beforeAll(async () => {
  ref = await openSharedReference();
});
afterAll(() => ref.close());

const claim = (provider: ClaimProvider): ReturnType<typeof claimOf> => claimOf({ provider }, ['I10'], ['99213']);

test('a given contractor number wins', () => {
  expect(resolveContractor(ref, claim({ type: 'Physician', zip: '22201', contractorNumber: '11302' }))).toMatchObject({
    contractorNumber: '11302',
    by: 'given',
  });
});

test('splits Virginia by ZIP for Part B', () => {
  expect(resolveContractor(ref, claim({ type: 'Physician', zip: '22201' }))).toMatchObject({
    contractorNumber: '12202',
    by: 'zip',
    source: { dataset: 'zip5-locality' },
  });
  expect(resolveContractor(ref, claim({ type: 'Physician', zip: '24011' }))?.contractorNumber).toBe('11302');
});

test('warns when the ZIP is split between localities and no ZIP+4 is given', () => {
  const r = validateClaim(ref, claim({ type: 'Physician', zip: '02324' }), { checks: ['contractor'] });
  expect(r.findings).toMatchObject([{ code: 'CONTRACTOR_ZIP9_NEEDED', severity: 'warning' }]);
  const nine = validateClaim(ref, claim({ type: 'Physician', zip: '02324-1234' }), { checks: ['contractor'] });
  expect(nine.findings).toEqual([]);
});

test('does not pick one of two Part B numbers from the state alone', () => {
  const r = resolveContractor(ref, claim({ type: 'Physician', state: 'CA' }));
  expect(r?.contractorNumber).toBeUndefined();
  expect(r?.jurisdiction).toBe('JE');
});

test('reports a claim that resolves to an A/B MAC but not to a contractor number; a DME MAC is enough', () => {
  // California Part B is split between 01112 and 01182 (domain.md section 12): the state names the MAC, not which.
  const findings = validateClaim(ref, claim({ type: 'Physician', state: 'CA' }), { checks: ['contractor'] }).findings;
  expect(findings.map((f) => [f.code, f.message])).toEqual([
    ['CONTRACTOR_UNKNOWN', expect.stringMatching(/^No Medicare contractor number resolved, only the MAC: jurisdiction JE /)],
  ]);
  expect(findings[0]?.fix).toBe('Give the contractor number or the ZIP on the claim.');
  expect(validateClaim(ref, claim({ type: 'DME', state: 'VA' }), { checks: ['contractor'] }).findings).toEqual([]);
  // A ZIP proves the carrier: nothing to report.
  expect(validateClaim(ref, claim({ type: 'Physician', zip: '24011' }), { checks: ['contractor'] }).findings).toEqual([]);
});

test('proves a Part B number from the state when every ZIP of the state has one carrier in the ZIP5 file', () => {
  // Illinois ZIPs all map to carrier 06102 in the January 2026 ZIP5 file (60601 above among them).
  expect(resolveContractor(ref, claim({ type: 'Physician', state: 'IL' }))).toMatchObject({
    contractorNumber: '06102',
    by: 'state',
    source: { dataset: 'zip5-locality' },
  });
  // Virginia is split between 12202 and 11302: the state alone proves neither.
  expect(resolveContractor(ref, claim({ type: 'Physician', state: 'VA' }))?.contractorNumber).toBeUndefined();
});

test('gives the DME MAC jurisdiction of the state for DME', () => {
  expect(resolveContractor(ref, claim({ type: 'DME', state: 'VA' }))).toMatchObject({ part: 'DME', jurisdiction: 'C' });
});

test('takes the state from the ZIP before the state given (domain.md section 12: ZIP, then state)', () => {
  // 22201 is a Virginia ZIP (DME MAC C); California would be D.
  expect(resolveContractor(ref, claim({ type: 'DME', state: 'CA', zip: '22201' }))).toMatchObject({
    jurisdiction: 'C',
  });
});

test('says why a claim resolves to no contractor: a state split between carriers names them, a facility ZIP names its state', () => {
  const reasonOf = (provider: ClaimProvider, claimType: 'professional' | 'institutional' = 'professional'): string =>
    validateClaim(ref, claimOf({ provider, claimType }, ['I10'], ['99213']), { checks: ['contractor'] }).findings[0]
      ?.message ?? '';
  expect(reasonOf({ type: 'Physician', state: 'NY' })).toBe(
    'No Medicare contractor resolved: the ZIPs of state NY go to 3 Part B carriers (13202, 13282, 13292, ZIP5 file 2026Q1): the ZIP or the contractor number decides.',
  );
  expect(reasonOf({ type: 'Facility', zip: '10001' }, 'institutional')).toBe(
    'No Medicare contractor resolved: no Part A contractor of state NY is in the loaded contractor table (the ZIP5 file names Part B carriers only).',
  );
});

test('answers each provider once, apart from every other part, ZIP, state and date', () => {
  // Asked one after another on one connection: an answer kept for one provider must not be given to another.
  const asked = (provider: ClaimProvider, fields: Parameters<typeof claimOf>[0] = {}): string | undefined => {
    const r = resolveContractor(ref, claimOf({ provider, ...fields }, ['I10'], ['99213']));
    return r?.contractorNumber ?? r?.jurisdiction;
  };
  expect(asked({ type: 'Physician', zip: '22201' })).toBe('12202');
  expect(asked({ type: 'Physician', zip: '24011' })).toBe('11302');
  expect(asked({ type: 'DME', zip: '22201' })).toBe('C');
  expect(asked({ type: 'Physician', zip: '22201', state: 'CA' })).toBe('12202');
  expect(asked({ type: 'Physician', state: 'IL' })).toBe('06102');
  expect(asked({ type: 'Physician', state: 'VA' })).toBeUndefined();
  expect(asked({ type: 'Physician', state: 'IL', contractorNumber: '11302' })).toBe('11302');
  // A date no ZIP5 file covers: no carrier from the ZIP, whatever the same provider resolved to on another date.
  expect(asked({ type: 'Physician', zip: '22201' }, { dateOfServiceFrom: '2001-01-02' })).not.toBe('12202');
  expect(asked({ type: 'Physician', zip: '22201' })).toBe('12202');
});
