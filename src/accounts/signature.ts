// Request signing (operations.md, SigStringBasic): the signable string, the timestamp rules and the verification of
// a signed call. Pure functions: the clock and the key lookup are parameters, nothing here touches the database.
//
//   signableString = apiKey + "\n" + userName + "\n" + timeStampUtc      (timeStampUtc: yyyy-MM-ddTHH:mm:ss.fffZ)
//   signature      = Base64(HMAC-SHA256(secret, signableString))
//
// Failed verifications never tell an unknown or revoked key from a wrong signature: same code, same message, and
// an HMAC is computed either way so the timing is the same too. Neither secrets nor signatures appear in outcomes.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { AccountsFieldError, Principal, SigString, SigStringInput, SignedRequest } from '../schemas/accounts.js';
import { failure, invalid, invalidValue, success, type Outcome } from './outcomes.js';

/** The largest difference between a request's timestamp and the server clock, either way (operations.md). */
export const MAX_SKEW_MS = 5 * 60 * 1000;

/** The message of every failed signature, whatever the reason: it must not reveal whether the key exists. */
const INVALID_SIGNATURE = 'The request signature is invalid.';

// yyyy-MM-ddTHH:mm[:ss[.f…]] with Z, ±hh:mm, ±hhmm or no offset (read as UTC).
const ISO = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;
// The wire date form: /Date(1700000000000+0000)/ or /Date(1700000000000)/.
const WIRE_DATE = /^\/Date\((-?\d+)([+-]\d{4})?\)\/$/;

/**
 * Reads an ISO 8601 date-time (or the wire form `/Date(ms±hhmm)/`) into epoch milliseconds. Stricter than
 * `Date.parse`, whose accepted forms vary; a missing offset means UTC, and digits past milliseconds are dropped.
 * @param text - the timestamp
 * @returns epoch milliseconds, or `undefined` when the text is not a valid date-time
 */
export function parseTimestamp(text: string): number | undefined {
  const trimmed = text.trim();
  const wire = WIRE_DATE.exec(trimmed);
  if (wire !== null) {
    const ms = Number(wire[1]);
    // Beyond ±8.64e15 ms a Date is invalid (ECMA-262 §21.4.1.1) and cannot be formatted.
    return Math.abs(ms) <= 8.64e15 ? ms : undefined;
  }
  const m = ISO.exec(trimmed);
  if (m === null) {
    return undefined;
  }
  const [, y, mo, d, h, mi, s = '0', frac = '0', zone = 'Z'] = m as unknown as string[];
  const parts = [y, mo, d, h, mi, s].map(Number) as [number, number, number, number, number, number];
  const [year, month, day, hour, minute, second] = parts;
  const ms = Number(frac.padEnd(3, '0').slice(0, 3));
  const utc = Date.UTC(year, month - 1, day, hour, minute, second, ms);
  const check = new Date(utc);
  // Date.UTC rolls 31 February over into March; a real date reads back unchanged.
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day || hour > 23 || minute > 59 || second > 59) {
    return undefined;
  }
  if (zone.toUpperCase() === 'Z') {
    return utc;
  }
  const direction = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  const offsetMinutes = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4) || '0');
  return utc - direction * offsetMinutes * 60_000;
}

/**
 * Formats epoch milliseconds as the signed timestamp, `yyyy-MM-ddTHH:mm:ss.fffZ` in UTC.
 * @param ms - epoch milliseconds
 */
export function formatTimestampUtc(ms: number): string {
  return new Date(ms).toISOString();
}

/**
 * The string a client signs: `apiKey`, `userName` and `timeStampUtc` joined with newlines.
 * @param apiKey - the public key id
 * @param userName - the calling user
 * @param timeStampUtc - the request time as formatted by {@link formatTimestampUtc}
 */
export function signableString(apiKey: string, userName: string, timeStampUtc: string): string {
  return `${apiKey}\n${userName}\n${timeStampUtc}`;
}

/**
 * Signs a signable string: Base64(HMAC-SHA256(secret, signable)). What a client does; the server only verifies.
 * @param secret - the key's secret
 * @param signable - the output of {@link signableString}
 */
export function sign(secret: string, signable: string): string {
  return createHmac('sha256', secret).update(signable, 'utf8').digest('base64');
}

/**
 * The `SigStringBasic` operation's computation: `timeStampIso8601` wins over `timeStamp`; neither → now.
 * @param input - the request fields
 * @param nowMs - the server clock, epoch milliseconds
 * @returns `timeStampUtc` and `signableString`, or an `InvalidValue` outcome naming an unreadable timestamp field
 */
export function sigStringBasic(input: SigStringInput, nowMs: number): Outcome<SigString> {
  const errors: AccountsFieldError[] = [];
  let ms = nowMs;
  const iso = input.timeStampIso8601?.trim() ?? '';
  const plain = input.timeStamp?.trim() ?? '';
  if (iso !== '') {
    const parsed = parseTimestamp(iso);
    if (parsed === undefined) {
      errors.push(invalidValue('timeStampIso8601', iso.slice(0, 40)));
    } else {
      ms = parsed;
    }
  } else if (plain !== '') {
    const parsed = parseTimestamp(plain);
    if (parsed === undefined) {
      errors.push(invalidValue('timeStamp', plain.slice(0, 40)));
    } else {
      ms = parsed;
    }
  }
  if (errors.length > 0) {
    return invalid(errors);
  }
  const timeStampUtc = formatTimestampUtc(ms);
  return success({
    timeStampUtc,
    signableString: signableString(input.apiKey ?? '', input.userName ?? '', timeStampUtc),
  });
}

