// The closed registry of wire error codes (wire.md §9): each code's HTTP status and, for field errors, the message
// template. It is the one vocabulary of expected failures across accounts, the HTTP operations and the FHIR facade
// (src/schemas/result.ts); it lives in schemas so the accounts layer can name its codes as a subset of it. Keys form
// the WireErrorCode union, so switches over codes are checked for exhaustiveness. Claim findings have their own
// registry (src/findings/codes.ts) and infrastructure errors theirs (src/errors.ts ErrorCodes): neither is answered
// as a wire code.
import { z } from 'zod';

/** Every errorCode the shim answers with, its HTTP status and its message template or fixed message. */
export const WireErrorCodes = {
  NotEmpty: { status: 400, field: true, template: "'{field}' must not be empty." },
  InvalidValue: { status: 400, field: true, template: "'{value}' is an invalid value for '{field}'." },
  OutOfRange: { status: 400, field: true, template: "'{field}' must be between {min} and {max}." },
  TooMany: { status: 400, field: true, template: "'{field}' must not have more than {max} items." },
  SerializationException: { status: 400, field: false, template: 'The request body could not be read: {detail}' },
  Unauthorized: { status: 401, field: false, template: 'Credentials are missing or invalid.' },
  InvalidSignature: { status: 401, field: false, template: 'The request signature is invalid.' },
  SignatureExpired: { status: 401, field: false, template: 'The request signature has expired.' },
  SessionExpired: { status: 401, field: false, template: 'The session has expired.' },
  Forbidden: { status: 403, field: false, template: 'This operation is not allowed for the caller.' },
  NotFound: { status: 404, field: false, template: '{detail}' },
  MethodNotAllowed: { status: 405, field: false, template: "The verb '{verb}' is not accepted on this route." },
  Conflict: { status: 409, field: false, template: '{detail}' },
  PayloadTooLarge: { status: 413, field: false, template: 'The request body is larger than {max} bytes.' },
  UnsupportedMediaType: { status: 415, field: false, template: '{detail}' },
  TooManyRequests: { status: 429, field: false, template: 'Too many requests; retry after {seconds} seconds.' },
  InternalError: { status: 500, field: false, template: 'An internal error occurred.' },
  /** (ext) A port the operation needs is not configured (no reference database): retry once it is built. */
  ServiceUnavailable: { status: 503, field: false, template: '{detail}' },
} as const;

/** The registry's keys as a zod enum: subsets (`WireErrorCode.extract([...])`) are checked against the registry. */
export const WireErrorCode = z.enum(Object.keys(WireErrorCodes) as [WireErrorCode, ...WireErrorCode[]]);
/** An errorCode of the wire protocol. */
export type WireErrorCode = keyof typeof WireErrorCodes;

/** The errorCodes that describe one field (entries of `responseStatus.errors`). */
export type FieldErrorCode = {
  [K in WireErrorCode]: (typeof WireErrorCodes)[K]['field'] extends true ? K : never;
}[WireErrorCode];

/**
 * Fills a message template: `{name}` is replaced by `params[name]`; unknown names stay as written.
 * @param code - the error code whose template is used
 * @param params - the values of the placeholders
 * @returns the rendered message
 */
export function renderMessage(code: WireErrorCode, params: Readonly<Record<string, string | number>>): string {
  return WireErrorCodes[code].template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = params[name];
    return value === undefined ? whole : String(value);
  });
}
