// R4 Parameters in and OperationOutcome out: reading a call's inputs from the query string (GET) or a JSON
// Parameters body (POST), and building the replies. Only what the three operations use: primitive values, Coding
// and CodeableConcept inputs; primitive, Coding and part outputs. Failures are the shared failure type
// (src/schemas/result.ts); an OperationOutcome is its FHIR rendering, as the error envelope is its ServiceStack one.
import { failure, fieldError, invalid, type Failure } from '../../schemas/result.js';
import type { WireErrorCode } from '../../schemas/wire-codes.js';

/** A Coding as R4 writes it. */
export interface Coding {
  readonly system?: string;
  readonly version?: string;
  readonly code?: string;
  readonly display?: string;
}

/** One output parameter. */
export interface ParameterOut {
  readonly name: string;
  readonly valueString?: string;
  readonly valueBoolean?: boolean;
  readonly valueCode?: string;
  readonly valueCoding?: Coding;
  readonly part?: readonly ParameterOut[];
}

/** A Parameters resource. */
export interface Parameters {
  readonly resourceType: 'Parameters';
  readonly parameter: readonly ParameterOut[];
}

/** The inputs of a call: primitive values by name (first wins), and the Coding inputs. */
export interface FhirInputs {
  value(name: string): string | undefined;
  /**
   * A Coding parameter, or a CodeableConcept's coding: the first whose system `prefer` takes (a concept may carry
   * a SNOMED coding before the ICD-10-CM one), else its first.
   */
  coding(name: string, prefer?: (system: string) => boolean): Coding | undefined;
}

/** The OperationOutcome issue types (R4 IssueType) the facade answers with. */
export type FhirIssueType =
  | 'invalid'
  | 'required'
  | 'not-supported'
  | 'not-found'
  | 'structure'
  | 'security'
  | 'throttled'
  | 'too-costly'
  | 'exception'
  | 'transient';

/**
 * A failure of the facade: the shared failure (src/schemas/result.ts), whose wire code gives the HTTP status
 * (statusFor) and, by default, the issue type (issueTypeFor). `issueType` is set only where that default is not the
 * right word: `not-supported` for a code system the facade does not serve, answered as a 400 `InvalidValue`.
 */
export type FhirFailure = Failure & { readonly issueType?: FhirIssueType };

/**
 * A 400 about one input the facade cannot serve (`not-supported`).
 * @param fieldName - the input parameter (`system`, `targetsystem`)
 * @param message - the diagnostics
 */
export function notSupported(fieldName: string, message: string): FhirFailure {
  return { ...invalid([fieldError('InvalidValue', fieldName, {}, message)]), issueType: 'not-supported' };
}

/**
 * The OperationOutcome issue type of a wire code.
 * @param code - the failure's wire code
 */
export function issueTypeFor(code: WireErrorCode): FhirIssueType {
  switch (code) {
    case 'NotEmpty':
      return 'required';
    case 'SerializationException':
      return 'structure';
    case 'Unauthorized':
    case 'InvalidSignature':
    case 'SignatureExpired':
    case 'SessionExpired':
    case 'Forbidden':
      return 'security';
    case 'NotFound':
      return 'not-found';
    case 'MethodNotAllowed':
      return 'not-supported';
    case 'PayloadTooLarge':
      return 'too-costly';
    case 'TooManyRequests':
      return 'throttled';
    case 'InternalError':
      return 'exception';
    case 'ServiceUnavailable':
      return 'transient';
    case 'InvalidValue':
    case 'OutOfRange':
    case 'TooMany':
    case 'Conflict':
    case 'UnsupportedMediaType':
      return 'invalid';
  }
}

/**
 * The inputs of a GET: each query parameter a primitive; `coding` as `system|code`.
 * @param query - the query string
 */
