// Fetches the listed official files into the sources folder, one after another:
//
//   entry ──stat/sha256 of <final>, size of <final>.part──> planEntry ──keep──> 'present'
//     └─fetch──> locate (mirror or official URL) ──attempt: GET (Range from .part size) or copy ──> <final>.part
//          ↑ dropped connection / 5xx / timeout: backoff, retry (bounded), resume          │
//          └───────────────────────────────────────────────────────────────────────────────┘
//     <final>.part ──sha256 + size == listed?──yes──> rename to <final> ('fetched')
//                                             └─no──> delete .part, 'failed' naming expected and actual hash
//
// No file ever has its final name before its checksum matched. Failures are returned per file, not thrown.
import { createHash } from 'node:crypto';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { setTimeout as sleepMs } from 'node:timers/promises';
import {
  backoffDelay,
  describeLocation,
  locate,
  mismatchMessage,
  planEntry,
  resumeOffset,
  type LocalState,
  type Mirror,
} from './plan.js';
import { sha256File } from '../../readers/byte-source.js';
import type { SourceEntry } from './sources-manifest.js';
import { copyAttempt, httpAttempt, TransferError, type AttemptResult, type HttpSettings } from './transfer.js';

/** What happened to one listed file. */
export type FetchOutcome =
  /** Already in the sources folder with the listed sha256: nothing done. */
  | { readonly status: 'present'; readonly entry: SourceEntry }
  /** Fetched and verified; `resumedFrom` > 0 when some attempt continued a partial download. */
  | {
      readonly status: 'fetched';
      readonly entry: SourceEntry;
      readonly from: string;
      readonly attempts: number;
      readonly resumedFrom: number;
    }
  /** Not fetched: no mirror was given and the file has no official download URL. */
  | { readonly status: 'unavailable'; readonly entry: SourceEntry; readonly reason: string }
  /** Failed: `partKept` when a partial download was kept for the next run to resume. */
  | {
      readonly status: 'failed';
      readonly entry: SourceEntry;
      readonly from: string;
      readonly message: string;
      readonly partKept: boolean;
    };

/** Progress events; every method is optional. */
export interface FetchReporter {
  start?(entry: SourceEntry, from: string, resumeFrom: number, replacing: boolean): void;
  /** `bytes` received so far of `entry.bytes`. */
  progress?(entry: SourceEntry, bytes: number): void;
  retry?(entry: SourceEntry, attempt: number, delayMs: number, reason: string): void;
  done?(outcome: FetchOutcome): void;
}

/** Options of `fetchSources`. */
export interface FetchOptions {
  readonly entries: readonly SourceEntry[];
  /** The sources folder files are written into (same relative layout as the list). */
  readonly dest: string;
  readonly mirror?: Mirror | undefined;
  readonly reporter?: FetchReporter | undefined;
  /** Attempts per file, the first included. @default 5 */
  readonly maxAttempts?: number | undefined;
  /** First backoff delay; doubles per retry. @default 1000 */
  readonly retryBaseMs?: number | undefined;
  /** @default 30000 */
  readonly retryMaxMs?: number | undefined;
  /** @default 60000 */
  readonly idleTimeoutMs?: number | undefined;
}

async function sizeOf(path: string): Promise<number | null> {
  try {
    const info = await stat(path);
    return info.isFile() ? info.size : null;
  } catch {
    return null;
  }
}

async function localState(entry: SourceEntry, finalPath: string, partPath: string): Promise<LocalState> {
  const finalBytes = await sizeOf(finalPath);
  const finalSha256 = finalBytes === entry.bytes ? await sha256File(finalPath) : null;
  return { finalBytes, finalSha256, partBytes: await sizeOf(partPath) };
}

/** Where `entry` lives under `dest`. */
export function destPath(dest: string, entry: SourceEntry): string {
  return join(dest, ...entry.file.split('/'));
}

