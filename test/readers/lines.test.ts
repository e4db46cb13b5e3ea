// readLines: LF and CRLF, bare CR on request, a longest line, whatever the chunk boundaries.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readLines, type Line, type LineOptions } from '../../src/readers/lines.js';

async function lines(text: string, chunk: number, options?: LineOptions): Promise<Line[]> {
  const bytes = Buffer.from(text, 'utf8');
  const pieces: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += chunk) {
    pieces.push(bytes.subarray(i, i + chunk));
  }
  const out: Line[] = [];
  for await (const line of readLines(Readable.from(pieces), 'utf-8', options)) {
    out.push(line);
  }
  return out;
}

const CHUNKS = [1, 2, 3, 5, 64];

async function linesOf(pieces: string[], options?: LineOptions): Promise<Line[]> {
  const out: Line[] = [];
  for await (const line of readLines(Readable.from(pieces.map((p) => Buffer.from(p))), 'utf-8', options)) {
    out.push(line);
  }
  return out;
}

describe('readLines', () => {
  it('a stream that fails inside a line: that line is yielded as cut before the error when asked, else only the error', async () => {
    const read = async (options: LineOptions): Promise<[Line[], unknown]> => {
      const source = new Readable({ read() {} });
      source.push(Buffer.from('a\nb\npart'));
      setImmediate(() => source.destroy(new Error('unexpected end of file')));
      const got: Line[] = [];
      try {
        for await (const line of readLines(source, 'utf-8', options)) {
          got.push(line);
        }
      } catch (e) {
        return [got, e];
      }
      return [got, undefined];
    };
    const [cut, cutError] = await read({ cutLines: true });
    expect(cut).toEqual([
      { text: 'a', lineNo: 1 },
      { text: 'b', lineNo: 2 },
      { text: 'part', lineNo: 3, cut: true },
    ]);
    expect(cutError).toMatchObject({ message: 'unexpected end of file' });
    const [plain, plainError] = await read({});
    expect(plain.map((l) => l.text)).toEqual(['a', 'b']);
    expect(plainError).toMatchObject({ message: 'unexpected end of file' });
  });

  it('an overlong line whose bare CR ends a read still ends there: the next line is read, numbered right', async () => {
    const got = await linesOf([`ok\r${'x'.repeat(30)}\r`, 'next\rlast'], { maxLineBytes: 20, bareCr: true });
    expect(got.map((l) => [l.lineNo, l.overlong === true ? 'overlong' : l.text])).toEqual([
      [1, 'ok'],
      [2, 'overlong'],
      [3, 'next'],
      [4, 'last'],
    ]);
    // A CRLF line of exactly maxLineBytes is not overlong (its CR is no part of its length).
    const exact = await linesOf([`${'y'.repeat(20)}\r\nz`], { maxLineBytes: 20 });
    expect(exact.map((l) => l.overlong ?? l.text.length)).toEqual([20, 1]);
  });

  it.each(CHUNKS)('splits on LF and CRLF, and keeps a bare CR in the line by default (%i-byte chunks)', async (chunk) => {
    expect(await lines('a\r\nbé\n\nc\rd\ne', chunk)).toEqual([
      { text: 'a', lineNo: 1 },
      { text: 'bé', lineNo: 2 },
      { text: '', lineNo: 3 },
      { text: 'c\rd', lineNo: 4 },
      { text: 'e', lineNo: 5 },
    ]);
  });

  it.each(CHUNKS)('with bareCr, a CR alone ends a line too, and CRLF is one line end (%i-byte chunks)', async (chunk) => {
    expect(await lines('a\rb\r\nc\n\rd\r', chunk, { bareCr: true })).toEqual([
      { text: 'a', lineNo: 1 },
      { text: 'b', lineNo: 2 },
      { text: 'c', lineNo: 3 },
      { text: '', lineNo: 4 },
      { text: 'd', lineNo: 5 },
    ]);
  });

  it.each(CHUNKS)('yields a line over maxLineBytes as overlong, its first bytes only, and reads on (%i-byte chunks)', async (chunk) => {
    const long = 'x'.repeat(300);
    const got = await lines(`ok\n${long}\r\nnext\r${long}\rlast`, chunk, { maxLineBytes: 20, bareCr: true });
    // An overlong line's text is its start, at most 256 bytes (as much as was read when it ran over).
    expect(got.map((l) => (l.overlong === true && /^x{20,256}$/.test(l.text) ? { ...l, text: 'x...' } : l))).toEqual([
      { text: 'ok', lineNo: 1 },
      { text: 'x...', lineNo: 2, overlong: true },
      { text: 'next', lineNo: 3 },
      { text: 'x...', lineNo: 4, overlong: true },
      { text: 'last', lineNo: 5 },
    ]);
  });
});
