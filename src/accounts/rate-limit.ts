// Per-key rate limiting with a token bucket (issue 3: 50 requests/s, bursts of 100 by default). The bucket
// arithmetic is a pure function of (bucket, now); createRateLimiter keeps one bucket per key in memory.
// Buckets are per process: with several server processes each enforces its own limit.
import type { RateLimitConfig } from '../schemas/accounts.js';

/** Defaults of the token bucket. */
export const RATE_LIMIT_DEFAULTS: RateLimitConfig = { perSecond: 50, burst: 100 };

/** Held buckets above which a sweep may run before the minute is up. */
const SWEEP_AT_KEYS = 10_000;

/** One key's bucket: tokens left as of `atMs`. */
export interface TokenBucket {
  readonly tokens: number;
  readonly atMs: number;
}

/** The answer for one request. */
export type RateDecision = { readonly allowed: true } | { readonly allowed: false; readonly retryAfterSeconds: number };

/**
 * Takes one token for a request. Pure: returns the new bucket with the decision.
 * @param bucket - the key's bucket, `undefined` for a key not seen yet (a full bucket)
 * @param nowMs - the clock, epoch milliseconds
 * @param limit - refill rate and bucket size
 * @returns the decision (`retryAfterSeconds` is whole seconds, at least 1, for the `Retry-After` header) and the
 *   bucket to keep
 */
export function takeToken(
  bucket: TokenBucket | undefined,
  nowMs: number,
  limit: RateLimitConfig = RATE_LIMIT_DEFAULTS,
): { readonly decision: RateDecision; readonly bucket: TokenBucket } {
  const elapsedMs = bucket === undefined ? 0 : Math.max(0, nowMs - bucket.atMs);
  const available = Math.min(limit.burst, (bucket?.tokens ?? limit.burst) + (elapsedMs / 1000) * limit.perSecond);
  if (available >= 1) {
    return { decision: { allowed: true }, bucket: { tokens: available - 1, atMs: nowMs } };
  }
  const retryAfterSeconds = Math.max(1, Math.ceil((1 - available) / limit.perSecond));
  return { decision: { allowed: false, retryAfterSeconds }, bucket: { tokens: available, atMs: nowMs } };
}

/** A rate limiter holding one bucket per key. */
export interface RateLimiter {
  /** Takes a token for `key` (an API key id). */
  readonly take: (key: string) => RateDecision;
  /** Keys with a bucket in memory. */
  readonly size: () => number;
}

/**
 * Creates a rate limiter. Buckets that have refilled completely are dropped now and then, so memory follows the
 * number of recently active keys, not every key ever seen.
 * @param limit - refill rate and bucket size @default RATE_LIMIT_DEFAULTS
 * @param now - the clock, epoch milliseconds @default Date.now
 */
export function createRateLimiter(
  limit: RateLimitConfig = RATE_LIMIT_DEFAULTS,
  now: () => number = Date.now,
): RateLimiter {
  const buckets = new Map<string, TokenBucket>();
  const fullAfterMs = (limit.burst / limit.perSecond) * 1000;
  let lastSweepMs = now();

  // A bucket untouched for fullAfterMs is full: forgetting it changes no decision. Sweeps run once a minute, or
  // sooner when many keys are held, and never more often than buckets can refill.
  const maybeSweep = (nowMs: number): void => {
    const since = nowMs - lastSweepMs;
    if (since < fullAfterMs || (since < 60_000 && buckets.size < SWEEP_AT_KEYS)) {
      return;
    }
    lastSweepMs = nowMs;
    for (const [key, b] of buckets) {
      if (nowMs - b.atMs >= fullAfterMs) {
        buckets.delete(key);
      }
    }
  };

  return {
    take(key) {
      const nowMs = now();
      maybeSweep(nowMs);
      const { decision, bucket } = takeToken(buckets.get(key), nowMs, limit);
      buckets.set(key, bucket);
      return decision;
    },
    size: () => buckets.size,
  };
}