/** What verification needs to know about a key; `undefined` from the lookup means no such key. */
export interface KeyForVerification {
  readonly secret: string;
  readonly userName: string;
  readonly entityId: number;
  readonly revoked: boolean;
}

/** Options of {@link verifySignature}. */
export interface VerifyOptions {
  /** Allowed clock skew either way. @default MAX_SKEW_MS (5 minutes) */
  readonly maxSkewMs?: number;
}

// Compared against when the key is unknown or revoked, so that path costs one HMAC and one compare like the others.
const DECOY_SECRET = 'decoy-secret-for-constant-time-failure';

/**
 * Verifies a signed call.
 *
 * Steps: read the timestamp (unreadable → `InvalidSignature`); skew over the limit either way → `SignatureExpired`
 * (decided before the key is looked up, so it reveals nothing about keys); compute the expected HMAC with the key's
 * secret, or a decoy when the key is unknown or revoked; compare in constant time; a mismatch, an unknown or revoked
 * key, or a user other than the key's → `InvalidSignature`, all with one message.
 * @param request - the four signed headers
 * @param lookup - finds a key by id (never logs or returns the secret)
 * @param nowMs - the server clock, epoch milliseconds
 * @param options - allowed skew
 * @returns the caller, or a 401 outcome
 */
export function verifySignature(
  request: SignedRequest,
  lookup: (apiKey: string) => KeyForVerification | undefined,
  nowMs: number,
  options: VerifyOptions = {},
): Outcome<Principal> {
  const maxSkewMs = options.maxSkewMs ?? MAX_SKEW_MS;
  const at = parseTimestamp(request.timestamp);
  if (at === undefined) {
    return failure('InvalidSignature', INVALID_SIGNATURE);
  }
  if (Math.abs(nowMs - at) > maxSkewMs) {
    return failure(
      'SignatureExpired',
      `The request timestamp is more than ${maxSkewMs / 60_000} minutes from the server clock.`,
    );
  }
  const key = lookup(request.apiKey);
  const usable = key !== undefined && !key.revoked;
  const expected = createHmac('sha256', usable ? key.secret : DECOY_SECRET)
    .update(signableString(request.apiKey, request.userName, formatTimestampUtc(at)), 'utf8')
    .digest();
  const given = Buffer.from(request.signature.trim(), 'base64');
  // timingSafeEqual needs equal lengths; a wrong length is compared against itself so the work stays the same.
  const sameLength = given.length === expected.length;
  const equal = timingSafeEqual(sameLength ? given : expected, expected) && sameLength;
  if (!usable || !equal || key.userName !== request.userName) {
    return failure('InvalidSignature', INVALID_SIGNATURE);
  }
  return success({ apiKey: request.apiKey, entityId: key.entityId, userName: key.userName });
}

/** Verified signatures remembered before the memory is dropped and refilled. */
const MAX_REMEMBERED_SIGNATURES = 10_000;

/**
 * {@link verifySignature} with a memory of the signatures it accepted. A signature covers only the key, the user
 * and the timestamp, so clients sign once and send the same four headers with every call for up to 5 minutes:
 * the HMAC, the timestamp parsing and the formatting then run once per signature instead of once per call. A
 * remembered signature is accepted again only while its timestamp is within the skew and the key lookup still
 * answers the very key object it was verified with: a revoke (through this connection, or seen via data_version)
 * makes the lookup read the key again, so the next call is verified in full and fails. Failures are never
 * remembered, and a hit reveals nothing: it needs the exact valid signature.
 * @param lookup - finds a key by id (the api-key store's remembering lookup)
 * @param options - allowed skew
 * @returns verify(request, nowMs)
 */
export function rememberingVerifier(
  lookup: (apiKey: string) => KeyForVerification | undefined,
  options: VerifyOptions = {},
): (request: SignedRequest, nowMs: number) => Outcome<Principal> {
  const maxSkewMs = options.maxSkewMs ?? MAX_SKEW_MS;
  // By signature (an HMAC: two header sets sharing one are the same set, and the other three values are compared
  // anyway), so a call costs a map lookup and three string compares, not a joined key.
  const remembered = new Map<string, RememberedSignature>();
  return (request, nowMs) => {
    const hit = remembered.get(request.signature);
    if (
      hit !== undefined &&
      hit.request.apiKey === request.apiKey &&
      hit.request.userName === request.userName &&
      hit.request.timestamp === request.timestamp &&
      Math.abs(nowMs - hit.at) <= maxSkewMs &&
      lookup(request.apiKey) === hit.key
    ) {
      return hit.outcome;
    }
    const outcome = verifySignature(request, lookup, nowMs, options);
    const key = outcome.ok ? lookup(request.apiKey) : undefined;
    const at = parseTimestamp(request.timestamp);
    if (key !== undefined && at !== undefined) {
      if (remembered.size >= MAX_REMEMBERED_SIGNATURES) {
        remembered.clear();
      }
      remembered.set(request.signature, { request, key, at, outcome });
    }
    return outcome;
  };
}

/** A signature accepted before, with what it was accepted for. */
interface RememberedSignature {
  readonly request: SignedRequest;
  readonly key: KeyForVerification;
  readonly at: number;
  readonly outcome: Outcome<Principal>;
}
