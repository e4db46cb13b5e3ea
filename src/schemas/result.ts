// The one result type for "answer or failure" (style.md guideline 5: expected failures are values, not exceptions).
// Accounts functions return `Result<T, TheirCodes>`; HTTP handlers, hooks and the FHIR facade return their answer or
// a `Failure`; `statusFor()` (src/http/wire/outcome.ts) is the one map from a failure to an HTTP status, and the
// ServiceStack envelope and FHIR's OperationOutcome are two renderings of the same failure. The failed arm *is* the
// failure (`{ ok: false, errorCode, … }`, not `{ ok: false, failure }`), so a failure passes from accounts through
// the wire without being unwrapped or converted.
import { renderMessage, WireErrorCodes, type FieldErrorCode, type WireErrorCode } from './wire-codes.js';

/** One entry of `responseStatus.errors`: a failure about one field, named by its JSON camelCase path. */
export interface FieldError<C extends FieldErrorCode = FieldErrorCode> {
  readonly errorCode: C;
  readonly fieldName: string;
  readonly message: string;
}

/**
 * An expected failure. For field failures `errorCode` and `message` are those of the first entry of `errors`
 * (wire.md §9); otherwise `errors` is empty.
 * @typeParam C - the codes the producer may answer with (accounts: `AccountsErrorCode`); all of them wire codes
 */
export interface Failure<C extends WireErrorCode = WireErrorCode> {
  readonly ok: false;
  readonly errorCode: C;
  readonly message: string;
  readonly errors: readonly FieldError<Extract<C, FieldErrorCode>>[];
  /** Extra reply headers (`Allow` for 405, `Retry-After` for 429). */
  readonly headers?: Readonly<Record<string, string>>;
  /** The exception behind a 500; logged, and its stack shown only in debug mode. */
  readonly cause?: unknown;
}

/** An answer. */
export interface Success<T> {
  readonly ok: true;
  readonly value: T;
}

/** An answer or an expected failure. Branch on `ok`. */
export type Result<T, C extends WireErrorCode = WireErrorCode> = Success<T> | Failure<C>;

/**
 * Wraps a value as a success.
 * @param value - the answer
 */
export function success<T>(value: T): Success<T> {
  return { ok: true, value };
}

/**
 * Builds a failure with the given code.
 * @param errorCode - the wire error code; its status comes from the registry
 * @param message - the message; defaults to the code's template filled from `extra.params`. It names no secret,
 *   signature or (for authentication) key existence.
 * @param extra - field errors, reply headers, the cause of a 500, template parameters
 */
export function failure<C extends WireErrorCode>(
  errorCode: C,
  message?: string,
  extra: {
    errors?: readonly FieldError<Extract<C, FieldErrorCode>>[];
    headers?: Readonly<Record<string, string>>;
    cause?: unknown;
    params?: Readonly<Record<string, string | number>>;
  } = {},
): Failure<C> {
  return {
    ok: false,
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
export function fieldError<C extends FieldErrorCode>(
  errorCode: C,
  fieldName: string,
  params: Readonly<Record<string, string | number>> = {},
  message?: string,
): FieldError<C> {
  return { errorCode, fieldName, message: message ?? renderMessage(errorCode, { ...params, field: fieldName }) };
}

/**
 * A failure from field errors: the top-level code and message are those of the first error (wire.md §9).
 * @param errors - at least one field error
 * @throws RangeError when `errors` is empty
 */
export function invalid<C extends FieldErrorCode>(errors: readonly FieldError<C>[]): Failure<C> {
  const first = errors[0];
  if (first === undefined) {
    throw new RangeError('Expected at least one field error');
  }
  return failure<C>(first.errorCode, first.message, {
    errors: [...errors] as FieldError<Extract<C, FieldErrorCode>>[],
  });
}

/**
 * Tells a failure from any other value (an answer, a request's inputs, a port).
 * @param value - anything a function that answers `T | Failure` returned
 */
export function isFailure(value: unknown): value is Failure {
  if (typeof value !== 'object' || value === null || (value as { ok?: unknown }).ok !== false) {
    return false;
  }
  const code = (value as { errorCode?: unknown }).errorCode;
  return typeof code === 'string' && Object.hasOwn(WireErrorCodes, code);
}
