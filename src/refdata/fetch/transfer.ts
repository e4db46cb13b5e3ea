// The I/O of one transfer attempt: an HTTP(S) GET (redirects followed, optional Range, idle timeout) or a local
// copy, streamed into the `.part` file chunk by chunk, so that the `.part` always holds exactly the bytes received.
// Deciding what an answer means is plan.ts's job; retrying and verifying is fetch-sources.ts's.
import { open } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import type { Readable } from 'node:stream';
import { ScrubberError } from '../../errors.js';
import { interpretResponse, type ResponsePlan } from './plan.js';

/**
 * A failed transfer attempt; `retryable` when a later attempt may succeed (dropped connection, 5xx, timeout);
 * `badContent` when the bytes themselves are wrong (a size other than the listed one), so a partial download is
 * worthless.
 */
export class TransferError extends ScrubberError {
  readonly retryable: boolean;
  readonly badContent: boolean;
  constructor(message: string, retryable: boolean, options?: ErrorOptions & { badContent?: boolean }) {
    super('REF_FETCH', message, options);
    this.retryable = retryable;
    this.badContent = options?.badContent ?? false;
    this.name = 'TransferError';
  }
}

/** Settings of an HTTP attempt. */
export interface HttpSettings {
  /** Abort when the connection is silent this long. */
  readonly idleTimeoutMs: number;
  readonly maxRedirects: number;
  readonly userAgent: string;
}

/** The outcome of an attempt that did not throw. */
export type AttemptResult =
  | { readonly kind: 'written'; readonly bytes: number }
  | { readonly kind: 'complete' }
  | { readonly kind: 'restart'; readonly reason: string };

const redirectStatuses = new Set([301, 302, 303, 307, 308]);

function get(url: URL, headers: Record<string, string>, settings: HttpSettings): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : url.protocol === 'http:' ? http : null;
    if (client === null) {
      reject(new TransferError(`unsupported URL protocol ${url.protocol} in ${url.href}`, false));
      return;
    }
    const req = client.get(url, { headers }, resolve);
    req.setTimeout(settings.idleTimeoutMs, () => {
      req.destroy(new TransferError(`no data from ${url.host} for ${settings.idleTimeoutMs} ms`, true));
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      // An unknown host does not appear on retry (EAI_AGAIN, a DNS hiccup, might): fail at once.
      const retryable = err.code !== 'ENOTFOUND';
      reject(
        err instanceof TransferError
          ? err
          : new TransferError(`${url.href}: ${err.message}`, retryable, { cause: err }),
      );
    });
  });
}

/** GETs `url`, following up to `maxRedirects` redirects (relative `Location` resolved against the current URL). */
async function getFollowing(
  url: string,
  headers: Record<string, string>,
  settings: HttpSettings,
): Promise<http.IncomingMessage> {
  let current = new URL(url);
  for (let hop = 0; ; hop++) {
    const res = await get(current, headers, settings);
    const location = res.headers.location;
    if (!redirectStatuses.has(res.statusCode ?? 0) || location === undefined) {
      return res;
    }
    res.resume();
    if (hop >= settings.maxRedirects) {
      throw new TransferError(`${url}: more than ${settings.maxRedirects} redirects`, false);
    }
    current = new URL(location, current);
  }
}

/**
 * Streams `body` into `partPath` from byte `offset` on (the `.part` is cut to `offset` first; 0 starts it over).
 * Each chunk is written before the next is read, so after a dropped connection the `.part` holds exactly what
 * arrived. Stops with a non-retryable error past `expectedBytes`.
 * @returns the `.part` size at the end
 */
export async function writeBody(
  body: AsyncIterable<Buffer>,
  partPath: string,
  offset: number,
  expectedBytes: number,
  onBytes: (bytes: number) => void,
): Promise<number> {
  const fh = await open(partPath, offset === 0 ? 'w' : 'r+');
  let written = offset;
  try {
    await fh.truncate(offset);
    for await (const chunk of body) {
      if (written + chunk.length > expectedBytes) {
        throw new TransferError(`size mismatch: more than the expected ${expectedBytes} bytes arrived`, false, {
          badContent: true,
        });
      }
      await fh.write(chunk, 0, chunk.length, written);
      written += chunk.length;
      onBytes(written);
    }
  } catch (err) {
    if (err instanceof TransferError) {
      throw err;
    }
    throw new TransferError(
      `connection lost after ${written} of ${expectedBytes} bytes: ${(err as Error).message}`,
      true,
      { cause: err },
    );
  } finally {
    await fh.close();
  }
  return written;
}

/**
 * One HTTP attempt: asks for the bytes from `start` on (a `Range` request when `start` > 0) and writes what the
 * server sends into `partPath` as plan.ts's `interpretResponse` directs.
 * @throws TransferError retryable for dropped connections, timeouts, 5xx and short bodies; not for 4xx or a size
 *   the server announces that differs from `expectedBytes`
 */
export async function httpAttempt(
  url: string,
  partPath: string,
  start: number,
  expectedBytes: number,
  settings: HttpSettings,
  onBytes: (bytes: number) => void,
): Promise<AttemptResult> {
  const headers: Record<string, string> = { 'user-agent': settings.userAgent, 'accept-encoding': 'identity' };
  if (start > 0) {
    headers['range'] = `bytes=${start}-`;
  }
  const res = await getFollowing(url, headers, settings);
  const plan: ResponsePlan = interpretResponse(
    res.statusCode ?? 0,
    start,
    { contentLength: res.headers['content-length'], contentRange: res.headers['content-range'] },
    expectedBytes,
  );
  if (plan.kind !== 'write') {
    res.resume();
  }
  switch (plan.kind) {
    case 'complete':
      return { kind: 'complete' };
    case 'restart':
      return { kind: 'restart', reason: plan.reason };
    case 'retry':
      throw new TransferError(`${url}: ${plan.reason}`, true);
    case 'fail':
      throw new TransferError(`${url}: ${plan.reason}`, false);
    case 'write': {
      if (plan.announcedTotal !== null && plan.announcedTotal !== expectedBytes) {
        res.destroy();
        throw new TransferError(
          `size mismatch: the server has ${plan.announcedTotal} bytes, the list expects ${expectedBytes}`,
          false,
          { badContent: true },
        );
      }
      const bytes = await writeBody(res as AsyncIterable<Buffer>, partPath, plan.offset, expectedBytes, onBytes);
      if (bytes < expectedBytes) {
        throw new TransferError(`connection closed after ${bytes} of ${expectedBytes} bytes`, true);
      }
      return { kind: 'written', bytes };
    }
  }
}

/**
 * Copies a file from a local mirror folder into `partPath` (from the start: a local copy is not resumed).
 * @throws TransferError, not retryable, when the mirror lacks the file
 */
export async function copyAttempt(
  path: string,
  partPath: string,
  expectedBytes: number,
  onBytes: (bytes: number) => void,
): Promise<AttemptResult> {
  const stream: Readable = createReadStream(path, { highWaterMark: 1 << 20 });
  try {
    await new Promise<void>((resolve, reject) => {
      stream.once('open', () => resolve());
      stream.once('error', reject);
    });
  } catch (err) {
    throw new TransferError(`cannot read ${path} in the mirror: ${(err as Error).message}`, false, { cause: err });
  }
  const bytes = await writeBody(stream as AsyncIterable<Buffer>, partPath, 0, expectedBytes, onBytes);
  return { kind: 'written', bytes };
}
