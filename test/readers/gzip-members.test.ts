// gunzipMembers: a gzip stream read member by member delivers every byte of its data, then names what is wrong
// after it (trailing garbage, a member cut short, a bad trailer), however the stored bytes are cut into chunks.
import { describe, expect, it } from 'vitest';
import { constants as zlibConstants, crc32, deflateRawSync, gunzipSync, gzipSync } from 'node:zlib';
import { gunzipMembers, gzipHeaderLength } from '../../src/readers/gzip-members.js';

/** Text that compresses like claim rows (not one row repeated). */
const text = (rows: number, tag = 'R'): Buffer =>
  Buffer.from(
    Array.from({ length: rows }, (_, i) => `${tag}${String(i)},2026-05-04,99213,${String((i * 2654435761) % 1000003)},E11.9\n`).join(''),
    'latin1',
  );

/** The bytes in chunks of the given sizes (cycled). */
async function* chunked(bytes: Buffer, sizes: readonly number[]): AsyncGenerator<Buffer> {
  let k = 0;
  for (let at = 0; at < bytes.length; k++) {
    const size = sizes[k % sizes.length] as number;
    yield bytes.subarray(at, at + size);
    at += size;
  }
}

async function gunzip(bytes: Buffer, sizes: readonly number[] = [65_536]): Promise<{ data: Buffer; fault: Error | undefined }> {
  const { stream, whole } = gunzipMembers(chunked(bytes, sizes));
  const parts: Buffer[] = [];
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    parts.push(chunk);
  }
  return { data: Buffer.concat(parts), fault: await whole };
}

describe('gunzipMembers', () => {
  const a = text(20_000, 'A');
  const b = text(3_000, 'B');
  const gz = gzipSync(a);

  it('reads one member and several, whatever the chunks, as gunzip does', async () => {
    const two = Buffer.concat([gz, gzipSync(b)]);
    expect(gunzipSync(two).equals(Buffer.concat([a, b]))).toBe(true);
    for (const sizes of [[65_536], [7, 3, 1000], [gz.length], [gz.length - 8, 3, 5], [gz.length - 9, 1]]) {
      const one = await gunzip(gz, sizes);
      expect(one.fault).toBeUndefined();
      expect(one.data.equals(a)).toBe(true);
      const both = await gunzip(two, sizes);
      expect(both.fault).toBeUndefined();
      expect(both.data.equals(Buffer.concat([a, b]))).toBe(true);
    }
    // A byte at a time (a small member: each write is a round trip to zlib).
    const small = text(200);
    const bytewise = await gunzip(Buffer.concat([gzipSync(small), gzipSync(small)]), [1]);
    expect(bytewise.fault).toBeUndefined();
    expect(bytewise.data.equals(Buffer.concat([small, small]))).toBe(true);
  });

  it('delivers every byte before trailing garbage, then names it; zero padding is no fault', async () => {
    for (const sizes of [[65_536], [13], [gz.length]]) {
      const garbage = await gunzip(Buffer.concat([gz, Buffer.from('GARBAGE-TRAILING-BYTES\n')]), sizes);
      // Node's gunzip fails here and drops the text of its last write.
      expect(garbage.data.equals(a)).toBe(true);
      expect(garbage.fault?.message).toBe('23 bytes after the end of the gzip data are not gzip (trailing garbage): ignored');
      const padded = await gunzip(Buffer.concat([gz, Buffer.alloc(512)]), sizes);
      expect(padded.data.equals(a)).toBe(true);
      expect(padded.fault).toBeUndefined();
    }
  });

  it('a member cut short gives what it decompressed, then fails as zlib does', async () => {
    for (const cutAt of [Math.floor(gz.length / 2), gz.length - 8, gz.length - 3, 5]) {
      const cut = gz.subarray(0, cutAt);
      const read = await gunzip(cut, [4096]);
      expect(read.fault?.message).toBe('unexpected end of file');
      const decompressible = cutAt < 10 ? Buffer.alloc(0) : gunzipSync(cut, { finishFlush: zlibConstants.Z_SYNC_FLUSH });
      expect(read.data.equals(decompressible)).toBe(true);
    }
    expect((await gunzip(Buffer.alloc(0))).fault?.message).toBe('unexpected end of file');
  });

  it('refuses a wrong trailer and bytes that are no gzip', async () => {
    const badCrc = Buffer.from(gz);
    badCrc.writeUInt32LE((crc32(a) ^ 1) >>> 0, gz.length - 8);
    const crc = await gunzip(badCrc);
    expect(crc.fault?.message).toMatch(/incorrect data check/);
    expect(crc.data.equals(a)).toBe(true);
    const badSize = Buffer.from(gz);
    badSize.writeUInt32LE(a.length + 1, gz.length - 4);
    expect((await gunzip(badSize)).fault?.message).toMatch(/incorrect data check/);
    expect((await gunzip(Buffer.from('claimId,lineNumber\nC1,1\n'))).fault?.message).toBe('incorrect header check');
    const corrupt = Buffer.from(gz);
    corrupt.fill(0xff, 20, 60);
    expect((await gunzip(corrupt)).fault).toBeInstanceOf(Error);
  });

  it('reads the optional header fields (extra, name, comment, header CRC)', async () => {
    const deflated = deflateRawSync(b);
    const trailer = Buffer.alloc(8);
    trailer.writeUInt32LE(crc32(b), 0);
    trailer.writeUInt32LE(b.length, 4);
    // FHCRC | FEXTRA | FNAME | FCOMMENT
    const header = Buffer.concat([
      Buffer.from([0x1f, 0x8b, 8, 2 | 4 | 8 | 16, 0, 0, 0, 0, 0, 3]),
      Buffer.from([3, 0, 1, 2, 3]),
      Buffer.from('claims.csv\0', 'latin1'),
      Buffer.from('a comment\0', 'latin1'),
      Buffer.from([0xab, 0xcd]),
    ]);
    expect(gzipHeaderLength(header)).toBe(header.length);
    expect(gzipHeaderLength(header.subarray(0, header.length - 3))).toBeUndefined();
    const member = Buffer.concat([header, deflated, trailer]);
    for (const sizes of [[65_536], [3, 5000], [header.length - 1, 1, 65_536]]) {
      const read = await gunzip(Buffer.concat([member, gz]), sizes);
      expect(read.fault).toBeUndefined();
      expect(read.data.equals(Buffer.concat([b, a]))).toBe(true);
    }
    expect(gzipHeaderLength(Buffer.from([0x1f, 0x8b, 7, 0, 0, 0, 0, 0, 0, 3]))).toEqual(new Error('unknown compression method 7'));
  });
});
