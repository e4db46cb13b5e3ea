// Opens the bytes of an official file where it lies: a plain file, a member inside a ZIP (node-stream-zip,
// never unpacked to disk), or a gzip stream. Every opened stream counts the compressed-or-not bytes it delivered,
// so loaders can report progress in bytes.
import { createReadStream } from 'node:fs';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { createGunzip } from 'node:zlib';
import StreamZip from 'node-stream-zip';

/** Where a source's bytes are: a file path, optionally a ZIP member inside it. */
export interface ByteLocation {
  readonly path: string;
  /** Member name inside the ZIP at `path`; absent for a plain or gzip file. */
  readonly member?: string | undefined;
}

/** An open byte stream with a running count of delivered bytes and a way to release its file handles. */
export interface OpenedBytes {
  readonly stream: Readable;
  /** Bytes delivered so far (decompressed). */
  bytesRead(): number;
  close(): Promise<void>;
}

class ByteCounter extends Transform {
  count = 0;
  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.count += chunk.length;
    done(null, chunk);
  }
}

/**
 * Opens a byte stream over a plain file, a gzip file (`.gz`, decompressed on the fly) or a ZIP member.
 * @param loc - the file and optional member
 * @returns the stream; call `close()` when done, also after errors
 */
export async function openBytes(loc: ByteLocation): Promise<OpenedBytes> {
  const counter = new ByteCounter();
  let zip: InstanceType<typeof StreamZip.async> | undefined;
  let raw: Readable;
  if (loc.member !== undefined) {
    zip = new StreamZip.async({ file: loc.path, storeEntries: true });
    raw = (await zip.stream(loc.member)) as unknown as Readable;
  } else {
    raw = createReadStream(loc.path, { highWaterMark: 256 * 1024 });
  }
  const source = loc.member === undefined && loc.path.endsWith('.gz') ? raw.pipe(createGunzip()) : raw;
  source.on('error', (err) => counter.destroy(err));
  const stream = source.pipe(counter);
  return {
    stream,
    bytesRead: () => counter.count,
    close: async (): Promise<void> => {
      raw.destroy();
      stream.destroy();
      if (zip) {
        await zip.close();
      }
    },
  };
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

/** Reads up to `maxBytes` from the start of a location (for recognising a source by its header lines). */
export async function readHead(loc: ByteLocation, maxBytes = 4096): Promise<Buffer> {
  const opened = await openBytes(loc);
  const parts: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of opened.stream as AsyncIterable<Buffer>) {
      parts.push(chunk);
      total += chunk.length;
      if (total >= maxBytes) {
        break;
      }
    }
  } finally {
    await opened.close();
  }
  return Buffer.concat(parts).subarray(0, maxBytes);
}
