// The per-key token bucket: bursts up to the bucket size, then the refill rate; a refusal says when to retry.
import { describe, expect, test } from 'vitest';
import { createRateLimiter, RATE_LIMIT_DEFAULTS, takeToken } from '../../src/accounts/index.js';

describe('token bucket', () => {
  test('defaults: a burst of 100, then 50 per second', () => {
    let now = 1_000_000;
    const limiter = createRateLimiter(RATE_LIMIT_DEFAULTS, () => now);
    for (let i = 0; i < 100; i++) {
      expect(limiter.take('ak_a')).toEqual({ allowed: true });
    }
    expect(limiter.take('ak_a')).toEqual({ allowed: false, retryAfterSeconds: 1 });
    // Other keys have their own bucket.
    expect(limiter.take('ak_b')).toEqual({ allowed: true });
    now += 1000;
    let allowed = 0;
    while (limiter.take('ak_a').allowed) {
      allowed++;
    }
    expect(allowed).toBe(50);
    now += 20;
    expect(limiter.take('ak_a')).toEqual({ allowed: true });
    expect(limiter.take('ak_a').allowed).toBe(false);
  });

  test('retryAfterSeconds rounds up the wait for one token, at least 1', () => {
    const limit = { perSecond: 0.25, burst: 1 };
    const first = takeToken(undefined, 0, limit);
    expect(first.decision).toEqual({ allowed: true });
    const second = takeToken(first.bucket, 1000, limit);
    // 0.25 token after 1 s; 0.75 more takes 3 s.
    expect(second.decision).toEqual({ allowed: false, retryAfterSeconds: 3 });
    expect(takeToken(second.bucket, 4000, limit).decision).toEqual({ allowed: true });
  });

  test('refill never exceeds the burst, and a clock going back adds nothing', () => {
    const limit = { perSecond: 10, burst: 5 };
    const { bucket } = takeToken({ tokens: 0, atMs: 0 }, 3_600_000, limit);
    expect(bucket.tokens).toBe(4);
    expect(takeToken({ tokens: 0, atMs: 5000 }, 1000, limit).decision).toEqual({
      allowed: false,
      retryAfterSeconds: 1,
    });
  });

  test('idle keys are forgotten once their buckets are full again', () => {
    let now = 0;
    const limiter = createRateLimiter({ perSecond: 1000, burst: 1 }, () => now);
    for (let i = 0; i < 10_000; i++) {
      limiter.take(`k${i}`);
    }
    expect(limiter.size()).toBe(10_000);
    now += 10;
    limiter.take('k0');
    expect(limiter.size()).toBeLessThanOrEqual(1);
  });
});
