// The pure decisions of `data:fetch`, kept apart from the I/O: which entries `--only` selects, where each file comes
// from (official URL, folder mirror or HTTP mirror), whether a file on disk is kept, where a resumed download
// starts, what an HTTP answer to a Range request means, and how long to back off before a retry.
import { join } from 'node:path';
import type { SourceEntry } from './sources-manifest.js';

/** A mirror of the sources folder: a local folder, or an HTTP(S) base URL (file = base + relative path). */
export type Mirror = { readonly kind: 'dir'; readonly dir: string } | { readonly kind: 'http'; readonly base: string };

/** Where one file is read from. */
export type Location =
  | { readonly kind: 'http'; readonly url: string }
  | { readonly kind: 'file'; readonly path: string }
  | { readonly kind: 'none'; readonly reason: string };

/**
 * Interprets the `--mirror` value: `http(s)://…` is an HTTP mirror, `file://…` or anything else a local folder.
 * @throws TypeError when the value is empty
 */
export function parseMirror(value: string): Mirror {
  if (value.trim() === '') {
    throw new TypeError('Expected --mirror to be a folder or an http(s) URL, got an empty value');
  }
  if (/^https?:\/\//i.test(value)) {
    return { kind: 'http', base: value };
  }
  if (/^file:\/\//i.test(value)) {
    return { kind: 'dir', dir: decodeURIComponent(new URL(value).pathname) };
  }
  return { kind: 'dir', dir: value };
}

/** The URL of `file` under an HTTP mirror base, each path segment percent-encoded (`a b.zip` → `a%20b.zip`). */
export function mirrorUrl(base: string, file: string): string {
  const prefix = base.endsWith('/') ? base : `${base}/`;
  return prefix + file.split('/').map(encodeURIComponent).join('/');
}

/** Where `entry` is fetched from: the mirror when one is given, otherwise its official URL, if it has one. */
export function locate(entry: SourceEntry, mirror?: Mirror): Location {
  if (mirror?.kind === 'dir') {
    return { kind: 'file', path: join(mirror.dir, ...entry.file.split('/')) };
  }
  if (mirror?.kind === 'http') {
    return { kind: 'http', url: mirrorUrl(mirror.base, entry.file) };
  }
  if (entry.url !== null) {
    return { kind: 'http', url: entry.url };
  }
  return { kind: 'none', reason: entry.note ?? 'no official download URL' };
}

/** Describes a location for messages. */
export function describeLocation(loc: Location): string {
  switch (loc.kind) {
    case 'http':
      return loc.url;
    case 'file':
      return loc.path;
    case 'none':
      return 'nowhere';
  }
}

/** The entries `--only` selects (dataset names), and the names that match no entry. No names select all. */
export function selectSources(
  entries: readonly SourceEntry[],
  only?: readonly string[],
): { readonly selected: SourceEntry[]; readonly unknown: string[] } {
  if (only === undefined || only.length === 0) {
    return { selected: [...entries], unknown: [] };
  }
  const wanted = new Set(only);
  const known = new Set(entries.map((e) => e.dataset));
  return {
    selected: entries.filter((e) => wanted.has(e.dataset)),
    unknown: only.filter((n) => !known.has(n)),
  };
}

/** What is on disk for one entry before fetching. `finalSha256` is computed only when the size already matches. */
export interface LocalState {
  readonly finalBytes: number | null;
  readonly finalSha256: string | null;
  readonly partBytes: number | null;
}

/** What to do with one entry. */
export type Step =
  { readonly action: 'keep' } | { readonly action: 'fetch'; readonly resumeFrom: number; readonly replacing: boolean };

/**
 * Decides whether a file already present is kept (right size and sha256) or fetched, and from which offset a
 * leftover `.part` lets the download resume.
 */
export function planEntry(entry: SourceEntry, state: LocalState): Step {
  if (state.finalBytes === entry.bytes && state.finalSha256 === entry.sha256) {
    return { action: 'keep' };
  }
  return {
    action: 'fetch',
    resumeFrom: resumeOffset(state.partBytes, entry.bytes),
    replacing: state.finalBytes !== null,
  };
}

