// ZIP archives held in memory: the ones nested inside an official release ZIP (an XLSX workbook inside the HCPCS
// ZIP, the `*_csv.zip` inside an MCD export). node-stream-zip needs a file, and nothing is unpacked to disk, so the
// nested archive's compressed bytes are read into memory and each entry is inflated as a stream.
import { Readable } from 'node:stream';
import { createInflateRaw } from 'node:zlib';

/** One entry of an in-memory ZIP, from its central directory. */
export interface ZipBufferEntry {
  readonly name: string;
  readonly method: number;
  readonly compressedSize: number;
  readonly localOffset: number;
}

/**
 * Lists the entries of a ZIP archive held in a buffer.
 * @throws RangeError when the buffer is not a ZIP archive or needs ZIP64
 */
export function zipBufferEntries(zip: Buffer): ZipBufferEntry[] {
  let eocd = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 22 - 0xffff); i--) {
    if (zip.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) {
    throw new RangeError('Expected a ZIP archive: no end-of-central-directory record');
  }
  const count = zip.readUInt16LE(eocd + 10);
  let p = zip.readUInt32LE(eocd + 16);
  if (count === 0xffff || p === 0xffffffff) {
    throw new RangeError('Expected a ZIP archive without ZIP64 extensions');
  }
  const entries: ZipBufferEntry[] = [];
  for (let i = 0; i < count; i++) {
    if (p + 46 > zip.length || zip.readUInt32LE(p) !== 0x02014b50) {
      throw new RangeError(`Expected a central directory entry at byte ${p}`);
    }
    const nameLen = zip.readUInt16LE(p + 28);
    entries.push({
      name: zip.toString('utf8', p + 46, p + 46 + nameLen),
      method: zip.readUInt16LE(p + 10),
      compressedSize: zip.readUInt32LE(p + 20),
      localOffset: zip.readUInt32LE(p + 42),
    });
    p += 46 + nameLen + zip.readUInt16LE(p + 30) + zip.readUInt16LE(p + 32);
  }
  return entries;
}

/**
 * A stream of one entry's uncompressed bytes (stored or deflated).
 * @throws RangeError when the entry is missing or uses another compression method
 */
export function openZipBufferEntry(zip: Buffer, entry: ZipBufferEntry | string): Readable {
  const e = typeof entry === 'string' ? zipBufferEntries(zip).find((x) => x.name === entry) : entry;
  if (!e) {
    throw new RangeError(`Expected the member ${JSON.stringify(entry)} in the archive`);
  }
  const lo = e.localOffset;
  if (zip.readUInt32LE(lo) !== 0x04034b50) {
    throw new RangeError(`Expected a local file header for ${e.name}`);
  }
  const start = lo + 30 + zip.readUInt16LE(lo + 26) + zip.readUInt16LE(lo + 28);
  const data = zip.subarray(start, start + e.compressedSize);
  const chunks = function* (): Generator<Buffer> {
    for (let i = 0; i < data.length; i += 1 << 20) {
      yield data.subarray(i, i + (1 << 20));
    }
  };
  const raw = Readable.from(chunks(), { objectMode: false });
  if (e.method === 0) {
    return raw;
  }
  if (e.method !== 8) {
    throw new RangeError(`Expected a stored or deflated entry, ${e.name} uses method ${e.method}`);
  }
  return raw.pipe(createInflateRaw());
}
