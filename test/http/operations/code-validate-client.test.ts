// CodeValidate and CciMueCheck through @servicestack/client with the generated DTOs (test/fixtures/dtos.ts): typed
// responses on /api/{Op}, and the 400 field error the client exposes by field name.
import { JsonServiceClient } from '@servicestack/client';
import { expect, test } from 'vitest';
import { CciMueCheck, CciMueItem, CodeValidate } from '../../fixtures/dtos.js';
import { signed, signedServerOnSharedReference } from '../helpers.js';

const server = signedServerOnSharedReference();

function client(): JsonServiceClient {
  const c = new JsonServiceClient(server.s.base);
  for (const [name, value] of Object.entries(signed(server.s.key, server.s.userName))) {
    c.headers.set(name, value);
  }
  return c;
}

test('CodeValidate: typed items and sub-items (83036 with E11.9 under NCD 190.21)', async () => {
  const result = await client().api(
    new CodeValidate({
      codeCheckTypes: ['NCD'],
      // The January 2026 lab NCD list answers for 2026Q1.
      effectiveDate: '2026-02-15',
      cptCodes: ['83036'],
      icdCodes: ['E11.9'],
      patient: { age: 60 },
    }),
  );
  expect(result.succeeded).toBe(true);
  expect(result.response?.count).toBe(1);
  const item = result.response?.result?.items?.[0];
  expect(item?.code).toBe('83036');
  expect(item?.subItems?.[0]?.issues?.[0]?.policy).toBe('NCD 190.21');
});

test('CodeValidate: the spec rule 2 failure as a field error', async () => {
  const result = await client().api(
    new CodeValidate({ codeCheckTypes: ['Commercial'], effectiveDate: '2026-05-15', cptCodes: ['99213'] }),
  );
  expect(result.failed).toBe(true);
  expect(result.fieldError('payerCode')?.errorCode).toBe('NotEmpty');
});

test('CciMueCheck: the MUE of G0439 typed', async () => {
  const result = await client().api(
    new CciMueCheck({ effectiveDate: '2026-05-15', providerType: 'P', items: [new CciMueItem({ code: 'G0439' })] }),
  );
  expect(result.succeeded).toBe(true);
  expect(result.response?.items?.[0]).toMatchObject({ code: 'G0439', mueValue: 1 });
});
