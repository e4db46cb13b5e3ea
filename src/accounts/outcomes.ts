// Returned outcomes of the accounts layer (style.md guideline 5: expected failures are values, not exceptions).
// Codes are wire codes (wire.md §9), so the HTTP layer maps a failure to its envelope without a translation table.
import type { AccountsErrorCode, AccountsFailure, AccountsFieldError } from '../schemas/accounts.js';

/** A success carrying a value, or an expected failure. Branch on `ok`. */
export type Outcome<T> = { readonly ok: true; readonly value: T } | AccountsFailure;

/**
 * Wraps a value as a success.
 * @param value - the result
 */
export function success<T>(value: T): { readonly ok: true; readonly value: T } {
  return { ok: true, value };
}

/**
 * Builds a failure that is not about one field.
 * @param errorCode - the wire code
 * @param message - a message that names no secret, signature or (for authentication) key existence
 */
export function failure(
  errorCode: Exclude<AccountsErrorCode, 'NotEmpty' | 'InvalidValue'>,
  message: string,
): AccountsFailure {
  return { ok: false, errorCode, message, errors: [] };
}

/**
 * Builds a field-level failure; its top-level code and message are the first error's (wire.md §9).
 * @param errors - at least one field error
 * @throws RangeError when `errors` is empty
 */
export function invalid(errors: readonly AccountsFieldError[]): AccountsFailure {
  const first = errors[0];
  if (first === undefined) {
    throw new RangeError('Expected at least one field error');
  }
  return { ok: false, errorCode: first.errorCode, message: first.message, errors: [...errors] };
}

/**
 * A `NotEmpty` field error with the wire template's message.
 * @param fieldName - the JSON camelCase field name
 */
export function notEmpty(fieldName: string): AccountsFieldError {
  return { errorCode: 'NotEmpty', fieldName, message: `'${fieldName}' must not be empty.` };
}

/**
 * An `InvalidValue` field error with the wire template's message.
 * @param fieldName - the JSON camelCase field name
 * @param value - the rejected value (never pass a secret here)
 */
export function invalidValue(fieldName: string, value: string): AccountsFieldError {
  return { errorCode: 'InvalidValue', fieldName, message: `'${value}' is an invalid value for '${fieldName}'.` };
}
