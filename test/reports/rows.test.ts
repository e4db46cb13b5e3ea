import { stringify } from 'csv-stringify/sync';
import { describe, expect, it } from 'vitest';
import {
  CLAIM_STATUSES,
  claimFrameText,
  claimRowHead,
  claimsCsvRow,
  claimTally,
  csvHeader,
  csvText,
  FINDING_COLUMNS,
  FRAME,
  FRAME_CELLS,
  readFrameHeader,
  rowTailLength,
  REJECTED_TALLY,
  withCrossClaim,
  type ClaimFrame,
} from '../../src/reports/rows.js';
import type { Finding } from '../../src/schemas/findings.js';

describe('report rows', () => {
  it('csvText writes the bytes csv-stringify writes, quoting only what needs it', () => {
    const rows = [
      ['plain', 1, 'a,b', 'say "hi"', 'two\nlines', '', 'é ü'],
      ['x', 0, ' lead', 'trail ', ',', '"', '\r\n', '|'],
    ];
    expect(csvText(rows)).toBe(stringify(rows, { eof: true, record_delimiter: 'unix' }));
    expect(csvText([])).toBe('');
  });

  it('quotes a lone CR too, which csv-stringify leaves bare (a reader taking CR for a line end would split the row)', () => {
    expect(csvText([['cr\rhere', 'x']])).toBe('"cr\rhere",x\n');
  });

  it('the findings header names the documented columns', () => {
    expect(csvHeader(FINDING_COLUMNS)).toBe(`${FINDING_COLUMNS.join(',')}\n`);
  });

  it('a claim rolls up to its worst severity; info leaves it clean', () => {
    const f = (severity: Finding['severity']): Finding => ({ rule: 'r', code: 'C', severity, claimId: 'A', lines: [], codes: [], message: 'm' });
    expect(claimTally([], []).status).toBe('clean');
    expect(claimTally([f('info')], []).status).toBe('clean');
    expect(claimTally([f('info'), f('warning')], []).status).toBe('warnings');
    expect(claimTally([f('warning'), f('error'), f('info')], [{ rule: 'ncci.mue', claimId: 'A', lines: [1], missing: 'x', reason: 'y' }])).toEqual({
      status: 'errors',
      errors: 1,
      warnings: 1,
      info: 1,
      notChecked: 1,
    });
  });

  it("a claim's cross-claim findings count in its status and counts; a rejected claim stays rejected", () => {
    const head = claimRowHead('in "a".csv', 7, 'C,1', 'professional', 2);
    expect(head).toBe('"in ""a"".csv",7,"C,1",professional,2,');
    const clean = { status: 'clean', errors: 0, warnings: 0, info: 1, notChecked: 2 } as const;
    expect(claimsCsvRow(head, withCrossClaim(clean, undefined))).toBe(`${head}clean,0,0,1,2,0\n`);
    expect(claimsCsvRow(head, withCrossClaim(clean, { errors: 0, warnings: 2, info: 0 }))).toBe(`${head}warnings,0,2,1,2,2\n`);
    const warned = { ...clean, status: 'warnings', warnings: 1 } as const;
    expect(withCrossClaim(warned, { errors: 1, warnings: 0, info: 0 })).toEqual({ ...warned, status: 'errors', errors: 1, crossClaim: 1 });
    expect(withCrossClaim(REJECTED_TALLY, { errors: 1, warnings: 0, info: 0 }).status).toBe('rejected');
  });

  it('a claim frame reads back as written, whatever its texts hold', () => {
    const frame: ClaimFrame = {
      order: 12,
      bytes: [40, 0, 3],
      tally: { status: 'warnings', errors: 0, warnings: 3, info: 1, notChecked: 0 },
      provider: 'contractor 0\n5é',
      head: claimRowHead('f.csv', 2, 'é\n1', 'dme', 1),
    };
    const text = Buffer.from(claimFrameText(frame), 'utf8');
    const nl = text.indexOf(10);
    const cells = new Float64Array(FRAME_CELLS);
    expect(readFrameHeader(text, 0, nl, cells)).toBe(true);
    const ownRow = claimsCsvRow(frame.head, withCrossClaim(frame.tally, undefined));
    expect([...cells]).toEqual([
      12, 40, 0, 3, CLAIM_STATUSES.indexOf('warnings'), 0, 3, 1, 0,
      Buffer.byteLength(frame.provider), Buffer.byteLength(ownRow), Buffer.byteLength(frame.head),
    ]);
    expect(rowTailLength(cells)).toBe((cells[FRAME.rowBytes] as number) - (cells[FRAME.headBytes] as number));
    const wide = new Float64Array(FRAME_CELLS);
    const big = Buffer.from(claimFrameText({ ...frame, tally: { status: 'rejected', errors: 10, warnings: 999, info: 0, notChecked: 12_345 } }), 'utf8');
    expect(readFrameHeader(big, 0, big.indexOf(10), wide)).toBe(true);
    expect(rowTailLength(wide)).toBe((wide[FRAME.rowBytes] as number) - (wide[FRAME.headBytes] as number));
    const providerEnd = nl + 1 + (cells[FRAME.providerBytes] as number);
    expect(text.toString('utf8', nl + 1, providerEnd)).toBe(frame.provider);
    // The rest is the claim's claims.csv row as its own findings make it, the head first.
    expect(text.length).toBe(providerEnd + (cells[FRAME.rowBytes] as number));
    expect(text.toString('utf8', providerEnd)).toBe(ownRow);
    expect(text.toString('utf8', providerEnd, providerEnd + (cells[FRAME.headBytes] as number))).toBe(frame.head);
    const header = (line: string): boolean => {
      const bytes = Buffer.from(line, 'latin1');
      return readFrameHeader(bytes, 0, bytes.length, new Float64Array(FRAME_CELLS));
    };
    expect(header('12 40 0 3 clean 0 3 1 0 1 9 1')).toBe(true);
    expect(header('12 40 0 3 unknown 0 3 1 0 1 9 1')).toBe(false);
    expect(header('12 40 0 3 clean 0 3 1 0 1 9')).toBe(false);
    expect(header('12 40 0 3 clean 0 3 1 0 1 9 1 4')).toBe(false);
    expect(header('12 -4 0 3 clean 0 3 1 0 1 9 1')).toBe(false);
    expect(header('12 40 0 3 clean 0 3 1 0 1 9 1 ')).toBe(false);
    expect(header('12 40  3 clean 0 3 1 0 1 9 1')).toBe(false);
    expect(header('12 40 0 3 clean 0 3 1 0 1 1.5 1')).toBe(false);
    // A head longer than its row.
    expect(header('12 40 0 3 clean 0 3 1 0 1 9 10')).toBe(false);
  });
});
