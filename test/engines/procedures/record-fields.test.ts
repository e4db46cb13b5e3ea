import { afterAll, beforeAll, expect, test } from 'vitest';
import { procedureItem } from '../../../src/engines/procedures/index.js';
import type { Reference } from '../../../src/reference/index.js';
import { openSharedReference } from '../../helpers/reference-db.js';

let ref: Reference;
beforeAll(async () => {
  ref = await openSharedReference();
});
afterAll(() => ref.close());

test('fills a record from the HCPCS file, the OPPS addendum, the MUE tables and the DMEPOS fee schedule', () => {
  const cane = procedureItem(ref, 'E0100', '2026-06-15');
  expect(cane).toMatchObject({
    code: 'E0100',
    codeType: 'HCPCS',
    shortDescription: 'Cane adjust/fixed with tip',
    addedDate: '1986-01-01',
    statusIndicator: 'Y',
    ascApproved: 'N',
    ascMultiProc: '',
    coverage: 'D',
    dmeposJurisdiction: 'D',
    mueDme: 1,
    mueDmeMai: 3,
    release: '2019Q1',
  });
  const drug = procedureItem(ref, 'J1100', '2026-06-15');
  expect(drug).toMatchObject({
    statusIndicator: 'N',
    muePractitioner: 120,
    muePractitionerMai: 3,
    mcmReferences: ['2049'],
  });
});

test('gives the OPPS APC and payment rate as strings', () => {
  const visit = procedureItem(ref, 'G0463', '2025-02-15');
  expect(visit?.apcCode).toMatch(/^\d{4}$/);
  expect(visit?.adjustedApcPayment).toMatch(/^\d+\.\d\d$/);
  expect(visit?.oppsRelease).toBe('2025Q1');
});

test('marks OPPS fields read from the derived April 2026 table as derived, and official ones not', () => {
  const derived = procedureItem(ref, 'J1100', '2026-06-15');
  expect(derived).toMatchObject({ statusIndicator: 'N', oppsRelease: '2026Q2', oppsDerived: true });
  const official = procedureItem(ref, 'J1100', '2025-02-15');
  expect(official).toMatchObject({ statusIndicator: 'N', oppsRelease: '2025Q1' });
  expect(official?.oppsDerived).toBeUndefined();
});

test('sets addOnCode from the NCCI add-on edits in force, and leaves it empty when none covers the date', () => {
  expect(procedureItem(ref, 'C9601', '2026-06-15')?.addOnCode).toBe('Y');
  expect(procedureItem(ref, 'J1100', '2026-06-15')?.addOnCode).toBe('N');
  expect(procedureItem(ref, 'C9601', '2025-06-15')?.addOnCode).toBe('');
});
