import { describe, expect, it } from 'vitest';
import { recogniseClaimFormat } from '../../../src/readers/claims/detect.js';

describe('recogniseClaimFormat', () => {
  it('a claim file with a stray NUL byte in its first bytes is still that format (the row holding it is rejected)', () => {
    expect(recogniseClaimFormat(Buffer.from('claimId,lineNumber,note\nV1,1,a\u0000b\n'), 'f.csv')).toBe('csv');
    expect(recogniseClaimFormat(Buffer.from('{"claimId":"V1","x":"\u0000"}\n'), 'f.ndjson')).toBe('ndjson');
  });

  it('bytes of no claim format that hold NULs are binary; half NULs are UTF-16 without a byte order mark', () => {
    expect(() => recogniseClaimFormat(Buffer.from([0x00, 0x01, 0x02, 0xff, 0x00, 0x10]), 'f.dat')).toThrow(/binary content, not a claim file/);
    expect(() => recogniseClaimFormat(Buffer.from('claimId,lineNumber\n', 'utf16le'), 'f.csv')).toThrow(/UTF-16 text without a byte order mark/);
    expect(() => recogniseClaimFormat(Buffer.from('x'), 'f.csv')).toThrow(/not a claim file: expected an X12 837/);
  });

  it('a file of blank lines or a byte order mark alone is named blank, not another kind of file', () => {
    expect(() => recogniseClaimFormat(Buffer.from(''), 'f.csv')).toThrow(/f\.csv: the file is empty/);
    for (const text of ['\uFEFF', '\n\r\n  \n', '\uFEFF\n\n']) {
      expect(() => recogniseClaimFormat(Buffer.from(text), 'f.ndjson')).toThrow(/^f\.ndjson: no claims: the file is blank/);
    }
  });
});
