// The worker pool (style.md guideline 12, piscina): a fixed number of threads, each opening the reference once.
// From TypeScript sources the threads start through ts-worker.mjs (tsx's loader); from dist/ on tasks.js. The threads
// start on the first warm-up or chunk, not with the pool: a run that ends before (`--resume` of a finished run, a
// refused checkpoint) would otherwise terminate threads still loading their modules, which Node 20 can abort on
// (V8 "IsGraphAsync ... instantiated module", exit 134; about one such `--resume` in five on a 175k-line night).
// For the same reason a pool closing waits until each of its threads has loaded its modules (each posts
// THREAD_LOADED): a thread piscina started in place of one that died, or the other thread of a warm-up that failed
// in one, may still be loading when the run ends.
// Each thread holds its next chunk while it scrubs one (TASKS_PER_THREAD): handed one chunk at a time, a thread that
// finished one sat idle until the main thread, sharing two cores with both workers, took the result and sent the next
// (~1.3 s of a 17 s million-line run in each worker, sampled as piscina's Atomics.wait).
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { loadedThreadOf, type ScrubTask, type ScrubTaskResult, type WorkerInit, type WorkerLoad } from './messages.js';

/** How long a pool closing waits for threads still loading their modules. */
const CLOSE_WAIT_MS = 30_000;

/**
 * Chunks a thread holds at once: the one it scrubs and the next (its tasks run one after the other: a task is
 * synchronous). More sends chunks ahead to a thread while the other may idle.
 */
const TASKS_PER_THREAD = 2;

type LoadBalancer = NonNullable<NonNullable<ConstructorParameters<typeof Piscina>[0]>['loadBalancer']>;

/** What the pool's balancer keeps of the tasks it gave out. */
export interface BalancerState {
  /** Threads given a warm-up of the current `warm()` (which empties it first). */
  readonly warmed: Set<number>;
  /** Threads given a task to run alone, until they are seen holding none. */
  readonly alone: Set<number>;
}

/**
 * Piscina's choice of thread, with two kinds of task that go only to an idle thread: a warm-up, to one not yet given
 * one of this `warm()` (so it loads every thread: with several tasks per thread, two warm-ups could go to the thread
 * that started first); and a task to run alone (`scrubAlone`), after which that thread gets nothing until it is done
 * (a claim retried after its chunk's thread died may kill its thread again: no other claim may die with it). A chunk
 * goes to the least busy thread that holds fewer than TASKS_PER_THREAD.
 */
export function balancer(state: BalancerState): LoadBalancer {
  return (task, workers) => {
    for (const w of workers) {
      if (w.currentUsage === 0) {
        state.alone.delete(w.id);
      }
    }
    const usable = (w: (typeof workers)[number]): boolean => !w.terminating && !w.destroyed && !state.alone.has(w.id);
    if (task.name === 'warm' || task.name === 'scrubAlone') {
      const warm = task.name === 'warm';
      const idle = workers.find((w) => w.currentUsage === 0 && usable(w) && !(warm && state.warmed.has(w.id)));
      if (idle !== undefined) {
        (warm ? state.warmed : state.alone).add(idle.id);
      }
      return idle ?? null;
    }
    let pick: (typeof workers)[number] | null = null;
    for (const w of workers) {
      if (usable(w) && w.currentUsage < (pick?.currentUsage ?? TASKS_PER_THREAD)) {
        pick = w;
      }
    }
    return pick;
  };
}

/** A pool of scrub workers. */
export interface ScrubPool {
  readonly threads: number;
  /**
   * Scrubs a chunk.
   * @param options - `alone`: on a thread that holds no other task while it runs (a claim retried after its chunk's
   *   thread died)
   */
  scrub(task: ScrubTask, options?: { readonly alone?: boolean }): Promise<ScrubTaskResult>;
  /** Loads the reference in every thread; resolves to each thread's load time (ms) and heap (MB). */
  warm(): Promise<WorkerLoad[]>;
  /** Task run and queue-wait times so far: mean and p99 in ms (piscina's histograms). */
  readonly stats: () => { runMeanMs: number; runP99Ms: number; waitMeanMs: number; waitP99Ms: number };
  close(): Promise<void>;
}

