// openBytes: plain, gzip and ZIP members (deflated, read through their own file stream with a CRC-32 and size check),
// and closing early while the thread pool is busy never leaves a read erroring on a closed descriptor.
import { createHash, pbkdf2 } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { constants as zlibConstants, gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { openBytes, readHead, storedSize } from '../../src/readers/byte-source.js';
import { makeZip } from '../helpers/zip.js';

async function readAll(
  loc: { path: string; member?: string; gzip?: boolean },
  seen: { stored: number[] } = { stored: [] },
): Promise<{ text: string; counted: number }> {
  const opened = await openBytes(loc);
  const parts: Buffer[] = [];
  try {
    for await (const chunk of opened.stream as AsyncIterable<Buffer>) {
      parts.push(chunk);
      seen.stored.push(opened.storedBytesRead());
    }
    seen.stored.push(opened.storedBytesRead());
    return { text: Buffer.concat(parts).toString('latin1'), counted: opened.bytesRead() };
  } finally {
    await opened.close();
  }
}

async function tempFile(name: string, bytes: Buffer): Promise<string> {
  const path = join(await mkdtemp(join(tmpdir(), 'byte-source-')), name);
  await writeFile(path, bytes);
  return path;
}

/** Pseudo-random text that deflate cannot shrink much, so members span many reads. */
function noisyText(bytes: number): string {
  let seed = 7;
  let out = '';
  while (out.length < bytes) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    out += seed.toString(36);
  }
  return out.slice(0, bytes);
}

