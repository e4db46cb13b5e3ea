// Opens the bytes of an official file where it lies: a plain file, a member inside a ZIP (node-stream-zip,
// never unpacked to disk), or a gzip stream. Every opened stream counts the bytes it delivered and the stored bytes
// it read (so loaders and the scrubber can report progress in bytes), and hashes the stored bytes (SHA-256).
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { pipeline, Readable, Transform, type TransformCallback } from 'node:stream';
import { createInflateRaw } from 'node:zlib';
import StreamZip from 'node-stream-zip';
import { gunzipMembers } from './gzip-members.js';

/**
 * Bytes read from a file at a time. Small enough that each read's buffer, and a text decoded from all of it, stay
 * regular heap objects: 256 KB reads cost the 837 reader a fifth of its speed in fresh pages (2026-11-27).
 */
export const READ_BYTES = 64 * 1024;

/** Where a source's bytes are: a file path, optionally a ZIP member inside it. */
export interface ByteLocation {
  readonly path: string;
  /** Member name inside the ZIP at `path`; absent for a plain or gzip file. */
  readonly member?: string | undefined;
  /** Decompress as gzip; by default a plain file named `*.gz` is. */
  readonly gzip?: boolean | undefined;
}

/** The SHA-256 (hex) of a plain file's bytes, streamed. */
export async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 }) as AsyncIterable<Buffer>) {
    hash.update(chunk);
  }
  return hash.digest('hex');
}

/** An open byte stream with running counts of the bytes delivered and stored, a digest, and a way to release its file handles. */
export interface OpenedBytes {
  readonly stream: Readable;
  /** Bytes delivered so far (decompressed). */
  bytesRead(): number;
  /** Bytes of the stored file read so far (compressed for gzip and ZIP members): progress against `storedSize`. */
  storedBytesRead(): number;
  /**
   * The SHA-256 (hex) of the stored bytes read so far: once the stream has ended, the stored file's (a plain or gzip
   * file's, a ZIP member's compressed data), so two runs can tell they read the same content.
   */
  storedSha256(): string;
  close(): Promise<void>;
}

class ByteCounter extends Transform {
  count = 0;
  /** The fault of the stream that feeds this one: raised after every byte it delivered has been read. */
  fault: Error | undefined;
  /** Settles when the source's bytes are known whole (`undefined`) or not (the fault): a gzip's check. */
  whole: Promise<Error | undefined> | undefined;
  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.count += chunk.length;
    done(null, chunk);
  }
  override _flush(done: TransformCallback): void {
    // Failing destroys the stream and drops what is still buffered for the reader: wait until it has read it all.
    const failWhenRead = (): void => {
      if (this.fault !== undefined && this.readableLength > 0 && !this.destroyed) {
        setTimeout(failWhenRead, 1);
        return;
      }
      done(this.fault);
    };
    if (this.whole === undefined) {
      failWhenRead();
      return;
    }
    void this.whole.then((fault) => {
      this.fault ??= fault;
      failWhenRead();
    });
  }
}

/**
 * Opens a byte stream over a plain file, a gzip file (`.gz`, decompressed on the fly) or a ZIP member.
 * @param loc - the file and optional member
 * @returns the stream; call `close()` when done, also after errors
 */
export async function openBytes(loc: ByteLocation): Promise<OpenedBytes> {
  const counter = new ByteCounter();
  const stored = { count: 0, hash: createHash('sha256') };
  const countStored = (chunk: Buffer): void => {
    stored.count += chunk.length;
    stored.hash.update(chunk);
  };
  let raw: Readable;
  if (loc.member !== undefined) {
    raw = await openMember(loc.path, loc.member, countStored);
  } else {
    raw = createReadStream(loc.path, { highWaterMark: READ_BYTES });
    // A second 'data' listener beside the pipe only observes: pipe() reads through 'data' events too.
    raw.on('data', countStored);
  }
  const gzip = loc.gzip ?? (loc.member === undefined && loc.path.endsWith('.gz'));
  let source: Readable = raw;
  // A fault of the source ends the stream after the bytes it delivered, then fails it: destroying it at once dropped
  // the bytes still buffered here (a cut gzip lost dozens of complete claims decompressed before it).
  const fail = (err: Error): void => {
    if (counter.fault !== undefined || counter.writableEnded) {
      return;
    }
    counter.fault = err;
    source.unpipe(counter);
    counter.end();
  };
  if (gzip) {
    // Member by member (gzip-members.ts): every byte of the members is delivered before a fault (a gzip cut short,
    // bytes after its data that are no member) fails the stream after the last byte.
    const members = gunzipMembers(raw);
    source = members.stream;
    counter.whole = members.whole;
  }
  source.on('error', fail);
  const stream = source.pipe(counter);
  return {
    stream,
    bytesRead: () => counter.count,
    storedBytesRead: () => stored.count,
    // A copy is finished, so the running hash goes on: an early read is the digest of the bytes so far.
    storedSha256: () => stored.hash.copy().digest('hex'),
    close: (): Promise<void> => {
      raw.destroy();
      stream.destroy();
      return Promise.resolve();
    },
  };
}

/** The directory entry of a ZIP member, which must be a file. */
async function memberEntry(path: string, member: string): Promise<StreamZip.ZipEntry> {
  const zip = new StreamZip.async({ file: path, storeEntries: true });
  let entry: StreamZip.ZipEntry | undefined;
  try {
    entry = await zip.entry(member);
  } finally {
    await zip.close();
  }
  if (entry === undefined || !entry.isFile) {
    throw new Error(`${path}: no file member ${member}`);
  }
  return entry;
}

