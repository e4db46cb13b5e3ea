import { Worker } from 'node:worker_threads';
import { expect, test } from 'vitest';
import { createScrubPool } from '../../src/workers/pool.js';
import { sharedReferenceDbPath } from '../helpers/reference-db.js';

/** The id the next worker thread of this process gets, less one: thread ids are handed out in order. */
function lastThreadId(): number {
  const probe = new Worker('', { eval: true });
  void probe.terminate();
  return probe.threadId;
}

test('starts its threads on the first warm-up, not when made: a run that ends before never terminates one mid-load', async () => {
  const before = lastThreadId();
  const pool = createScrubPool(2, await sharedReferenceDbPath());
  try {
    // Only the probe's own thread since: the pool started none (and has no figures yet).
    expect(lastThreadId()).toBe(before + 1);
    expect(pool.stats().runMeanMs).toBe(0);
    const loads = await pool.warm();
    expect(loads).toHaveLength(2);
    // The probe, the pool's two threads (from TypeScript sources each with its loader's own thread), the probe.
    expect(lastThreadId()).toBeGreaterThanOrEqual(before + 4);
  } finally {
    await pool.close();
  }
  // A pool never asked for work closes without starting a thread.
  const closedAt = lastThreadId();
  const idle = createScrubPool(2, await sharedReferenceDbPath());
  await idle.close();
  expect(lastThreadId()).toBe(closedAt + 1);
  // Closed is closed: no thread starts after it.
  expect(() => idle.warm()).toThrow(/after close\(\)/);
});
