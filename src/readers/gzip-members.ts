// A gzip file read member by member (RFC 1952), each member's deflate data through zlib's raw inflater and checked
// against its trailer (CRC-32 and size). Node's own gunzip reads the members too, but it fails on bytes after the last
// one that are not a member (trailing garbage) and drops the text it decompressed in that same write: up to a read
// buffer of claims lost from a file whose gzip data is whole. Here every byte of the members is delivered first, then
// the fault (a member cut short, a bad trailer, bytes that are no member) is told; zero bytes after a member are
// padding, as gzip takes them.
//
//   stored bytes ──header──> inflateRaw (bytesWritten: where its data ended) ──trailer (CRC-32, size)──> next member
import { Readable } from 'node:stream';
import { constants as zlibConstants, crc32, createInflateRaw } from 'node:zlib';
import { FaultAfterData } from './faults.js';

/** The decompressed bytes of a gzip stream, and its fault once every byte has been delivered. */
export interface GzipMembers {
  readonly stream: Readable;
  /** Settles when the stored bytes are known whole (`undefined`) or not (the fault). */
  readonly whole: Promise<Error | undefined>;
}

const FTEXT_RESERVED = 0xe0;
/** Stored bytes written to the inflater at a time (see inflateMember). */
const WRITE_BYTES = 16 * 1024;
const FHCRC = 2;
const FEXTRA = 4;
const FNAME = 8;
const FCOMMENT = 16;

/**
 * The length of the member header at the start of `bytes`.
 * @returns the length; `undefined` when more bytes are needed; an Error when the bytes are not a gzip header
 */
export function gzipHeaderLength(bytes: Uint8Array): number | undefined | Error {
  if (bytes.length < 10) {
    return undefined;
  }
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) {
    return new Error('incorrect header check');
  }
  if (bytes[2] !== 8) {
    return new Error(`unknown compression method ${String(bytes[2])}`);
  }
  const flags = bytes[3] as number;
  if ((flags & FTEXT_RESERVED) !== 0) {
    return new Error('reserved gzip header flags set');
  }
  let at = 10;
  if ((flags & FEXTRA) !== 0) {
    if (bytes.length < at + 2) {
      return undefined;
    }
    at += 2 + ((bytes[at] as number) | ((bytes[at + 1] as number) << 8));
  }
  for (const flag of [FNAME, FCOMMENT]) {
    if ((flags & flag) !== 0) {
      const zero = bytes.indexOf(0, at);
      if (zero < 0) {
        return undefined;
      }
      at = zero + 1;
    }
  }
  if ((flags & FHCRC) !== 0) {
    at += 2;
  }
  return at <= bytes.length ? at : undefined;
}

/**
 * Decompresses a gzip stream member by member.
 * @param stored - the stored (compressed) bytes
 */
export function gunzipMembers(stored: AsyncIterable<Buffer>): GzipMembers {
  let settle: (fault: Error | undefined) => void = () => undefined;
  const whole = new Promise<Error | undefined>((resolve) => {
    settle = resolve;
  });
  const stream = Readable.from(members(stored, (fault) => settle(fault)), { objectMode: false });
  // A fault of the stored bytes themselves (a ZIP member's CRC-32) ends the stream with an error: settled too.
  stream.on('error', (e) => settle(e));
  stream.on('end', () => settle(undefined));
  return { stream, whole };
}

async function* members(stored: AsyncIterable<Buffer>, fault: (e: Error) => void): AsyncGenerator<Buffer> {
  const input = stored[Symbol.asyncIterator]();
  let pending: Buffer = Buffer.alloc(0);
  let inputDone = false;
  /** Reads on into `pending`: false at the end of the stored bytes. */
  const more = async (): Promise<boolean> => {
    if (inputDone) {
      return false;
    }
    const next = await input.next();
    if (next.done === true) {
      inputDone = true;
      return false;
    }
    pending = pending.length === 0 ? next.value : Buffer.concat([pending, next.value]);
    return true;
  };
  for (let member = 0; ; member++) {
    while (pending.length < 2 && (await more())) {
      // reading on
    }
    if (pending.length === 0) {
      if (member === 0) {
        fault(new Error('unexpected end of file'));
      }
      return;
    }
    if (member > 0 && (pending[0] !== 0x1f || pending[1] !== 0x8b)) {
      // Not another member: zero padding is fine, anything else is trailing garbage (counted to the end).
      let garbage = 0;
      let bytes = 0;
      do {
        for (const b of pending) {
          garbage += b === 0 ? 0 : 1;
        }
        bytes += pending.length;
        pending = Buffer.alloc(0);
      } while (await more());
      if (garbage > 0) {
        fault(new FaultAfterData(`${String(bytes)} bytes after the end of the gzip data are not gzip (trailing garbage): ignored`));
      }
      return;
    }
    let header = gzipHeaderLength(pending);
    while (header === undefined && (await more())) {
      header = gzipHeaderLength(pending);
    }
    if (header === undefined) {
      fault(new Error('unexpected end of file'));
      return;
    }
    if (header instanceof Error) {
      fault(header);
      return;
    }
    pending = pending.subarray(header);
    const inflated = yield* inflateMember(pending, more, () => {
      const taken = pending;
      pending = Buffer.alloc(0);
      return taken;
    });
    if (inflated instanceof Error) {
      fault(inflated);
      return;
    }
    pending = inflated.left;
    while (pending.length < 8 && (await more())) {
      // reading on
    }
    if (pending.length < 8) {
      fault(new Error('unexpected end of file'));
      return;
    }
    if (pending.readUInt32LE(0) !== inflated.crc || pending.readUInt32LE(4) !== inflated.size) {
      fault(new Error('incorrect data check (the gzip trailer does not match the data)'));
      return;
    }
    pending = pending.subarray(8);
  }
}