/** Offset a download resumes from, given the `.part` size: 0 when there is none or it is longer than the file. */
export function resumeOffset(partBytes: number | null, expectedBytes: number): number {
  if (partBytes === null || partBytes < 0 || partBytes > expectedBytes) {
    return 0;
  }
  return partBytes;
}

/** A parsed `Content-Range: bytes first-last/total` header (`total` null for `*`). */
export interface ContentRange {
  readonly first: number;
  readonly last: number;
  readonly total: number | null;
}

/** Parses a `Content-Range` header of a 206 answer; null when absent or malformed. */
export function parseContentRange(header: string | undefined): ContentRange | null {
  const m = header === undefined ? null : /^bytes\s+(\d+)-(\d+)\/(\d+|\*)$/i.exec(header.trim());
  if (!m) {
    return null;
  }
  const total = m[3] === '*' ? null : Number(m[3]);
  return { first: Number(m[1]), last: Number(m[2]), total };
}

/** What an HTTP answer to a (possibly ranged) GET means for the `.part` file. */
export type ResponsePlan =
  /** Write the body after the `.part`'s first `offset` bytes (0: truncate and start over). */
  | { readonly kind: 'write'; readonly offset: number; readonly announcedTotal: number | null }
  /** The `.part` already holds the whole file (416 to a range starting at its end): verify it. */
  | { readonly kind: 'complete' }
  /** Discard the `.part` and ask again without a range. */
  | { readonly kind: 'restart'; readonly reason: string }
  /** A transient failure (429, 5xx, 408): retry after backoff. */
  | { readonly kind: 'retry'; readonly reason: string }
  /** A permanent failure (404, 403, …). */
  | { readonly kind: 'fail'; readonly reason: string };

/**
 * Interprets the status and headers of an answer (redirects already followed) to a GET that asked for the bytes
 * from `requestedStart` on (RFC 9110 §14: 206 with Content-Range; a server that ignores Range answers 200 with
 * the whole file, so the download restarts from 0).
 */
export function interpretResponse(
  status: number,
  requestedStart: number,
  headers: { readonly contentLength?: string | undefined; readonly contentRange?: string | undefined },
  expectedBytes: number,
): ResponsePlan {
  if (status === 200) {
    const length = headers.contentLength === undefined ? NaN : Number(headers.contentLength);
    return { kind: 'write', offset: 0, announcedTotal: Number.isFinite(length) ? length : null };
  }
  if (status === 206) {
    const range = parseContentRange(headers.contentRange);
    if (range === null || range.first !== requestedStart) {
      return {
        kind: 'restart',
        reason: `206 answer with Content-Range ${headers.contentRange ?? '(none)'} to a request for bytes ${requestedStart}-`,
      };
    }
    return { kind: 'write', offset: requestedStart, announcedTotal: range.total };
  }
  if (status === 416) {
    return requestedStart === expectedBytes && requestedStart > 0
      ? { kind: 'complete' }
      : { kind: 'restart', reason: `416 Range Not Satisfiable for bytes ${requestedStart}-` };
  }
  if (status === 408 || status === 429 || status >= 500) {
    return { kind: 'retry', reason: `HTTP ${status}` };
  }
  return { kind: 'fail', reason: `HTTP ${status}` };
}

/** Exponential backoff before retry `attempt` (1-based): base, 2×base, 4×base, … capped at `maxMs`. */
export function backoffDelay(attempt: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
}

/** The message of a checksum or size mismatch: names the file, expected and actual hash and size. */
export function mismatchMessage(entry: SourceEntry, actualSha256: string, actualBytes: number, from: string): string {
  return (
    `${entry.file}: checksum mismatch: expected sha256 ${entry.sha256} (${entry.bytes} bytes), ` +
    `got sha256 ${actualSha256} (${actualBytes} bytes) from ${from}; the download was discarded`
  );
}
