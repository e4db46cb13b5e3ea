import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { MAX_RECORD_BYTES, OVERLONG_LINE, readCsvRecords, type CsvRecord } from '../../../src/readers/claims/csv-records.js';
import { NOT_UTF8, NUL_BYTE } from '../../../src/readers/claims/utf8.js';

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
    expect(await records(['a,b,c\n1,"open\n2 x\n'])).toEqual([
      { text: 'a,b,c', line: 1 },
      { text: '1,"open', line: 2, problem: 'a quoted cell is not closed before the end of the file' },
      { text: '2 x', line: 3 },
    ]);
    // A later quote that cannot close the open cell (on line 3, `"` followed by `q`) ends the search: the open line
    // is unreadable and the lines after it are read again from there.
    expect(await records(['a,b,c\n1,"open\n2,"q"\n3,x\n4,"""y"""\n'])).toEqual([
      { text: 'a,b,c', line: 1 },
      { text: '1,"open', line: 2, problem: 'a quoted cell is not closed on this line, and no later quote closes it (unclosed quote?)' },
      { text: '2,"q"', line: 3 },
      { text: '3,x', line: 4 },
      { text: '4,"""y"""', line: 5 },
    ]);
  });

  it('a quoted cell whose next line reads as a row (its cells, a date under dateOfServiceFrom) was never closed', async () => {
    // `"wound 2 long` opened a cell that the inch mark on V5's line "closed": V3, V4 and V5 vanished into it.
    const d = '2026-05-04';
    const csv = `claimId,dateOfServiceFrom,note\nV1,${d},n\nX2,${d},"wound 2 long\nV3,${d},n\nV4,${d},n\nV5,${d},12"\nV6,${d},n\n`;
    expect(await records([csv])).toEqual([
      { text: 'claimId,dateOfServiceFrom,note', line: 1 },
      { text: `V1,${d},n`, line: 2 },
      { text: `X2,${d},"wound 2 long`, line: 3, problem: 'a quoted cell is not closed on this line, and the next line is a row of the file (unclosed quote?)' },
      { text: `V3,${d},n`, line: 4 },
      { text: `V4,${d},n`, line: 5 },
      { text: `V5,${d},12"`, line: 6 },
      { text: `V6,${d},n`, line: 7 },
    ]);
    // Cells that do hold line breaks are one record: lines with the header's commas but no date under it, and the
    // line that closes the cell (the rest of its row), whatever its commas.
    const notes = `claimId,dateOfServiceFrom,note\nV1,${d},"Meds:\naspirin, lisinopril, insulin\nend"\n"two\nline id",${d},n\nV2,${d},n\n`;
    expect(await records([notes])).toEqual([
      { text: 'claimId,dateOfServiceFrom,note', line: 1 },
      { text: `V1,${d},"Meds:\naspirin, lisinopril, insulin\nend"`, line: 2 },
      { text: `"two\nline id",${d},n`, line: 5 },
      { text: `V2,${d},n`, line: 7 },
    ]);
  });

  it('skips lines of spaces and tabs as blank lines', async () => {
    expect(await records(['id,line\nV1,1\n   \n\t\r\nV1,2\n'])).toEqual([
      { text: 'id,line', line: 1 },
      { text: 'V1,1', line: 2 },
      { text: 'V1,2', line: 5 },
    ]);
  });

  it('a quote inside an unquoted cell is text, not the start of a quoted cell: the rows after it stay rows', async () => {
    // Two stray quotes (`2" long`, `3" long`) ran the rows between them into one record: three claims vanished.
    const csv = 'id,notes\nA2,wound 2" long\nA3,\nA4,x\nA5,wound 3" long\nA6,\n';
    expect(await records([csv])).toEqual([
      { text: 'id,notes', line: 1 },
      { text: 'A2,wound 2" long', line: 2 },
      { text: 'A3,', line: 3 },
      { text: 'A4,x', line: 4 },
      { text: 'A5,wound 3" long', line: 5 },
      { text: 'A6,', line: 6 },
    ]);
    // A quoted cell still runs over lines, with "" inside it, and a cell after it; a quote after a closing one is
    // text again.
    expect(await records(['a,"x ""y""\nz",b\nc,"q"""\nd,"r"s\ne,f\n'])).toEqual([
      { text: 'a,"x ""y""\nz",b', line: 1 },
      { text: 'c,"q"""', line: 3 },
      { text: 'd,"r"s', line: 4 },
      { text: 'e,f', line: 5 },
    ]);
  });

  it('reads quoted and unquoted lines mixed in one read, numbering lines across quoted line breaks', async () => {
    const rows = Array.from({ length: 2000 }, (_, i) =>
      i % 7 === 3 ? `${String(i)},"a ""${String(i)}"", b"` : i % 11 === 5 ? `${String(i)},"two\nlines"` : `${String(i)},plain`,
    );
    const got = await records([`h,v\n${rows.join('\n')}\n`]);
    expect(got.map((r) => r.text)).toEqual(['h,v', ...rows]);
    expect(got.every((r) => r.problem === undefined)).toBe(true);
    let line = 2;
    rows.forEach((row, i) => {
      expect(got[i + 1]?.line).toBe(line);
      line += row.includes('\n') ? 2 : 1;
    });
  });

  it('gives up on a quote that runs over MAX_RECORD_BYTES and resumes on the next line, so memory stays bounded', async () => {
    const filler = `${'z'.repeat(1000)}\n`.repeat(Math.ceil(MAX_RECORD_BYTES / 1000) + 10);
    const got = await records(pieces(`a,b\n1,"open\n${filler}2,"closed"\n`, 64 * 1024));
    expect(got[1]).toMatchObject({ line: 2, problem: expect.stringMatching(/runs over/) as unknown });
    expect(got.at(-1)).toEqual({ text: '2,"closed"', line: 2 + (filler.length / 1001) + 1 });
    expect(got).toHaveLength(2 + filler.length / 1001 + 1);
  });

  it.each([64 * 1024, 1_000_003])(
    'a line over MAX_RECORD_BYTES is one unreadable record, and the rest of it is passed over (%i-byte chunks)',
    async (size) => {
      const long = `C2,1,${'P'.repeat(3 * MAX_RECORD_BYTES)}`;
      const got = await records(pieces(`a,b,c\nC1,1,x\n${long}\nC3,1,y\n`, size));
      expect(got.map((r) => [r.line, r.problem ?? r.text])).toEqual([
        [1, 'a,b,c'],
        [2, 'C1,1,x'],
        [3, `a line longer than ${MAX_RECORD_BYTES} bytes`],
        [4, 'C3,1,y'],
      ]);
      expect(got[2]?.text.length).toBeLessThanOrEqual(256);
    },
  );

  it('a CRLF line of exactly MAX_RECORD_BYTES is a record: its CR is no part of its length', async () => {
    const exact = `C2,${'P'.repeat(MAX_RECORD_BYTES - 3)}`;
    const got = await records([`a,b\r\n${exact}\r\nC3,y\r\n`]);
    expect(got.map((r) => [r.line, r.problem ?? r.text.length])).toEqual([
      [1, 3],
      [2, MAX_RECORD_BYTES],
      [3, 4],
    ]);
  });

  it('a line just over MAX_RECORD_BYTES that arrives whole in one read is one unreadable record too', async () => {
    const plain = `C2,1,${'P'.repeat(MAX_RECORD_BYTES)}`;
    const got = await records([`a,b,c\nC1,1,x\n${plain}\nC4,1,y\n`]);
    expect(got.map((r) => [r.line, r.problem ?? r.text])).toEqual([
      [1, 'a,b,c'],
      [2, 'C1,1,x'],
      [3, OVERLONG_LINE],
      [4, 'C4,1,y'],
    ]);
  });

  it('keeps the start of each cell of a line over MAX_RECORD_BYTES in its place, so its claim id column is read', async () => {
    // claimId last, after a 1 MiB note: the first 256 bytes kept before held no claim id, and the claim's other
    // rows were scrubbed as claims of their own.
    // A quoted cell's commas split no cell.
    const long = `"${'N, '.repeat(MAX_RECORD_BYTES / 3)}",2,X2`;
    const got = await records([`note,lineNumber,claimId\nn,1,X2\n${long}\nn,3,X2\n`]);
    expect(got.map((r) => [r.line, r.problem ?? '', r.text.split(',').at(-1), r.text.length < 200])).toEqual([
      [1, '', 'claimId', true],
      [2, '', 'X2', true],
      [3, OVERLONG_LINE, 'X2', true],
      [4, '', 'X2', true],
    ]);
  });

  it('a line holding a NUL byte is unreadable; the lines around it are read', async () => {
    expect(NUL_BYTE).toMatch(/NUL byte/);
    expect(await records([Buffer.from('a,b\nC1,9921\u00003\nC2,ok\n')])).toEqual([
      { text: 'a,b', line: 1 },
      { text: 'C1,9921\u00003', line: 2, problem: NUL_BYTE },
      { text: 'C2,ok', line: 3 },
    ]);
  });

  it('a line with bytes that are not UTF-8 (a Latin-1 file) is unreadable; the lines around it are read', async () => {
    const latin1 = Buffer.concat([Buffer.from('a,b\nC1,M'), Buffer.from([0xdc]), Buffer.from('LLER\nC2,ok\n')]);
    expect(await records([latin1])).toEqual([
      { text: 'a,b', line: 1 },
      { text: 'C1,M\uFFFDLLER', line: 2, problem: NOT_UTF8 },
      { text: 'C2,ok', line: 3 },
    ]);
  });

  it.each([1, 2, 5, 1024])('reads a file whose lines end with a bare CR (%i-byte chunks)', async (size) => {
    const crText = 'a,b\r1,"x\ry"\r\r2,z\r3,w';
    expect(await records(pieces(crText, size))).toEqual([
      { text: 'a,b', line: 1 },
      { text: '1,"x\ny"', line: 2 },
      { text: '2,z', line: 5 },
      { text: '3,w', line: 6 },
    ]);
    // CRLF and LF files are not taken for CR files, even with a CR in a quoted cell.
    expect(await records(pieces('a,b\r\n1,"x\ry"\r\n', size))).toEqual([
      { text: 'a,b', line: 1 },
      { text: '1,"x\ry"', line: 2 },
    ]);
  });
});