describe('openBytes', () => {
  test('reads plain files, gzip files and deflated ZIP members, counting the bytes delivered', async () => {
    const text = `A00.0 Cholera\n${noisyText(300_000)}`;
    const plain = await tempFile('codes.txt', Buffer.from(text, 'latin1'));
    const gz = await tempFile('codes.txt.gz', gzipSync(Buffer.from(text, 'latin1')));
    const zip = await tempFile('codes.zip', makeZip({ 'a/other.txt': 'x', 'a/codes.txt': text }));
    for (const loc of [{ path: plain }, { path: gz }, { path: zip, member: 'a/codes.txt' }]) {
      expect(await readAll(loc)).toEqual({ text, counted: text.length });
    }
    expect((await readAll({ path: zip, member: 'a/other.txt' })).text).toBe('x');
  });

  test('a gzip cut short delivers every byte it decompressed to a slow reader, then fails', async () => {
    // Text that compresses like real claims (not a repeated row): zlib then holds output of its own at the cut.
    const text = Array.from(
      { length: 100_000 },
      (_, i) => `R${String(i)},2026-05-04,99213,${String((i * 2654435761) % 1000003)},E11.9\n`,
    ).join('');
    const gz = gzipSync(Buffer.from(text, 'latin1'));
    const path = await tempFile('cut.csv.gz', gz.subarray(0, Math.floor(gz.length / 2)));
    const opened = await openBytes({ path });
    let received = 0;
    let fault: unknown;
    try {
      for await (const chunk of opened.stream as AsyncIterable<Buffer>) {
        received += chunk.length;
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
    } catch (e) {
      fault = e;
    } finally {
      await opened.close();
    }
    expect(String(fault)).toMatch(/unexpected end of file/);
    // Every byte the cut gzip holds reached the reader, however slow (destroying the stream on the fault dropped what
    // it buffered, and zlib's own failure what zlib buffered).
    expect(received).toBe(opened.bytesRead());
    const decompressible = gunzipSync(gz.subarray(0, Math.floor(gz.length / 2)), {
      finishFlush: zlibConstants.Z_SYNC_FLUSH,
    });
    expect(received).toBe(decompressible.length);
  });

  test('a gzip with trailing garbage delivers all of its data, then fails naming the garbage', async () => {
    const text = Array.from({ length: 50_000 }, (_, i) => `R${String(i)},2026-05-04,99213,${String((i * 2654435761) % 1000003)}\n`).join('');
    const path = await tempFile('garbage.csv.gz', Buffer.concat([gzipSync(Buffer.from(text, 'latin1')), Buffer.from('NOT GZIP\n')]));
    const opened = await openBytes({ path });
    let received = '';
    let fault: unknown;
    try {
      for await (const chunk of opened.stream as AsyncIterable<Buffer>) {
        received += chunk.toString('latin1');
      }
    } catch (e) {
      fault = e;
    } finally {
      await opened.close();
    }
    // Node's gunzip dropped the text of its last write here (it delivered 1,523,712 of these 1,533,337 bytes).
    expect(received.length).toBe(text.length);
    expect(received === text).toBe(true);
    expect(String(fault)).toMatch(/9 bytes after the end of the gzip data are not gzip \(trailing garbage\)/);
  });

  test('counts the stored bytes read (compressed ones for gzip and ZIP) up to storedSize, for progress', async () => {
    const text = noisyText(1_500_000);
    const plain = await tempFile('codes.txt', Buffer.from(text, 'latin1'));
    const gz = await tempFile('codes.txt.gz', gzipSync(Buffer.from(text, 'latin1')));
    const zip = await tempFile('codes.zip', makeZip({ 'a/other.txt': 'x', 'a/codes.txt': text }));
    const sizes: number[] = [];
    for (const loc of [{ path: plain }, { path: gz }, { path: zip, member: 'a/codes.txt' }]) {
      const size = await storedSize(loc);
      sizes.push(size);
      const seen = { stored: [] as number[] };
      await readAll(loc, seen);
      // It grows as the stream is read, and ends at the stored size, not the decompressed one.
      expect(seen.stored.length).toBeGreaterThan(2);
      expect(seen.stored).toEqual([...seen.stored].sort((a, b) => a - b));
      expect(seen.stored[0]).toBeLessThan(size);
      expect(seen.stored.at(-1)).toBe(size);
    }
    expect(sizes[0]).toBe(text.length);
    expect(sizes[1]).toBeLessThan(text.length);
    expect(sizes[2]).toBeLessThan(text.length);
  });

  test("gives the SHA-256 of the stored bytes once read: the file's for plain and gzip, the compressed data for a member", async () => {
    const text = noisyText(700_000);
    const gzBytes = gzipSync(Buffer.from(text, 'latin1'));
    const plain = await tempFile('codes.txt', Buffer.from(text, 'latin1'));
    const gz = await tempFile('codes.txt.gz', gzBytes);
    const sha = (b: Buffer): string => createHash('sha256').update(b).digest('hex');
    const digestOf = async (loc: { path: string; member?: string }): Promise<string> => {
      const opened = await openBytes(loc);
      try {
        let early: string | undefined;
        for await (const chunk of opened.stream as AsyncIterable<Buffer>) {
          // Read early, it is the digest of the bytes so far, and it does not stop the count.
          early ??= opened.storedSha256();
          void chunk;
        }
        expect(early).not.toBe(opened.storedSha256());
        return opened.storedSha256();
      } finally {
        await opened.close();
      }
    };
    expect(await digestOf({ path: plain })).toBe(sha(Buffer.from(text, 'latin1')));
    expect(await digestOf({ path: gz })).toBe(sha(gzBytes));
    // A member: the same for the same content, another when one character of it changes.
    const zipA = await tempFile('a.zip', makeZip({ 'codes.txt': text }));
    const zipB = await tempFile('b.zip', makeZip({ 'codes.txt': `${text.slice(0, -1)}#` }));
    const a = await digestOf({ path: zipA, member: 'codes.txt' });
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(await digestOf({ path: zipA, member: 'codes.txt' })).toBe(a);
    expect(await digestOf({ path: zipB, member: 'codes.txt' })).not.toBe(a);
  });

  test('a member whose bytes do not match the directory CRC-32 fails its stream', async () => {
    const bytes = makeZip({ 'codes.txt': 'A00.0 Cholera\n' });
    const central = bytes.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    bytes.writeUInt32LE((bytes.readUInt32LE(central + 16) ^ 1) >>> 0, central + 16);
    const path = await tempFile('bad.zip', bytes);
    await expect(readAll({ path, member: 'codes.txt' })).rejects.toThrow(
      /codes\.txt\]: corrupt member: CRC-32 mismatch/,
    );
    // A gzip file as the member: the member's fault fails the stream too (the stream never ended, and a run waiting
    // on it exited 0 with part of its reports).
    const gz = makeZip({ 'codes.txt.gz': gzipSync(Buffer.from('A00.0 Cholera\n'.repeat(5000), 'latin1')) });
    const at = gz.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    gz.writeUInt32LE((gz.readUInt32LE(at + 16) ^ 1) >>> 0, at + 16);
    const gzPath = await tempFile('bad-gz.zip', gz);
    await expect(readAll({ path: gzPath, member: 'codes.txt.gz', gzip: true })).rejects.toThrow(
      /codes\.txt\.gz\]: corrupt member: CRC-32 mismatch/,
    );
  });

  test('a member that is not in the archive is refused with the archive and member named', async () => {
    const path = await tempFile('one.zip', makeZip({ 'codes.txt': 'x' }));
    await expect(openBytes({ path, member: 'missing.txt' })).rejects.toThrow(/one\.zip: no file member missing\.txt/);
  });

  test('many probes stopping after 4 KB while the thread pool is busy: every head is right, no stray read error', async () => {
    const text = noisyText(4_000_000);
    const path = await tempFile('big.zip', makeZip({ 'big.txt': text }));
    // Keep the four pool threads busy so the probes' reads queue behind the hashing.
    const busy = Array.from(
      { length: 8 },
      () =>
        new Promise<void>((resolve, reject) =>
          pbkdf2('x', 'y', 60_000, 32, 'sha256', (e) => (e ? reject(e) : resolve())),
        ),
    );
    const heads = await Promise.all(Array.from({ length: 40 }, () => readHead({ path, member: 'big.txt' }, 4096)));
    await Promise.all(busy);
    await new Promise((resolve) => setTimeout(resolve, 200)); // let any late read callback run inside this test
    for (const head of heads) {
      expect(head.toString('latin1')).toBe(text.slice(0, 4096));
    }
  });
});
