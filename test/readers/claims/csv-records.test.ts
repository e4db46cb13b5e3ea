import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { MAX_RECORD_BYTES, readCsvRecords, type CsvRecord } from '../../../src/readers/claims/csv-records.js';

async function records(chunks: (string | Buffer)[]): Promise<CsvRecord[]> {
  const out: CsvRecord[] = [];
  for await (const batch of readCsvRecords(Readable.from(chunks.map((c) => Buffer.from(c))))) {
    out.push(...batch);
  }
  return out;
}

/** The same bytes cut into pieces of `size`. */
const pieces = (text: string, size: number): Buffer[] => {
  const bytes = Buffer.from(text);
  return Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => bytes.subarray(i * size, (i + 1) * size));
};

describe('readCsvRecords', () => {
  const text = '\uFEFFa,b\r\n1,"x, ""y""\r\nz"\r\n\r\n2,é\n3,"q"';
  const expected = [
    { text: 'a,b', line: 1 },
    { text: '1,"x, ""y""\r\nz"', line: 2 },
    { text: '2,é', line: 5 },
    { text: '3,"q"', line: 6 },
  ];

  it('splits records at newlines outside quotes, keeps physical line numbers, drops the BOM, CR and blank lines', async () => {
    expect(await records([text])).toEqual(expected);
  });

  it.each([1, 2, 3, 7])('gives the same records whatever the chunk boundaries (%i-byte chunks)', async (size) => {
    expect(await records(pieces(text, size))).toEqual(expected);
  });

  it('reports a quote left open at the end of the file on its first line and reads the lines after it', async () => {
    expect(await records(['a,b\n1,"open\n2,x\n'])).toEqual([
      { text: 'a,b', line: 1 },
      { text: '1,"open', line: 2, problem: 'a quoted cell is not closed before the end of the file' },
      { text: '2,x', line: 3 },
    ]);
  });

  it('gives up on a quote that runs over MAX_RECORD_BYTES and resumes on the next line, so memory stays bounded', async () => {
    const filler = `${'z'.repeat(1000)}\n`.repeat(Math.ceil(MAX_RECORD_BYTES / 1000) + 10);
    const got = await records(pieces(`a,b\n1,"open\n${filler}2,"closed"\n`, 64 * 1024));
    expect(got[1]).toMatchObject({ line: 2, problem: expect.stringMatching(/runs over/) as unknown });
    expect(got.at(-1)).toEqual({ text: '2,"closed"', line: 2 + (filler.length / 1001) + 1 });
    expect(got).toHaveLength(2 + filler.length / 1001 + 1);
  });
});