async function fetchOne(entry: SourceEntry, options: FetchOptions): Promise<FetchOutcome> {
  const reporter = options.reporter ?? {};
  const finalPath = destPath(options.dest, entry);
  const partPath = `${finalPath}.part`;
  const step = planEntry(entry, await localState(entry, finalPath, partPath));
  if (step.action === 'keep') {
    return { status: 'present', entry };
  }
  const location = locate(entry, options.mirror);
  if (location.kind === 'none') {
    const present = step.replacing ? ' (the file present has a different checksum and was left as it is)' : '';
    return { status: 'unavailable', entry, reason: location.reason + present };
  }
  const from = describeLocation(location);
  await mkdir(dirname(finalPath), { recursive: true });
  const settings: HttpSettings = {
    idleTimeoutMs: options.idleTimeoutMs ?? 60_000,
    maxRedirects: 10,
    userAgent: 'claim-scrubber-data-fetch/1 (node)',
  };
  const maxAttempts = Math.max(1, options.maxAttempts ?? 5);
  const onBytes = (bytes: number): void => reporter.progress?.(entry, bytes);
  const fail = async (message: string, keepPart: boolean): Promise<FetchOutcome> => {
    if (!keepPart) {
      await rm(partPath, { force: true });
    }
    const partKept = keepPart && (await sizeOf(partPath)) !== null;
    return { status: 'failed', entry, from, message, partKept };
  };

  reporter.start?.(entry, from, location.kind === 'http' ? step.resumeFrom : 0, step.replacing);
  let attempts = 0;
  let resumedFrom = 0;
  for (;;) {
    attempts++;
    let result: AttemptResult;
    try {
      if (location.kind === 'file') {
        result = await copyAttempt(location.path, partPath, entry.bytes, onBytes);
      } else {
        const start = resumeOffset(await sizeOf(partPath), entry.bytes);
        if (start === entry.bytes) {
          break;
        }
        resumedFrom = Math.max(resumedFrom, start);
        result = await httpAttempt(location.url, partPath, start, entry.bytes, settings, onBytes);
      }
    } catch (err) {
      const retryable = err instanceof TransferError && err.retryable;
      const message = `${entry.file}: ${(err as Error).message}`;
      if (!retryable) {
        // A partial download stays for the next run unless its bytes are known to be wrong.
        return fail(message, location.kind === 'http' && !(err instanceof TransferError && err.badContent));
      }
      if (attempts >= maxAttempts) {
        return fail(`${message} (gave up after ${attempts} attempts)`, location.kind === 'http');
      }
      const delay = backoffDelay(attempts, options.retryBaseMs ?? 1000, options.retryMaxMs ?? 30_000);
      reporter.retry?.(entry, attempts, delay, (err as Error).message);
      await sleepMs(delay);
      continue;
    }
    if (result.kind === 'restart') {
      await rm(partPath, { force: true });
      if (attempts >= maxAttempts) {
        return fail(`${entry.file}: ${result.reason} (gave up after ${attempts} attempts)`, false);
      }
      reporter.retry?.(entry, attempts, 0, result.reason);
      continue;
    }
    break;
  }

  const partBytes = await sizeOf(partPath);
  const bytes = partBytes ?? 0;
  const actual = partBytes === null ? createHash('sha256').digest('hex') : await sha256File(partPath);
  if (bytes !== entry.bytes || actual !== entry.sha256) {
    return fail(mismatchMessage(entry, actual, bytes, from), false);
  }
  await rename(partPath, finalPath);
  return { status: 'fetched', entry, from, attempts, resumedFrom };
}

/**
 * Fetches every entry into `options.dest`, one at a time, verifying each file's sha256 and size before it takes its
 * final name; a file already present with the listed checksum is kept. One file's failure does not stop the others.
 * @returns one outcome per entry, in list order
 */
export async function fetchSources(options: FetchOptions): Promise<FetchOutcome[]> {
  const outcomes: FetchOutcome[] = [];
  for (const entry of options.entries) {
    const outcome = await fetchOne(entry, options);
    options.reporter?.done?.(outcome);
    outcomes.push(outcome);
  }
  return outcomes;
}
