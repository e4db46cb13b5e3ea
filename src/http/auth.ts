// Who is calling and what the call costs: the onRequest hooks that authenticate (signed headers or a session token)
// and throttle (a token bucket per API key), the onResponse hook that counts usage, and principalOf() for the
// operations that act for a user. The cryptography and the stores are src/accounts; this file only reads headers,
// picks the check and maps its answer onto the wire.
//
//   public operation (Hello, Demo, SigStringBasic, CheckSession, Authenticate)? ─ yes ─► no caller, no check
//        │ no
//        ▼
//   X-Api-Signature sent? ─ yes ─► verifySignature(X-Api-Key, X-Api-User, X-Api-Timestamp, X-Api-Signature)
//        │ no                        └─ 401 Unauthorized (a header missing) | InvalidSignature | SignatureExpired
//        ▼
//   X-Svc-Token header, else ?svcToken= ─ yes ─► checkSession ─ 401 SessionExpired | Unauthorized
//        │ no
//        ▼
//   401 Unauthorized        With http.auth off nothing is rejected: credentials that verify still name the caller.
//        ▼ call.caller = { key: apiKey, principal, via }
//   rate limit: one token from the bucket of caller.key ─ 429 TooManyRequests + Retry-After
//        ▼
//   … body, binding, handler, reply … ─► onResponse: recordUsage(entity, user, operation, UTC day), not 429s
import type { IncomingHttpHeaders } from 'node:http';
import type { Logger } from 'pino';
import type { Accounts, RateLimiter } from '../accounts/index.js';
import type { Principal, SignedRequest } from '../schemas/accounts.js';
import type { CallHook, ResponseHook, WireCall } from './wire/operation.js';
import { utcDayMemo } from './utc-day.js';
import { failure, isOutcome, type Outcome } from './wire/outcome.js';

/** The request headers of a signed call, lower-cased as node:http delivers them. */
export const SIGNED_HEADERS = {
  apiKey: 'x-api-key',
  userName: 'x-api-user',
  timestamp: 'x-api-timestamp',
  signature: 'x-api-signature',
} as const;

/** The request header carrying a session token. */
export const SESSION_HEADER = 'x-svc-token';

/** The query parameter carrying a session token where headers cannot be set (script tags, JSONP). */
export const SESSION_QUERY = 'svctoken';

const MISSING_SIGNED_HEADER =
  'A signed request needs all of X-Api-Key, X-Api-User, X-Api-Timestamp and X-Api-Signature.';
const NO_CREDENTIALS =
  'This operation needs credentials: sign the request (X-Api-* headers) or send a session token (X-Svc-Token).';
const UNKNOWN_SESSION = 'The session token is not valid.';
const NEEDS_PRINCIPAL =
  'This operation acts for a user: sign the request or send a session token, even when authentication is off.';

function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  const text = typeof value === 'string' ? value.trim() : undefined;
  return text === '' ? undefined : text;
}

/**
 * Reads the signed headers of a call.
 * @param headers - the request headers
 * @returns the four values; `'absent'` when no X-Api-Signature was sent; `'partial'` when it was but another is
 *   missing
 */
export function signedRequestOf(headers: IncomingHttpHeaders): SignedRequest | 'absent' | 'partial' {
  const signature = header(headers, SIGNED_HEADERS.signature);
  if (signature === undefined) {
    return 'absent';
  }
  const apiKey = header(headers, SIGNED_HEADERS.apiKey);
  const userName = header(headers, SIGNED_HEADERS.userName);
  const timestamp = header(headers, SIGNED_HEADERS.timestamp);
  if (apiKey === undefined || userName === undefined || timestamp === undefined) {
    return 'partial';
  }
  return { apiKey, userName, timestamp, signature };
}

/**
 * The session token of a call: the `X-Svc-Token` header, else the `svcToken` query parameter (any case).
 * @param call - the call
 */
export function sessionTokenOf(call: Pick<WireCall, 'headers' | 'query'>): string | undefined {
  const fromHeader = header(call.headers, SESSION_HEADER);
  if (fromHeader !== undefined) {
    return fromHeader;
  }
  for (const [key, value] of call.query) {
    if (key.toLowerCase() === SESSION_QUERY && value.trim() !== '') {
      return value.trim();
    }
  }
  return undefined;
}

