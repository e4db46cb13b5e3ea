// Failure outcomes as plain values (medplum's OperationOutcome idiom, style.md): operations, hooks and the wire
// layer return them instead of throwing, and statusFor() is the one place that maps an outcome to an HTTP status.
import type { AccountsFailure } from '../../schemas/accounts.js';
import { renderMessage, WireErrorCodes, type FieldErrorCode, type WireErrorCode } from './codes.js';

const outcomeBrand: unique symbol = Symbol('wire.outcome');

/** One entry of `responseStatus.errors`: a failure about one field, named by its JSON camelCase path. */
export interface FieldError {
  readonly errorCode: FieldErrorCode;
  readonly fieldName: string;
  readonly message: string;
}

/** A failed call: answered with the error envelope and the status of its code. */
export interface Outcome {
  readonly [outcomeBrand]: true;
  readonly errorCode: WireErrorCode;
  readonly message: string;
  readonly errors: readonly FieldError[];
  /** Extra reply headers (`Allow` for 405, `Retry-After` for 429). */
  readonly headers?: Readonly<Record<string, string>>;
  /** The exception behind a 500; logged, and its stack shown only in debug mode. */
  readonly cause?: unknown;
}

/**
 * Tells an Outcome from any other value (an operation's response).
 * @param value - anything a handler or hook returned
 */
export function isOutcome(value: unknown): value is Outcome {
  return typeof value === 'object' && value !== null && outcomeBrand in value;
}

/**
 * Builds an outcome with the given code.
 * @param errorCode - the wire error code; its status comes from the registry
 * @param message - the message; defaults to the code's template filled from `params`
 * @param extra - field errors, reply headers, the cause of a 500
 */
export function failure(
  errorCode: WireErrorCode,
  message?: string,
  extra: {
    errors?: readonly FieldError[];
    headers?: Readonly<Record<string, string>>;
    cause?: unknown;
    params?: Readonly<Record<string, string | number>>;
  } = {},
): Outcome {
  return {
    [outcomeBrand]: true,
    errorCode,
    message: message ?? renderMessage(errorCode, extra.params ?? {}),
    errors: extra.errors ?? [],
    ...(extra.headers === undefined ? {} : { headers: extra.headers }),
    ...(extra.cause === undefined ? {} : { cause: extra.cause }),
  };
}

/**
 * Builds one field error with its templated message.
 * @param errorCode - `NotEmpty`, `InvalidValue`, `OutOfRange` or `TooMany`
 * @param fieldName - the camelCase path (`patient.gender`, `cptCodes[3]`)
 * @param params - `value`, `min`, `max` as the template needs
 * @param message - a message to use instead of the template (conditional rules name both ways to satisfy them)
 */
export function fieldError(
  errorCode: FieldErrorCode,
  fieldName: string,
  params: Readonly<Record<string, string | number>> = {},
  message?: string,
): FieldError {
  return { errorCode, fieldName, message: message ?? renderMessage(errorCode, { ...params, field: fieldName }) };
}

/**
 * A 400 from field errors: the top-level code and message are those of the first error (wire.md §9).
 * @param errors - at least one field error
 * @throws RangeError when `errors` is empty
 */
export function badRequest(errors: readonly FieldError[]): Outcome {
  const first = errors[0];
  if (first === undefined) {
    throw new RangeError('Expected at least one field error for a 400 outcome');
  }
  return failure(first.errorCode, first.message, { errors });
}

/**
 * A 404 `NotFound`.
 * @param message - what was not found
 */
export function notFound(message = 'The requested route or resource was not found.'): Outcome {
  return failure('NotFound', message);
}

/**
 * An accounts failure as a wire outcome. The accounts layer already speaks wire codes (src/schemas/accounts.ts), so
 * code, message and field errors pass through unchanged.
 * @param f - a failed accounts outcome
 */
export function fromAccountsFailure(f: AccountsFailure): Outcome {
  return failure(f.errorCode, f.message, { errors: f.errors });
}

/**
 * Maps an accounts result onto the wire: a success through `map`, a failure to its outcome.
 * @param result - what an accounts function returned
 * @param map - builds the response (or part of it) from the value
 */
export function fromAccounts<T, R>(
  result: { readonly ok: true; readonly value: T } | AccountsFailure,
  map: (value: T) => R,
): R | Outcome {
  return result.ok ? map(result.value) : fromAccountsFailure(result);
}

/**
 * The HTTP status of an outcome, from the code registry.
 * @param outcome - a failure outcome
 * @returns 400 to 500
 */
export function statusFor(outcome: Outcome): number {
  return WireErrorCodes[outcome.errorCode].status;
}
