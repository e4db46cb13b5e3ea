import { stringify } from 'csv-stringify/sync';
import { describe, expect, it } from 'vitest';
import {
  claimFrameHeader,
  claimFrameText,
  claimRowHead,
  claimsCsvRow,
  claimTally,
  csvHeader,
  csvText,
  FINDING_COLUMNS,
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
    const text = claimFrameText(frame);
    const nl = text.indexOf('\n');
    const header = claimFrameHeader(text.slice(0, nl));
    expect(header?.frame).toEqual({ order: 12, bytes: [40, 0, 3], tally: frame.tally });
    const rest = Buffer.from(text.slice(nl + 1), 'utf8');
    expect(rest.length).toBe((header?.providerBytes ?? 0) + (header?.headBytes ?? 0));
    expect(rest.subarray(0, header?.providerBytes).toString('utf8')).toBe(frame.provider);
    expect(claimFrameHeader('12 40 0 3 unknown 0 3 1 0 1 1')).toBeUndefined();
    expect(claimFrameHeader('12 40 0 3 clean 0 3 1 0 1')).toBeUndefined();
    expect(claimFrameHeader('12 -4 0 3 clean 0 3 1 0 1 1')).toBeUndefined();
  });
});
