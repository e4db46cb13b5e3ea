// The NDJSON claim reader: claims as they are, and lines that are not claims rejected with a reason that never
// quotes the line (it may hold patient data).
import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { claimIdOfJsonLine, claimOfJsonLine, notJsonReason, readNdjsonClaims } from '../../../src/readers/claims/ndjson.js';
import { MAX_RECORD_BYTES, OVERLONG_LINE } from '../../../src/readers/claims/csv-records.js';
import type { ReadItem } from '../../../src/readers/claims/types.js';
import { NOT_UTF8, NUL_BYTE, NUL_VALUE } from '../../../src/readers/claims/utf8.js';

const sample = readFileSync('samples/claims/claims.ndjson', 'utf8').split('\n')[0] ?? '';

async function items(text: string): Promise<ReadItem[]> {
  const out: ReadItem[] = [];
  for await (const item of readNdjsonClaims(Readable.from([Buffer.from(text)]), 'f.ndjson')) {
    out.push(item);
  }
  return out;
}

describe('NDJSON claims', () => {
  test('a stream that fails inside a line (a gzip cut short): the partial line is rejected, then the fault thrown', async () => {
    const source = new Readable({ read() {} });
    source.push(Buffer.from(`${sample}\n{"claimId":"N2","li`));
    setImmediate(() => source.destroy(new Error('unexpected end of file')));
    const got: ReadItem[] = [];
    await expect(
      (async () => {
        for await (const item of readNdjsonClaims(source, 'f.ndjson')) {
          got.push(item);
        }
      })(),
    ).rejects.toThrow(/unexpected end of file/);
    expect(got.map((i) => [i.kind, i.kind === 'rejected' ? i.records[0]?.reason : i.line])).toEqual([
      ['claim', 1],
      ['rejected', 'the file cannot be read past this line: it may be cut short'],
    ]);
  });

  test('a claim per line, blank lines skipped, BOM dropped, line numbers kept', async () => {
    const got = await items(`\uFEFF${sample}\n\n${sample}\r\n`);
    expect(got.map((i) => [i.kind, i.kind === 'claim' ? i.line : -1])).toEqual([
      ['claim', 1],
      ['claim', 3],
    ]);
  });

  test('lines may end with a bare CR; a line over MAX_RECORD_BYTES is one rejected record, the next read', async () => {
    const got = await items(`${sample}\r\r${sample}\r{"claimId":"${'x'.repeat(MAX_RECORD_BYTES)}"}\r\n${sample}`);
    expect(got.map((i) => [i.kind, i.kind === 'claim' ? i.line : i.records[0]?.line, i.kind === 'rejected' ? i.records[0]?.reason : ''])).toEqual([
      ['claim', 1, ''],
      ['claim', 3, ''],
      ['rejected', 4, OVERLONG_LINE],
      ['claim', 5, ''],
    ]);
  });

  test.each([
    ['{"claimId":"C1","patient":{"id":DOE-JANE-9}}', 'not JSON: an unexpected character'],
    ['{"claimId":"C1","patient":{"id":"DOE-JANE-9"', 'not JSON: expected \',\' or \'}\' after property value at character 45'],
    ['{"claimId":"C1","patient":{"id":"DOE-JANE-9', 'not JSON: a string is not closed at character 44'],
    ['{"claimId":"C1"} DOE-JANE-9', 'not JSON: more text after the value at character 18'],
  ])('a line that is not JSON is rejected without quoting it: %s', (line, reason) => {
    const item = claimOfJsonLine(line, 7, 'f.ndjson');
    expect(item).toMatchObject({ kind: 'rejected', records: [{ file: 'f.ndjson', line: 7, reason }] });
    expect(JSON.stringify(item)).not.toContain('DOE');
  });

  test('every V8 message shape maps to fixed words', () => {
    for (const text of ['', '{', '[1,', '{"a":"\u0001"}', '{"a":"\\q"}', '{a:1}', 'nul']) {
      let error: unknown;
      try {
        JSON.parse(text);
      } catch (e) {
        error = e;
      }
      expect(notJsonReason(error)).toMatch(/^not JSON: [a-z][a-z ',{}[\]:]+( at character \d+)?$/);
    }
  });

  test('a line with bytes that are not UTF-8 is rejected, never read with U+FFFD in a patient id', async () => {
    const latin1 = Buffer.concat([Buffer.from(sample.replace('"P0021"', '"M')), Buffer.from([0xdc]), Buffer.from('LLER"}\n')]);
    const got: ReadItem[] = [];
    for await (const item of readNdjsonClaims(Readable.from([latin1]), 'f.ndjson')) {
      got.push(item);
    }
    expect(got).toMatchObject([{ kind: 'rejected', records: [{ line: 1, reason: NOT_UTF8 }] }]);
  });

  test('a line holding a NUL byte is rejected under the claim id it gives, a NUL in the id written U+FFFD', () => {
    expect(claimOfJsonLine(sample.replace('"I10"', '"I1\u00000"'), 5, 'f.ndjson')).toMatchObject({
      kind: 'rejected',
      claimId: 'N2001',
      records: [{ line: 5, reason: NUL_BYTE, claimId: 'N2001' }],
    });
    expect(claimOfJsonLine(sample.replace('"N2001"', '"N20\u000001"'), 5, 'f.ndjson')).toMatchObject({ claimId: 'N20\uFFFD01' });
    // A claim no worker could read is named the same way (claimIdOfJsonLine, on the main thread).
    expect(claimIdOfJsonLine(sample.replace('"I10"', '"I1\u00000"'))).toBe('N2001');
    // Not JSON beside the NUL: no claim id.
    expect(claimOfJsonLine('{"claimId":"N1",\u0000', 5, 'f.ndjson')).toMatchObject({ kind: 'rejected', claimId: undefined });
  });

  test('a JSON line whose values hold a NUL character (\\u0000) is rejected, its claim id written with U+FFFD', () => {
    const withNul = sample.replace('"N2001"', '"N20\\u000001"');
    expect(claimOfJsonLine(withNul, 3, 'f.ndjson')).toMatchObject({
      kind: 'rejected',
      claimId: 'N20\uFFFD01',
      records: [{ line: 3, reason: NUL_VALUE }],
    });
    expect(claimOfJsonLine(sample.replace('"I10"', '"I1\\u00000"'), 3, 'f.ndjson')).toMatchObject({
      kind: 'rejected',
      claimId: 'N2001',
      records: [{ reason: NUL_VALUE }],
    });
    // An escaped backslash followed by u0000 is text, not a NUL: that claim is read (and its code found malformed).
    expect(claimOfJsonLine(sample.replace('"I10"', '"I1\\\\u00000"'), 3, 'f.ndjson').kind).toBe('claim');
  });

  test('a JSON line that is not a claim names the first schema issue', () => {
    const item = claimOfJsonLine('{"claimId":"C9","lines":"x"}', 2, 'f.ndjson');
    expect(item).toMatchObject({ kind: 'rejected', claimId: 'C9', records: [{ line: 2 }] });
  });

  test('a claim without service lines or with dates that end before they start is rejected', () => {
    const claim = JSON.parse(sample) as { claimId: string; dateOfServiceFrom: string; lines: { lineNumber: number }[] };
    expect(claimOfJsonLine(sample, 1, 'f.ndjson').kind).toBe('claim');
    const reasonOf = (changed: unknown): string | undefined => {
      const item = claimOfJsonLine(JSON.stringify(changed), 4, 'f.ndjson');
      return item.kind === 'rejected' ? `${item.claimId ?? ''} ${item.records[0]?.reason ?? ''}` : undefined;
    };
    expect(reasonOf({ ...claim, lines: [] })).toBe(`${claim.claimId} lines: the claim has no service lines`);
    // A line number twice is the engine's finding (CLAIM_DUPLICATE_LINE), not the reader's.
    const first = claim.lines[0] as { lineNumber: number };
    expect(reasonOf({ ...claim, lines: [first, first] })).toBeUndefined();
    expect(reasonOf({ ...claim, dateOfServiceTo: '2020-01-01' })).toBe(
      `${claim.claimId} dateOfServiceTo: 2020-01-01 is before dateOfServiceFrom ${claim.dateOfServiceFrom}`,
    );
    expect(reasonOf({ ...claim, dateOfServiceTo: claim.dateOfServiceFrom })).toBeUndefined();
  });

  test('units past 15 digits are rejected, as a CSV cell or an 837 SV104 of them is', () => {
    const claim = JSON.parse(sample) as { claimId: string; lines: Record<string, unknown>[] };
    const withUnits = (units: number): string =>
      JSON.stringify({ ...claim, lines: claim.lines.map((l) => ({ ...l, units })) });
    expect(claimOfJsonLine(withUnits(999_999_999_999_999), 1, 'f.ndjson').kind).toBe('claim');
    const item = claimOfJsonLine(withUnits(1e20), 1, 'f.ndjson');
    expect(item).toMatchObject({ kind: 'rejected', claimId: claim.claimId });
    expect(item.kind === 'rejected' ? item.records[0]?.reason : '').toMatch(/^lines\.0\.units: /);
  });

  test('an institutional line with a revenue code and no procedure code is a revenue-only line, as in a CSV or 837I', () => {
    const claim = JSON.parse(sample) as Record<string, unknown> & { lines: Record<string, unknown>[] };
    const line = claim.lines[0] as Record<string, unknown>;
    const roomAndBoard = { lineNumber: 9, revenueCode: '0120', units: 3, modifiers: [] };
    const inst = { ...claim, claimType: 'institutional', lines: [roomAndBoard, line, { ...roomAndBoard, lineNumber: 10, procedureCode: '' }] };
    const item = claimOfJsonLine(JSON.stringify(inst), 1, 'f.ndjson');
    expect(item).toMatchObject({ kind: 'claim', inputLines: 1, revenueOnlyLines: 2 });
    expect(item.kind === 'claim' ? item.claim.lines.map((l) => l.procedureCode) : []).toEqual([line['procedureCode']]);
    // Revenue-only lines alone: the claim's diagnoses are still checked.
    expect(claimOfJsonLine(JSON.stringify({ ...inst, lines: [roomAndBoard] }), 1, 'f.ndjson')).toMatchObject({ kind: 'claim', revenueOnlyLines: 1 });
    // A schema fault names the line where the file has it, revenue-only lines counted.
    const bad = claimOfJsonLine(JSON.stringify({ ...inst, lines: [roomAndBoard, { ...line, units: -1 }] }), 1, 'f.ndjson');
    expect(bad.kind === 'rejected' ? bad.records[0]?.reason : '').toMatch(/^lines\.1\.units: /);
    // A revenue-only line is checked as any line is: its units, date and modifiers too.
    for (const [bad, path] of [
      [{ units: -4 }, 'lines.0.units'],
      [{ dateOfService: 'garbage' }, 'lines.0.dateOfService'],
      [{ modifiers: ['XXX'] }, 'lines.0.modifiers.0'],
    ] as const) {
      const got = claimOfJsonLine(JSON.stringify({ ...inst, lines: [{ ...roomAndBoard, ...bad }, line] }), 1, 'f.ndjson');
      expect(got.kind === 'rejected' ? got.records[0]?.reason : '').toMatch(new RegExp(`^${path.replace(/\./g, '\\.')}: `));
    }
    // Not on a professional claim; a revenue code that is none is named, as a CSV row's is.
    const professional = claimOfJsonLine(JSON.stringify({ ...inst, claimType: 'professional' }), 1, 'f.ndjson');
    expect(professional.kind === 'rejected' ? professional.records[0]?.reason : '').toMatch(/^lines\.0\.procedureCode: /);
    const notRevenue = claimOfJsonLine(JSON.stringify({ ...inst, lines: [{ ...roomAndBoard, revenueCode: '12' }] }), 1, 'f.ndjson');
    expect(notRevenue.kind === 'rejected' ? notRevenue.records[0]?.reason : '').toMatch(/^lines\.0\.revenueCode: /);
    // The first fault in the file's order: an ordinary line's before a later revenue-only line's.
    const both = claimOfJsonLine(JSON.stringify({ ...inst, lines: [{ ...line, units: -1 }, { ...roomAndBoard, units: -4 }] }), 1, 'f.ndjson');
    expect(both.kind === 'rejected' ? both.records[0]?.reason : '').toMatch(/^lines\.0\.units: /);
    // Revenue-only lines and no diagnosis: nothing to check (a UB-04 always names a principal diagnosis).
    const empty = claimOfJsonLine(JSON.stringify({ ...inst, diagnoses: [], lines: [roomAndBoard] }), 1, 'f.ndjson');
    expect(empty.kind === 'rejected' ? empty.records[0]?.reason : '').toBe(
      'the claim has no diagnosis and no line with a procedure code (only revenue-only lines): nothing to check',
    );
  });
});