/**
 * The size of a location as stored (a plain or gzip file's size, a ZIP member's compressed size): what
 * `storedBytesRead` counts up to, so a reader can tell how far through its inputs it is.
 */
export async function storedSize(loc: ByteLocation): Promise<number> {
  return loc.member === undefined ? (await stat(loc.path)).size : (await memberEntry(loc.path, loc.member)).compressedSize;
}

/**
 * A ZIP member's bytes: its local header is read to find where the data starts, then a file stream of its own
 * (which waits for a pending read before closing its descriptor) feeds an inflater and a CRC-32 and size check.
 * node-stream-zip's entry streams share the archive's descriptor and emit read errors on a stream nobody listens
 * to: closing the archive while one of their reads was queued (a recognition probe stopping after 4 KB while the
 * thread pool was busy hashing) failed a test run with an uncaught EBADF. node-stream-zip still reads the central
 * directory.
 */
async function openMember(path: string, member: string, onStored: (chunk: Buffer) => void): Promise<Readable> {
  const entry = await memberEntry(path, member);
  if ((entry.flags & 1) !== 0) {
    throw new Error(`${path}[${member}]: encrypted members are not supported`);
  }
  if (entry.method !== 0 && entry.method !== 8) {
    throw new Error(`${path}[${member}]: unknown compression method ${String(entry.method)}`);
  }
  const header = Buffer.alloc(30);
  const handle = await open(path, 'r');
  try {
    await handle.read(header, 0, 30, entry.offset);
  } finally {
    await handle.close();
  }
  if (header.readUInt32LE(0) !== 0x04034b50) {
    throw new Error(`${path}[${member}]: no local file header at offset ${String(entry.offset)}`);
  }
  const start = entry.offset + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
  const source =
    entry.compressedSize === 0
      ? Readable.from([])
      : createReadStream(path, { start, end: start + entry.compressedSize - 1, highWaterMark: READ_BYTES });
  source.on('data', onStored);
  const stages: (Readable | Transform)[] = [source];
  if (entry.method === 8) {
    stages.push(createInflateRaw());
  }
  const check = new Crc32Check(entry.crc, entry.size, `${path}[${member}]`);
  // pipeline destroys every stage when one fails or the last is destroyed; the failure is emitted by `check`.
  pipeline([...stages, check], () => undefined);
  return check;
}

const CRC_TABLE = (() => {
  const table = new Int32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) {
      c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    }
    table[n] = c;
  }
  return table;
})();

/** Passes bytes through and fails at the end when their CRC-32 or length differs from the central directory's. */
class Crc32Check extends Transform {
  private crc = -1;
  private size = 0;

  constructor(
    private readonly expectedCrc: number,
    private readonly expectedSize: number,
    private readonly where: string,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    let crc = this.crc;
    for (let i = 0; i < chunk.length; i++) {
      crc = (CRC_TABLE[(crc ^ (chunk[i] as number)) & 0xff] as number) ^ (crc >>> 8);
    }
    this.crc = crc;
    this.size += chunk.length;
    done(null, chunk);
  }

  override _flush(done: TransformCallback): void {
    const crc = (this.crc ^ -1) >>> 0;
    if (this.size !== this.expectedSize) {
      done(
        new Error(
          `${this.where}: corrupt member: ${String(this.size)} bytes, the directory says ${String(this.expectedSize)}`,
        ),
      );
      return;
    }
    if (crc !== this.expectedCrc >>> 0) {
      done(new Error(`${this.where}: corrupt member: CRC-32 mismatch`));
      return;
    }
    done();
  }
}

/** Lists the member names of a ZIP file. */
export async function zipMembers(path: string): Promise<string[]> {
  const zip = new StreamZip.async({ file: path });
  try {
    return Object.keys(await zip.entries());
  } finally {
    await zip.close();
  }
}

/** All the bytes of a stream, for a reader that needs a whole file at once (an XLSX, a nested ZIP, a PDF). */
export async function readAllBytes(stream: AsyncIterable<Buffer> | Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    parts.push(chunk);
  }
  return Buffer.concat(parts);
}

/** Reads up to `maxBytes` from the start of a location (for recognising a source by its header lines). */
export async function readHead(loc: ByteLocation, maxBytes = 4096): Promise<Buffer> {
  const { bytes, fault } = await readHeadUpToFault(loc, maxBytes);
  if (fault !== undefined) {
    throw fault;
  }
  return bytes;
}

/**
 * Reads up to `maxBytes` from the start of a location, and the fault that stopped it short, if one did (a gzip cut
 * short within its first KB): a claim file is recognised from the bytes before the fault, which is met again when the
 * input is read, after the claims those bytes hold.
 */
export async function readHeadUpToFault(loc: ByteLocation, maxBytes: number): Promise<{ bytes: Buffer; fault?: Error }> {
  const opened = await openBytes(loc);
  const parts: Buffer[] = [];
  let total = 0;
  let fault: Error | undefined;
  try {
    for await (const chunk of opened.stream as AsyncIterable<Buffer>) {
      parts.push(chunk);
      total += chunk.length;
      if (total >= maxBytes) {
        break;
      }
    }
  } catch (e) {
    fault = e instanceof Error ? e : new Error(String(e));
  } finally {
    await opened.close();
  }
  const bytes = Buffer.concat(parts).subarray(0, maxBytes);
  return fault === undefined ? { bytes } : { bytes, fault };
}
