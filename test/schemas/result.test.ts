// The one result type (src/schemas/result.ts) and its one code vocabulary (src/schemas/wire-codes.ts): accounts and
// the FHIR facade answer with wire codes only, so statusFor() and both renderings (the error envelope and FHIR's
// OperationOutcome) know every code they can meet. The types are checked by `npm run typecheck`; the source scan
// catches a code written as a literal behind a cast.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, expectTypeOf, test } from 'vitest';
import type { Outcome as AccountsOutcome } from '../../src/accounts/outcomes.js';
import { issueTypeFor, operationOutcome, type FhirFailure } from '../../src/http/fhir/parameters.js';
import { isOutcome, statusFor, type Outcome } from '../../src/http/wire/outcome.js';
import { AccountsErrorCode, type AccountsFailure } from '../../src/schemas/accounts.js';
import { failure, fieldError, invalid, isFailure, success, type Failure } from '../../src/schemas/result.js';
import { WireErrorCode, WireErrorCodes } from '../../src/schemas/wire-codes.js';

const wireCodes = new Set<string>(Object.keys(WireErrorCodes));

/** Every error code written as a literal in the .ts files below `dir`: `failure('X'`, `fieldError('X'`, `errorCode: 'X'`. */
function codesWrittenIn(dir: string): Set<string> {
  const found = new Set<string>();
  for (const entry of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    if (!entry.endsWith('.ts')) {
      continue;
    }
    const text = readFileSync(join(dir, entry), 'utf8');
    for (const m of text.matchAll(/\b(?:failure|fieldError)(?:<[^>]*>)?\(\s*'(\w+)'|\berrorCode:\s*'(\w+)'/g)) {
      found.add((m[1] ?? m[2]) as string);
    }
  }
  return found;
}

describe('one vocabulary of failure codes', () => {
  test('the accounts codes are wire codes', () => {
    expectTypeOf<AccountsErrorCode>().toExtend<WireErrorCode>();
    for (const code of AccountsErrorCode.options) {
      expect(wireCodes).toContain(code);
    }
    expect(WireErrorCode.options).toEqual(Object.keys(WireErrorCodes));
  });

  test.each([
    ['accounts', 'src/accounts'],
    ['the FHIR facade', 'src/http/fhir'],
  ])('%s writes no error code the wire registry lacks', (_name, dir) => {
    const written = codesWrittenIn(dir);
    expect(written.size).toBeGreaterThan(0);
    expect([...written].filter((code) => !wireCodes.has(code))).toEqual([]);
  });

  test('an accounts failure, a wire outcome and a FHIR failure are the one failure type', () => {
    expectTypeOf<AccountsFailure>().toExtend<Failure>();
    expectTypeOf<Extract<AccountsOutcome<number>, { ok: false }>>().toEqualTypeOf<AccountsFailure>();
    expectTypeOf<Outcome>().toEqualTypeOf<Failure>();
    expectTypeOf<FhirFailure>().toExtend<Failure>();
    expectTypeOf<FhirFailure['errorCode']>().toEqualTypeOf<WireErrorCode>();
  });

  test('every wire code has an HTTP status and a FHIR issue type', () => {
    for (const code of WireErrorCode.options) {
      const f = failure(code, 'm');
      expect(statusFor(f)).toBe(WireErrorCodes[code].status);
      expect(operationOutcome(f)).toEqual({
        resourceType: 'OperationOutcome',
        issue: [{ severity: 'error', code: issueTypeFor(code), diagnostics: 'm' }],
      });
    }
  });
});

describe('results', () => {
  test('a failure is the failed arm of a result, and tells itself from answers', () => {
    const f = invalid([fieldError('NotEmpty', 'entityName'), fieldError('InvalidValue', 'state', { value: 'ZZ' })]);
    expect(f).toEqual({
      ok: false,
      errorCode: 'NotEmpty',
      message: "'entityName' must not be empty.",
      errors: [
        { errorCode: 'NotEmpty', fieldName: 'entityName', message: "'entityName' must not be empty." },
        { errorCode: 'InvalidValue', fieldName: 'state', message: "'ZZ' is an invalid value for 'state'." },
      ],
    });
    expect(isFailure(f)).toBe(true);
    expect(isOutcome(f)).toBe(true);
    expect(isFailure(success(1))).toBe(false);
    expect(isFailure({ ok: false, errorCode: 'NoSuchCode' })).toBe(false);
    expect(isFailure(Buffer.from('x'))).toBe(false);
    expect(() => invalid([])).toThrow(RangeError);
  });
});
