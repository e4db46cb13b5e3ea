import { describe, expect, test } from 'vitest';
import { ScrubberError } from '../../../src/errors.js';
import { readX12Segments, type X12Segment } from '../../../src/readers/claims/x12-segments.js';

const ISA =
  'ISA*00*          *00*          *ZZ*SENDER         *ZZ*RECEIVER       *260510*1200*^*00501*000000001*0*T*:~';

async function* chunks(...parts: (string | Buffer)[]): AsyncGenerator<Buffer> {
  for (const p of parts) {
    yield typeof p === 'string' ? Buffer.from(p, 'latin1') : p;
  }
}

async function segmentsOf(...parts: (string | Buffer)[]): Promise<X12Segment[]> {
  const out: X12Segment[] = [];
  for await (const s of readX12Segments(chunks(...parts), 'f.837')) {
    out.push(s);
  }
  return out;
}

const ids = (segs: X12Segment[]): string[] => segs.map((s) => s.id);

describe('readX12Segments', () => {
  test('reads the delimiters from the ISA and numbers segments from 1', async () => {
    const segs = await segmentsOf(`${ISA}GS*HC*A*B*20260510*1200*1*X*005010X222A1~ST*837*0001~SV1*HC:99213*95*UN*1~`);
    expect(ids(segs)).toEqual(['ISA', 'GS', 'ST', 'SV1']);
    expect(segs.map((s) => s.segNo)).toEqual([1, 2, 3, 4]);
    expect(segs[0]?.delimiters).toEqual({ element: '*', repetition: '^', component: ':', segment: '~' });
    expect(segs[3]?.elements).toEqual(['SV1', 'HC:99213', '95', 'UN', '1']);
    expect(segs[3]?.element(4)).toBe('1');
    expect(segs[3]?.element(9)).toBe('');
  });

  test('element() reads any element in any order, the same as elements', async () => {
    const [, seg] = await segmentsOf(`${ISA}CLM*A1*100***11:B:1*Y~`);
    expect([seg?.element(5), seg?.element(1), seg?.element(6), seg?.element(2), seg?.element(7)]).toEqual([
      '11:B:1',
      'A1',
      'Y',
      '100',
      '',
    ]);
  });

  test('tolerates a BOM, CRLF, indentation, trailing blanks and no final terminator', async () => {
    const text = `\uFEFF${ISA}\r\n  GS*HC*A*B~  \r\n\tST*837*0001~\r\n    IEA*1*000000001`;
    const segs = await segmentsOf(Buffer.from(text, 'utf8'));
    expect(ids(segs)).toEqual(['ISA', 'GS', 'ST', 'IEA']);
    expect(segs[1]?.elements).toEqual(['GS', 'HC', 'A', 'B']);
    expect(segs[3]?.elements).toEqual(['IEA', '1', '000000001']);
  });

  test('gives the same segments whatever the chunk boundaries', async () => {
    const text = `${ISA}\nGS*HC*A*B~\nST*837*0001~\nSE*2*0001~\n${ISA.replace('000000001', '000000002')}\nIEA*1*2~`;
    const whole = await segmentsOf(text);
    const bytes = [...text].map((c) => Buffer.from(c, 'latin1'));
    const oneByOne = await segmentsOf(...bytes);
    expect(oneByOne.map((s) => [s.segNo, ...s.elements])).toEqual(whole.map((s) => [s.segNo, ...s.elements]));
    expect(whole).toHaveLength(6);
  });

  test('reads a chunk larger than the pieces it is decoded in as it reads small chunks', async () => {
    // Segments across the 64 KB pieces a chunk is decoded in, one longer than a piece, and an interchange with other
    // delimiters starting in the second piece.
    const second =
      'ISA|00|          |00|          |ZZ|SENDER         |ZZ|RECEIVER       |260510|1200|U|00401|000000002|0|T|>\n';
    const parts = [ISA];
    for (let i = 0; parts.join('').length < 70_000; i++) {
      parts.push(`NTE*ADD*${'N'.repeat(i % 97)}${String(i)}~\r\n`);
    }
    parts.push(second, `NTE|ADD|${'L'.repeat(100_000)}\n`);
    for (let i = 0; i < 3000; i++) {
      parts.push(`SV1|HC>${String(i)}|95\n`);
    }
    parts.push('IEA|1|000000002\n');
    const text = parts.join('');
    expect(text.length).toBeGreaterThan(3 * 64 * 1024);
    const whole = await segmentsOf(text);
    const small: string[] = [];
    for (let at = 0; at < text.length; at += 1000) {
      small.push(text.slice(at, at + 1000));
    }
    const inSmall = await segmentsOf(...small);
    expect(whole.map((s) => [s.segNo, s.delimiters.element, ...s.elements])).toEqual(
      inSmall.map((s) => [s.segNo, s.delimiters.element, ...s.elements]),
    );
    expect(whole).toHaveLength(parts.length);
    expect(whole.at(-2)?.elements).toEqual(['SV1', 'HC>2999', '95']);
    expect(whole.find((s) => s.elements[1] === 'ADD' && s.delimiters.element === '|')?.elements[2]).toHaveLength(100_000);
  });

  test('lets each interchange declare its own delimiters, numbering on across them', async () => {
    const second =
      'ISA|00|          |00|          |ZZ|SENDER         |ZZ|RECEIVER       |260510|1200|U|00401|000000002|0|T|>\n';
    const segs = await segmentsOf(`${ISA}IEA*1*000000001~`, second, 'SV1|HC>99213|95\nIEA|1|000000002\n');
    expect(ids(segs)).toEqual(['ISA', 'IEA', 'ISA', 'SV1', 'IEA']);
    expect(segs[2]?.segNo).toBe(3);
    expect(segs[3]?.delimiters).toEqual({ element: '|', repetition: undefined, component: '>', segment: '\n' });
    expect(segs[3]?.elements).toEqual(['SV1', 'HC>99213', '95']);
  });

  test('reads an ISA that is not fixed-length', async () => {
    const segs = await segmentsOf('ISA*00**00**ZZ*S*ZZ*R*260510*1200*^*00501*1*0*T*>~GS*HC~');
    expect(segs[0]?.delimiters.component).toBe('>');
    expect(ids(segs)).toEqual(['ISA', 'GS']);
  });

  test('refuses UTF-16 with a byte order mark', async () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(ISA, 'utf16le')]);
    await expect(segmentsOf(utf16)).rejects.toThrow(/UTF-16/);
  });

  test('refuses UTF-16 without a byte order mark', async () => {
    await expect(segmentsOf(Buffer.from(ISA, 'utf16le'))).rejects.toThrow(/UTF-16 text \(every second byte is 0\)/);
  });

  test('refuses binary data (a NUL byte), also after the first chunk', async () => {
    const err = await segmentsOf(ISA, Buffer.from([0x47, 0x53, 0x00, 0x2a])).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ScrubberError);
    expect((err as ScrubberError).code).toBe('INPUT_FORMAT');
    expect((err as ScrubberError).message).toMatch(/NUL byte at offset 108/);
  });

  test('refuses text that does not open with an ISA', async () => {
    await expect(segmentsOf('claimId,lineNumber\nC1,1\n')).rejects.toThrow(/does not start with an ISA segment/);
    await expect(segmentsOf('  \n')).rejects.toThrow(/it is empty/);
  });

  test('refuses an ISA whose delimiters cannot be read', async () => {
    await expect(segmentsOf('ISA*00*00*ZZ~GS*HC~')).rejects.toThrow(/segment 1 \(ISA\)/);
  });
});
