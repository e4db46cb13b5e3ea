import { stringify } from 'csv-stringify/sync';
import { describe, expect, it } from 'vitest';
import { claimStatusOf, csvHeader, csvText, FINDING_COLUMNS } from '../../src/reports/rows.js';
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
    expect(claimStatusOf([])).toBe('clean');
    expect(claimStatusOf([f('info')])).toBe('clean');
    expect(claimStatusOf([f('info'), f('warning')])).toBe('warnings');
    expect(claimStatusOf([f('warning'), f('error'), f('info')])).toBe('errors');
  });
});
