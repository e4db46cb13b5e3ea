import { describe, expect, test } from 'vitest';
import { readXlsxRows } from '../../src/readers/xlsx.js';
import { openZipBufferEntry, zipBufferEntries } from '../../src/readers/zip-buffer.js';
import { makeXlsx, makeZip } from '../helpers/zip.js';

const collect = async <T>(items: AsyncIterable<T>): Promise<T[]> => {
  const out: T[] = [];
  for await (const item of items) {
    out.push(item);
  }
  return out;
};

const text = async (s: NodeJS.ReadableStream): Promise<string> => {
  const parts: Buffer[] = [];
  for await (const c of s as AsyncIterable<Buffer>) {
    parts.push(c);
  }
  return Buffer.concat(parts).toString('latin1');
};

describe('in-memory ZIP and XLSX', () => {
  test('lists and inflates the members of a ZIP held in a buffer', async () => {
    const zip = makeZip({ 'a.txt': 'alpha', 'dir/b.csv': 'x,y\r\n1,2\r\n' });
    expect(zipBufferEntries(zip).map((e) => e.name)).toEqual(['a.txt', 'dir/b.csv']);
    expect(await text(openZipBufferEntry(zip, 'dir/b.csv'))).toBe('x,y\r\n1,2\r\n');
    expect(() => openZipBufferEntry(zip, 'missing')).toThrow(/Expected the member "missing"/);
    expect(() => zipBufferEntries(Buffer.from('not a zip at all, not even close to one'))).toThrow(/no end-of-central-directory/);
  });

  test('reads a workbook nested in another archive the same way as one on disk', async () => {
    const book = makeXlsx({ Sheet1: [['HCPCS', 'Description'], ['A0021', 'Ambulance, outside state'], ['E0100', null]] });
    const outer = makeZip({ 'NOC.xlsx': book });
    const nested = Buffer.concat(await collect(openZipBufferEntry(outer, 'NOC.xlsx') as AsyncIterable<Buffer>));
    const rows = await collect(readXlsxRows(nested));
    expect(rows).toEqual([
      { rowNumber: 1, cells: ['HCPCS', 'Description'] },
      { rowNumber: 2, cells: ['A0021', 'Ambulance, outside state'] },
      { rowNumber: 3, cells: ['E0100'] },
    ]);
  });
});