/**
 * Makes the pool (its threads start when first asked for work).
 * @param threads - worker threads (at least 1)
 * @param refdataDb - the reference database each thread opens read-only
 * @param reading - how each thread reads the file: no memory map (its touched pages would count once per thread in
 *   the process's resident memory) and a 16 MiB page cache, and the V8 old-space cap per thread (320 MB)
 */
export function createScrubPool(
  threads: number,
  refdataDb: string,
  reading: Pick<WorkerInit, 'mmapBytes' | 'cacheMb'> & { maxOldGenerationMb?: number } = { mmapBytes: 0, cacheMb: 16 },
): ScrubPool {
  if (!Number.isInteger(threads) || threads < 1) {
    throw new RangeError(`Expected "threads" to be a positive integer, got ${String(threads)}`);
  }
  const fromSource = import.meta.url.endsWith('.ts');
  const tasksFile = fileURLToPath(new URL(fromSource ? './tasks.ts' : './tasks.js', import.meta.url));
  const workerData: WorkerInit & { tasksFile: string } = { refdataDb, ...reading, tasksFile };
  const state: BalancerState = { warmed: new Set(), alone: new Set() };
  // warm() calls one after the other: each gives every thread one warm-up (state.warmed is the current call's).
  let warming: Promise<unknown> = Promise.resolve();
  const options = {
    filename: fromSource ? fileURLToPath(new URL('./ts-worker.mjs', import.meta.url)) : tasksFile,
    workerData,
    minThreads: threads,
    maxThreads: threads,
    // Each thread holds the reference tables (~120 MB); idle threads are kept for the whole run.
    idleTimeout: 60_000,
    concurrentTasksPerWorker: TASKS_PER_THREAD,
    loadBalancer: balancer(state),
    // V8 lets an isolate's heap grow far past its live set (a worker reached ~600 MB resident on a 300,000-line run
    // with ~250 MB live); a cap keeps each thread's memory flat whatever the file size, at 2-10% of throughput.
    resourceLimits: { maxOldGenerationSizeMb: reading.maxOldGenerationMb ?? 320 },
  };
  let pool: Piscina | undefined;
  let closed = false;
  /** Threads that have loaded their modules (THREAD_LOADED). */
  const loaded = new Set<number>();
  const started = (): Piscina => {
    if (closed) {
      throw new TypeError('the scrub pool was asked for work after close()');
    }
    if (pool === undefined) {
      pool = new Piscina(options);
      pool.on('message', (message: unknown) => {
        const id = loadedThreadOf(message);
        if (id !== undefined) {
          loaded.add(id);
        }
      });
    }
    return pool;
  };
  return {
    threads,
    scrub: (task, options) =>
      started().run(task, { name: options?.alone === true ? 'scrubAlone' : 'scrub' }) as Promise<ScrubTaskResult>,
    warm: () => {
      const piscina = started();
      // Each warm() loads every thread once more (a run's warm-up on a pool another run warmed is at once).
      const loads = warming.then(() => {
        state.warmed.clear();
        return Promise.all(
          Array.from({ length: threads }, () => piscina.run(undefined, { name: 'warm' }) as Promise<WorkerLoad>),
        );
      });
      warming = loads.catch(() => undefined);
      return loads;
    },
    stats: () => {
      if (pool === undefined) {
        return { runMeanMs: 0, runP99Ms: 0, waitMeanMs: 0, waitP99Ms: 0 };
      }
      const { runTime, waitTime } = pool.histogram;
      return { runMeanMs: runTime.mean, runP99Ms: runTime.p99, waitMeanMs: waitTime.mean, waitP99Ms: waitTime.p99 };
    },
    close: async () => {
      closed = true;
      if (pool === undefined) {
        return;
      }
      // Threads still loading are waited for (a thread that dies leaves `threads`), for at most CLOSE_WAIT_MS.
      const until = Date.now() + CLOSE_WAIT_MS;
      while (pool.threads.some((t) => !loaded.has(t.threadId)) && Date.now() < until) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      await pool.destroy();
    },
  };
}
