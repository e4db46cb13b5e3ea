// Inside a worker thread (style.md guideline 12): the reference database is opened read-only and its in-memory
// tables the validation engine reads loaded once per thread, on the first task; `scrub` is the named task the pool
// runs.
import { parentPort, threadId, workerData } from 'node:worker_threads';
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { openReference, type Reference } from '../reference/index.js';
import { textBytes, THREAD_LOADED, type ScrubTask, type ScrubTaskResult, type WorkerInit, type WorkerLoad } from './messages.js';
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
 * An answer whose report texts cross to the main thread as UTF-8 bytes in buffers handed over, not copied (piscina's
 * transferable interface; see ReportText).
 */
class MovedResult {
  readonly [valueSymbol]: ScrubTaskResult;
  readonly [transferableSymbol]: ArrayBuffer[];
  constructor(result: ScrubTaskResult) {
    const moved: ScrubTaskResult = {
      ...result,
      findingsCsv: textBytes(result.findingsCsv),
      findingsNdjson: textBytes(result.findingsNdjson),
      rejectedCsv: textBytes(result.rejectedCsv),
      claimFrames: textBytes(result.claimFrames),
    };
    this[valueSymbol] = moved;
    this[transferableSymbol] = [moved.findingsCsv, moved.findingsNdjson, moved.rejectedCsv, moved.claimFrames].map(
      (t) => (t as Uint8Array).buffer as ArrayBuffer,
    );
  }
}

/**
 * Scrubs one chunk in this thread; the pool receives a ScrubTaskResult with its texts as bytes.
 * @param task - the chunk
 */
export function scrub(task: ScrubTask): MovedResult {
  return move(new MovedResult(scrubChunk(reference(), task))) as MovedResult;
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
