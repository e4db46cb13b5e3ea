// Returned outcomes of the accounts layer (style.md guideline 5: expected failures are values, not exceptions): the
// shared result type (src/schemas/result.ts) narrowed to the accounts codes, a subset of the wire codes, so the HTTP
// layer maps a failure to its envelope without a translation table.
import type { AccountsErrorCode, AccountsFieldError } from '../schemas/accounts.js';
import { fieldError, type Result } from '../schemas/result.js';

export { failure, invalid, success } from '../schemas/result.js';

/** A success carrying a value, or an expected accounts failure. Branch on `ok`. */
export type Outcome<T> = Result<T, AccountsErrorCode>;

/**
 * A `NotEmpty` field error with the wire template's message.
 * @param fieldName - the JSON camelCase field name
 */
export function notEmpty(fieldName: string): AccountsFieldError {
  return fieldError('NotEmpty', fieldName);
}

/**
 * An `InvalidValue` field error with the wire template's message.
 * @param fieldName - the JSON camelCase field name
 * @param value - the rejected value (never pass a secret here)
 */
export function invalidValue(fieldName: string, value: string): AccountsFieldError {
  return fieldError('InvalidValue', fieldName, { value });
}