/**
 * One member's deflate data, inflated and delivered as it comes.
 * @param take - hands over the bytes read but not yet fed (emptying them); `more` reads on into them
 * @returns the CRC-32 and size (mod 2^32) of the data, and the stored bytes after its deflate data; or the fault
 */
async function* inflateMember(
  first: Buffer,
  more: () => Promise<boolean>,
  take: () => Buffer,
): AsyncGenerator<Buffer, { crc: number; size: number; left: Buffer } | Error> {
  // Z_SYNC_FLUSH at the end: a member cut short gives up what it decompressed before the cut.
  const inflate = createInflateRaw({ finishFlush: zlibConstants.Z_SYNC_FLUSH });
  const out: Buffer[] = [];
  let crc = 0;
  let size = 0;
  let failed: Error | undefined;
  let ended = false;
  inflate.on('data', (chunk: Buffer) => {
    crc = crc32(chunk, crc);
    size = (size + chunk.length) % 2 ** 32;
    out.push(chunk);
  });
  const end = new Promise<void>((resolve) => {
    inflate.on('end', () => {
      ended = true;
      resolve();
    });
    inflate.on('error', (e) => {
      failed = e;
      resolve();
    });
  });
  // The inflater is destroyed however the member ends (a reader that stops early returns this generator).
  try {
    // The bytes fed and not yet known consumed (inflate.bytesWritten counts what the inflater consumed).
    const fed: Buffer[] = [];
    let fedTotal = 0;
    let fedBefore = 0;
    let chunk: Buffer | undefined = first.length > 0 ? take() : undefined;
    for (;;) {
      if (chunk === undefined) {
        if (!(await more())) {
          // The stored bytes ended inside the member's deflate data (or right after it, without the trailer).
          inflate.end();
          await end;
          yield* drain(out);
          return failed ?? new Error('unexpected end of file');
        }
        chunk = take();
      }
      // A slice at a time: a write's output is all delivered before its callback, and deflate can expand a byte about
      // a thousandfold, so the text held at once stays bounded (16 KiB of a gzip bomb is at most ~16 MB of output).
      const writing = chunk.length > WRITE_BYTES ? chunk.subarray(0, WRITE_BYTES) : chunk;
      chunk = chunk.length > WRITE_BYTES ? chunk.subarray(WRITE_BYTES) : undefined;
      fed.push(writing);
      fedTotal += writing.length;
      // The write's callback, or the end (the data ended inside this chunk) or a fault of the inflater, first.
      await Promise.race([new Promise<void>((resolve) => inflate.write(writing, () => resolve())), end]);
      yield* drain(out);
      if (failed !== undefined) {
        return failed;
      }
      // Forget the chunks consumed whole.
      while (fed.length > 0 && fedBefore + (fed[0] as Buffer).length <= inflate.bytesWritten) {
        fedBefore += (fed.shift() as Buffer).length;
      }
      if (inflate.bytesWritten < fedTotal || ended) {
        break;
      }
    }
    // The deflate data ended: whatever was fed past it is the trailer and what follows.
    await end;
    yield* drain(out);
    if (failed !== undefined) {
      return failed;
    }
    // The bytes fed but not consumed, then those of the stored chunk not fed yet.
    const unconsumed = Buffer.concat([...fed, ...(chunk === undefined ? [] : [chunk])]).subarray(inflate.bytesWritten - fedBefore);
    return { crc, size, left: unconsumed };
  } finally {
    inflate.destroy();
  }
}

function* drain(out: Buffer[]): Generator<Buffer> {
  while (out.length > 0) {
    yield out.shift() as Buffer;
  }
}