export function inputsFromQuery(query: URLSearchParams): FhirInputs {
  return {
    value: (name) => query.get(name) ?? undefined,
    coding: (name) => {
      const v = query.get(name);
      if (v === null) {
        return undefined;
      }
      const bar = v.lastIndexOf('|');
      return bar === -1 ? { code: v } : { system: v.slice(0, bar), code: v.slice(bar + 1) };
    },
  };
}

const VALUE_KEYS = ['valueUri', 'valueUrl', 'valueCanonical', 'valueCode', 'valueString', 'valueDateTime', 'valueDate', 'valueBoolean'];

/**
 * The inputs of a POST body: an R4 Parameters resource.
 * @param text - the body
 * @returns the inputs, or a 400 `SerializationException` (issue type `structure`)
 */
export function inputsFromBody(text: string): FhirInputs | Failure {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return failure('SerializationException', 'The body is not JSON: send an R4 Parameters resource.');
  }
  if (typeof body !== 'object' || body === null || (body as { resourceType?: unknown }).resourceType !== 'Parameters') {
    return failure('SerializationException', 'The body must be a Parameters resource (resourceType "Parameters").');
  }
  const list = (body as { parameter?: unknown }).parameter ?? [];
  if (!Array.isArray(list)) {
    return failure('SerializationException', 'Parameters.parameter must be an array.');
  }
  const params = list.filter((p): p is Record<string, unknown> => typeof p === 'object' && p !== null);
  const find = (name: string): Record<string, unknown> | undefined => params.find((p) => p['name'] === name);
  return {
    value: (name) => {
      const p = find(name);
      const key = p === undefined ? undefined : VALUE_KEYS.find((k) => k in p);
      const v = key === undefined || p === undefined ? undefined : p[key];
      // A null (or an object) is no value: it was read as the code "null".
      return typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined;
    },
    coding: (name, prefer) => {
      const p = find(name);
      const concept = (p?.['valueCodeableConcept'] as { coding?: unknown } | undefined)?.coding;
      const codings: readonly unknown[] =
        p?.['valueCoding'] !== undefined ? [p['valueCoding']] : Array.isArray(concept) ? (concept as unknown[]) : [];
      const systemOf = (c: unknown): string =>
        typeof c === 'object' && c !== null && typeof (c as { system?: unknown }).system === 'string' ? (c as { system: string }).system : '';
      const coding = (prefer === undefined ? undefined : codings.find((c) => prefer(systemOf(c)))) ?? codings[0];
      if (typeof coding !== 'object' || coding === null) {
        return undefined;
      }
      const c = coding as Record<string, unknown>;
      const text = (k: string): string | undefined => (typeof c[k] === 'string' ? c[k] : undefined);
      const out: { system?: string; code?: string; version?: string; display?: string } = {};
      for (const k of ['system', 'code', 'version', 'display'] as const) {
        const v = text(k);
        if (v !== undefined) {
          out[k] = v;
        }
      }
      return out;
    },
  };
}

/**
 * An OperationOutcome: an error issue per field the failure names, its `expression` the input parameter (`code`,
 * `version`, `date`, `system`: a coding's system too), as the ServiceStack envelope's `errors` name them; one issue with the failure's type
 * and message when it names no field (credentials, throttling, no database).
 * @param f - the failure
 */
export function operationOutcome(f: FhirFailure): Record<string, unknown> {
  const issue =
    f.errors.length === 0
      ? [{ severity: 'error', code: f.issueType ?? issueTypeFor(f.errorCode), diagnostics: f.message }]
      : f.errors.map((e) => ({
          severity: 'error',
          code: f.issueType ?? issueTypeFor(e.errorCode),
          diagnostics: e.message,
          expression: [e.fieldName],
        }));
  return { resourceType: 'OperationOutcome', issue };
}

/**
 * A Parameters resource from its entries, dropping those without a value.
 * @param parameter - the output parameters
 */
export function parameters(parameter: readonly (ParameterOut | undefined)[]): Parameters {
  return { resourceType: 'Parameters', parameter: parameter.filter((p): p is ParameterOut => p !== undefined) };
}
