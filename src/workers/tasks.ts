// Inside a worker thread (style.md guideline 12): the reference database is opened read-only and its in-memory
// tables the validation engine reads loaded once per thread, on the first task; `scrub` is the named task the pool
// runs.
import { parentPort, threadId, workerData } from 'node:worker_threads';
import { openReference, type Reference } from '../reference/index.js';
import { THREAD_LOADED, type ScrubTask, type ScrubTaskResult, type WorkerInit, type WorkerLoad } from './messages.js';
import { scrubChunk } from './scrub-chunk.js';

let ref: Reference | undefined;

/** The thread's reference, opened and loaded on first use. */
function reference(): Reference {
  if (ref === undefined) {
    const init = workerData as WorkerInit;
    ref = openReference(init.refdataDb, { mmapBytes: init.mmapBytes, cacheMb: init.cacheMb });
    ref.load('validation');
  }
  return ref;
}

/**
 * Scrubs one chunk in this thread.
 * @param task - the chunk
 */
export function scrub(task: ScrubTask): ScrubTaskResult {
  return scrubChunk(reference(), task);
}

/** {@link scrub}, under the name the pool gives a task that runs alone on its thread (see pool.ts). */
export const scrubAlone = scrub;

/** Opens the reference now (the pool warms each thread before the first chunk); returns load time and heap. */
export function warm(): WorkerLoad {
  const t0 = performance.now();
  reference();
  return { thread: threadId, ms: performance.now() - t0, heapMb: process.memoryUsage().heapUsed / 2 ** 20 };
}

// Loaded: a pool closing may now terminate this thread (see THREAD_LOADED).
parentPort?.postMessage({ [THREAD_LOADED]: threadId });