/**
 * Establishes the caller from the credentials of a call.
 * @param accounts - the application database
 * @param call - the call
 * @returns the caller, `undefined` when no credentials were sent, or a 401 outcome
 */
export function identify(accounts: Accounts, call: WireCall): WireCall['caller'] | Outcome | undefined {
  const signed = signedRequestOf(call.headers);
  if (signed === 'partial') {
    return failure('Unauthorized', MISSING_SIGNED_HEADER);
  }
  if (signed !== 'absent') {
    const verified = accounts.verifySignature(signed);
    return verified.ok ? { key: verified.value.apiKey, principal: verified.value, via: 'signature' } : verified;
  }
  const token = sessionTokenOf(call);
  if (token === undefined) {
    return undefined;
  }
  const session = accounts.checkSession(token);
  if (session.valid) {
    return { key: session.principal.apiKey, principal: session.principal, via: 'session' };
  }
  return session.reason === 'expired' ? failure('SessionExpired') : failure('Unauthorized', UNKNOWN_SESSION);
}

/** What the authentication hook needs. */
export interface AuthHookOptions {
  readonly accounts: Accounts;
  /** `http.auth`: whether operations that are not public reject calls without valid credentials. */
  readonly required: boolean;
  /** For one debug line per rejected call: operation and code, never a header value. */
  readonly log: Logger;
}

/**
 * The authentication hook (onRequest, first). Public operations are not looked at. Otherwise the caller comes
 * from the signed headers or a session token; without valid credentials the call is answered 401, unless
 * authentication is off, in which case it goes on without a caller.
 * @param options - the accounts store, whether credentials are required, a logger
 */
export function authHook(options: AuthHookOptions): CallHook {
  const { accounts, required, log } = options;
  return (call) => {
    if (call.operation.public) {
      return undefined;
    }
    const found = identify(accounts, call);
    if (found !== undefined && !isOutcome(found)) {
      call.caller = found;
      return undefined;
    }
    if (!required) {
      return undefined;
    }
    const rejection = found ?? failure('Unauthorized', NO_CREDENTIALS);
    log.debug({ operation: call.operation.name, errorCode: rejection.errorCode }, 'call rejected');
    return rejection;
  };
}

/**
 * The rate-limit hook (onRequest, after authentication): one token per call from the caller's bucket; an empty
 * bucket answers 429 with `Retry-After`. Calls without a caller (public operations, auth off) are not throttled.
 * @param limiter - the per-key token buckets
 */
export function rateLimitHook(limiter: RateLimiter): CallHook {
  return (call) => {
    if (call.caller === undefined) {
      return undefined;
    }
    const decision = limiter.take(call.caller.key);
    if (decision.allowed) {
      return undefined;
    }
    const seconds = decision.retryAfterSeconds;
    return failure('TooManyRequests', undefined, { params: { seconds }, headers: { 'Retry-After': String(seconds) } });
  };
}

/**
 * The usage hook (onResponse): counts every call that had a caller, whatever its status, except those refused by
 * the rate limit. Counting is an in-memory increment; the accounts store writes counts in batches.
 * @param accounts - the application database
 * @param now - the server clock (the count's UTC day)
 */
export function usageHook(accounts: Accounts, now: () => Date): ResponseHook {
  // The day's name is formatted once per UTC day, not per call.
  const dayOf = utcDayMemo();
  return (call, status) => {
    const caller = call.caller;
    if (caller === undefined || status === 429) {
      return;
    }
    const day = dayOf(now().getTime());
    const { entityId, userName } = caller.principal;
    accounts.recordUsage(entityId, userName, call.operation.name, day);
  };
}

/**
 * The verified caller of an operation that acts for a user (favorites, usage report).
 * @param call - the call
 * @returns the principal, or a 401 `Unauthorized` outcome when the call has none (authentication off and no
 *   credentials sent)
 */
export function principalOf(call: WireCall): Principal | Outcome {
  return call.caller?.principal ?? failure('Unauthorized', NEEDS_PRINCIPAL);
}
