// Failure outcomes as plain values (medplum's OperationOutcome idiom, style.md): operations, hooks and the wire
// layer return them instead of throwing, and statusFor() is the one place that maps an outcome to an HTTP status.
// An Outcome is the shared Failure (src/schemas/result.ts): accounts failures pass through unchanged, and the FHIR
// facade renders the same value as an OperationOutcome.
import { WireErrorCodes } from '../../schemas/wire-codes.js';
import { failure, invalid, isFailure, type Failure, type Result } from '../../schemas/result.js';

export { failure, fieldError, type FieldError } from '../../schemas/result.js';

/** A failed call: answered with the error envelope and the status of its code. */
export type Outcome = Failure;

/**
 * Tells an Outcome from any other value (an operation's response).
 * @param value - anything a handler or hook returned
 */
export const isOutcome: (value: unknown) => value is Outcome = isFailure;

/**
 * A 400 from field errors: the top-level code and message are those of the first error (wire.md §9).
 * @param errors - at least one field error
 * @throws RangeError when `errors` is empty
 */
export const badRequest: typeof invalid = invalid;

/**
 * A 404 `NotFound`.
 * @param message - what was not found
 */
export function notFound(message = 'The requested route or resource was not found.'): Outcome {
  return failure('NotFound', message);
}

/**
 * Maps an accounts result onto the wire: a success through `map`; a failure is already an outcome.
 * @param result - what an accounts function returned
 * @param map - builds the response (or part of it) from the value
 */
export function fromAccounts<T, R>(result: Result<T>, map: (value: T) => R): R | Outcome {
  return result.ok ? map(result.value) : result;
}

/**
 * The HTTP status of an outcome, from the code registry.
 * @param outcome - a failure outcome
 * @returns 400 to 503
 */
export function statusFor(outcome: Outcome): number {
  return WireErrorCodes[outcome.errorCode].status;
}
