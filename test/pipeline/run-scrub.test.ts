// The scrub pipeline end to end in-process: real worker threads on the shared reference database, real files.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { finishRun } from '../../src/pipeline/finish-run.js';
import { runScrub, type ScrubOptions, type ScrubProgress } from '../../src/pipeline/run-scrub.js';
import { summaryText } from '../../src/pipeline/summary.js';
import { ScrubSummary } from '../../src/schemas/scrub.js';
import { createScrubPool, type ScrubPool } from '../../src/workers/pool.js';
import { sharedReferenceDbPath } from '../helpers/reference-db.js';
import { expectReportsAgree } from '../helpers/report-agreement.js';
import { makeZip } from '../helpers/zip.js';

const HEADER = 'claimId,lineNumber,patientId,claimType,dateOfServiceFrom,procedureCode,units,diagnosisCodes';
const reference = { database: 'shared', builtAt: 'test', schemaVersion: 1 };

/** `n` claims of 1-3 lines in March 2026 (the lab NCD list's quarter); every 50th claim has a bad units cell on its last line. */
function claimCsv(n: number): string {
  const rows = [HEADER];
  for (let c = 0; c < n; c++) {
    const lines = (c % 3) + 1;
    for (let l = 1; l <= lines; l++) {
      const units = c % 50 === 7 && l === lines ? 'x' : String(l);
      const [code, dx] = c % 4 === 0 ? ['83036', 'J06.9'] : c % 4 === 1 ? ['83036', 'E11.9'] : ['99213', 'I10'];
      rows.push(`K${String(c).padStart(5, '0')},${l},P${c % 97},professional,2026-03-0${(c % 9) + 1},${code},${units},${dx}`);
    }
  }
  return `${rows.join('\n')}\n`;
}

let pool: ScrubPool;
let dir: string;

beforeAll(async () => {
  pool = createScrubPool(2, await sharedReferenceDbPath());
  dir = mkdtempSync(join(tmpdir(), 'scrub-'));
}, 600_000);
afterAll(async () => {
  await pool.close();
});

async function scrub(name: string, inputs: string[], extra: Partial<ScrubOptions> = {}): Promise<{ out: string; summary: ScrubSummary }> {
  const out = join(dir, name);
  const summary = await runScrub({ inputs, outDir: out, formats: { csv: true, ndjson: true }, resume: false, ...extra }, { pool, reference });
  return { out, summary };
}
const read = (out: string, file: string): string => readFileSync(join(out, file), 'utf8');

describe('runScrub: an input that cannot be read to its end', () => {
  it('scrubs the claims before the fault and the other inputs, and names the fault under the input', async () => {
    const good = join(dir, 'a-good.csv');
    writeFileSync(good, claimCsv(30));
    const whole = gzipSync(claimCsv(3000));
    const cut = join(dir, 'b-cut.csv.gz');
    writeFileSync(cut, whole.subarray(0, Math.floor(whole.length / 2)));
    const after = join(dir, 'c-after.csv');
    writeFileSync(after, claimCsv(40));
    const { out, summary } = await scrub('cut-gzip', [good, cut, after]);
    const [a, b, c] = summary.inputs;
    expect([a?.claims, c?.claims]).toEqual([30, 40]);
    expect(a?.error).toBeUndefined();
    expect(b?.error).toMatch(/b-cut\.csv\.gz: cannot read: unexpected end of file/);
    expect(b?.claims).toBeGreaterThan(100);
    expect(b?.claims).toBeLessThan(3000);
    expect(summary.accounting).toMatchObject({ linesBalance: true, claimsBalance: true });
    expect(summary.claims.read).toBe(30 + (b?.claims ?? 0) + 40);
    expect(read(out, 'claims.csv').split('\n').filter((r) => r.startsWith(`${after},`))).toHaveLength(40);
    // The claim whose rows were being read at the cut is rejected whole (it may have lost rows), not dropped: the
    // last claim of the input in claims.csv, its last row read saying why.
    const cutRows = read(out, 'claims.csv').split('\n').filter((r) => r.startsWith(`${cut},`));
    expect(cutRows).toHaveLength(b?.claims ?? -1);
    expect(cutRows.at(-1)).toMatch(/,rejected,/);
    const reasons = read(out, 'rejected.csv').split('\n').filter((r) => r.startsWith(`${cut},`));
    expect(reasons.at(-1)).toMatch(/the file cannot be read past this row \(unexpected end of file\): rows of this claim after it may be lost/);
    // With --group-by any claim may have rows past the fault: each claim read is rejected whole, none is lost.
    const grouped = await scrub('cut-gzip-grouped', [cut], { groupBy: true });
    expect(grouped.summary.inputs[0]?.error).toMatch(/unexpected end of file/);
    expect(grouped.summary.claims).toMatchObject({ read: b?.claims, rejected: b?.claims });
    expect(grouped.summary.accounting).toMatchObject({ linesBalance: true, claimsBalance: true });
    expect(read(grouped.out, 'rejected.csv')).toMatch(/the file cannot be read past that point \(unexpected end of file\): rows of this claim after line \d+ may be lost/);
  }, 120_000);

  it('a gzip with trailing garbage: every claim of its data is read whole, the garbage named under the input', async () => {
    const csv = claimCsv(3000);
    const garbage = Buffer.from('this is not gzip\n');
    const path = join(dir, 'garbage.csv.gz');
    writeFileSync(path, Buffer.concat([gzipSync(csv), garbage]));
    const plain = join(dir, 'garbage-plain.csv');
    writeFileSync(plain, csv);
    const expected = await scrub('gzip-garbage-plain', [plain]);
    const named = /garbage\.csv\.gz: cannot read: 17 bytes after the end of the gzip data are not gzip \(trailing garbage\): ignored/;
    const rowsOf = (out: string, report: string, file: string): string[] =>
      read(out, report).split('\n').filter((r) => r.startsWith(`${file},`)).map((r) => r.slice(file.length));
    // Rows adjacent, rows gathered (--group-by): the same reports as the plain file's (Node's gunzip lost the
    // claims of its last read, unread and uncounted; the first version here rejected the last claim whole).
    for (const [name, extra] of [['gzip-garbage', {}], ['gzip-garbage-grouped', { groupBy: true }]] as const) {
      const { out, summary } = await scrub(name, [path], extra);
      expect(summary.inputs[0]?.error).toMatch(named);
      expect(summary.inputs[0]?.claims).toBe(3000);
      expect(summary.linesRead).toBe(expected.summary.linesRead);
      expect(summary.claims).toEqual(expected.summary.claims);
      expect(summary.accounting).toMatchObject({ linesBalance: true, claimsBalance: true });
      expect(rowsOf(out, 'claims.csv', path)).toEqual(rowsOf(expected.out, 'claims.csv', plain));
      expect(rowsOf(out, 'rejected.csv', path)).toEqual(rowsOf(expected.out, 'rejected.csv', plain));
    }
    // The samples' NDJSON, its last line without a line end: read whole too, as the plain file is.
    const ndText = readFileSync(new URL('../../samples/claims/claims.ndjson', import.meta.url), 'utf8').trimEnd();
    const ndPlain = join(dir, 'garbage-plain.ndjson');
    writeFileSync(ndPlain, ndText);
    const ndjson = join(dir, 'garbage.ndjson.gz');
    writeFileSync(ndjson, Buffer.concat([gzipSync(ndText), garbage]));
    const nd = await scrub('gzip-garbage-ndjson', [ndjson]);
    const ndExpected = await scrub('gzip-garbage-ndjson-plain', [ndPlain]);
    expect(nd.summary.inputs[0]?.error).toMatch(/trailing garbage/);
    expect(nd.summary.claims).toEqual(ndExpected.summary.claims);
    expect(rowsOf(nd.out, 'claims.csv', ndjson)).toEqual(rowsOf(ndExpected.out, 'claims.csv', ndPlain));
    // An 837P whose last segment has no terminator after it: every claim read, as from the plain file.
    const x12Text = readFileSync(new URL('../../samples/claims/claims-837p.txt', import.meta.url), 'latin1').trimEnd().replace(/~$/, '');
    const x12Plain = join(dir, 'garbage-plain.837');
    writeFileSync(x12Plain, x12Text, 'latin1');
    const x12 = join(dir, 'garbage.837.gz');
    writeFileSync(x12, Buffer.concat([gzipSync(Buffer.from(x12Text, 'latin1')), garbage]));
    const x = await scrub('gzip-garbage-837', [x12]);
    const xExpected = await scrub('gzip-garbage-837-plain', [x12Plain]);
    expect(x.summary.inputs[0]?.error).toMatch(/trailing garbage/);
    expect(x.summary.claims).toEqual(xExpected.summary.claims);
    expect(x.summary.claims.read).toBeGreaterThan(3);
    expect(x.summary.fileProblems).toEqual(xExpected.summary.fileProblems);
    expect(rowsOf(x.out, 'claims.csv', x12)).toEqual(rowsOf(xExpected.out, 'claims.csv', x12Plain));
    expect(rowsOf(x.out, 'rejected.csv', x12)).toEqual(rowsOf(xExpected.out, 'rejected.csv', x12Plain));
  }, 180_000);

  it('a gzip cut short within the bytes read to recognise it: its claims before the cut are scrubbed, the cut named', async () => {
    const good = join(dir, 'small-good.csv');
    writeFileSync(good, claimCsv(30));
    const whole = gzipSync(claimCsv(20));
    const cut = join(dir, 'small-cut.csv.gz');
    writeFileSync(cut, whole.subarray(0, whole.length - 40));
    const { out, summary } = await scrub('small-cut-gzip', [good, cut]);
    // The head read to recognise the file was all of it: the cut used to refuse the input and lose every claim.
    const [first, second] = summary.inputs;
    expect([first?.claims, first?.error]).toEqual([30, undefined]);
    expect(second?.error).toMatch(/small-cut\.csv\.gz: cannot read: unexpected end of file/);
    expect(second?.claims).toBeGreaterThan(10);
    // The claim whose rows were being read at the cut is rejected whole, saying why.
    expect(read(out, 'rejected.csv')).toMatch(/small-cut\.csv\.gz,\d+,K\d+,the file cannot be read past this row \(unexpected end of file\)/);
    expect(summary.accounting).toMatchObject({ linesBalance: true, claimsBalance: true });
    // Cut before its first line ends: no claim file to recognise, so the fault is the reason (not "not a claim file").
    const early = join(dir, 'early-cut.csv.gz');
    writeFileSync(early, whole.subarray(0, 24));
    const { summary: earlySummary } = await scrub('early-cut-gzip', [good, early]);
    expect(earlySummary.inputs[1]?.error).toMatch(/early-cut\.csv\.gz: cannot read: unexpected end of file/);
  }, 120_000);
});

describe('runScrub: 837 envelope faults', () => {
  it('are no claims: counted in the summary, not in claims.csv, rejected.csv, the 277CA or the line accounting', async () => {
    const input = join(dir, 'envelope.837');
    cpSync(new URL('../fixtures/claims/envelope.837', import.meta.url).pathname, input);
    const { out, summary } = await scrub('envelope', [input]);
    // E-1 to E-4; E-4 is cut off by the end of the file and rejected whole.
    expect(summary.claims).toMatchObject({ read: 4, rejected: 1 });
    expect(summary.inputs[0]?.claims).toBe(4);
    expect(summary.accounting).toMatchObject({ linesBalance: true, claimsBalance: true, claimsReported: 4 });
    // The count faults, and the truncation that cut E-4 off.
    expect(summary.fileProblems?.count).toBe(4);
    expect(summary.fileProblems?.first.map((p) => p.reason.slice(0, 4))).toEqual(['SE01', 'GE01', 'IEA0', 'the ']);
    expect(summary.fileProblems?.first[3]?.reason).toMatch(/^the file ends inside transaction set 0003 .* before its SE: truncated$/);
    expect(read(out, 'claims.csv').trimEnd().split('\n').slice(1).map((r) => r.split(',')[2])).toEqual(['E-1', 'E-2', 'E-3', 'E-4']);
    expect(read(out, 'rejected.csv').trimEnd().split('\n').slice(1).map((r) => r.split(',')[2])).toEqual(['E-4']);
    const ack = summary.reports.find((r) => r.startsWith('277ca-')) ?? '';
    expect(read(out, ack).match(/TRN\*2\*E-\d/g)).toEqual(['TRN*2*E-1', 'TRN*2*E-2', 'TRN*2*E-3', 'TRN*2*E-4']);
  });

  it("answer the 837's sender in the 277CA with each claim's provider, patient, charge and dates, read from the 837 again", async () => {
    const input = join(dir, 'again.837');
    cpSync(new URL('../../samples/claims/claims-837p.txt', import.meta.url).pathname, input);
    const { out, summary } = await scrub('again', [input]);
    const ackName = summary.reports.find((r) => r.startsWith('277ca-')) ?? '';
    const ack = read(out, ackName);
    expect(ack).toMatch(/^ISA\*00\*          \*00\*          \*ZZ\*MEDICARE       \*ZZ\*CLEARINGHOUSE  \*/);
    expect(ack).toContain('NM1*41*2*SAMPLE CLEARINGHOUSE*****46*SUB0001~');
    expect(ack).toContain('TRN*2*BATCH0001~');
    expect(ack.match(/NM1\*85\*[^~]*~/g)).toEqual(['NM1*85*2*FAIRVIEW FAMILY PRACTICE*****XX*1234567893~']);
    expect(ack).toContain('NM1*QC*1*TESTPATIENT*ALMA****MI*1EG4TE5MK72~\nTRN*2*PCN1001~\nSTC*A2:20*');
    expect(ack.match(/STC\*A[23]:[^*]*\*\d{8}\*(WQ|U)\*[\d.]+/g)?.map((s) => s.split('*')[4])).toEqual(['185', '229', '215', '190', '95']);
    expect(ack).toContain('DTP*472*D8*20260504~');

    // The 837 changed after the run: its 277CA is written without it, and a note says why.
    writeFileSync(input, readFileSync(input, 'latin1').replace('PCN1003', 'PCN1009'), 'latin1');
    const notes: string[] = [];
    await finishRun(out, [{ name: input, format: 'x12', ackName: 'again.837', location: { path: input } }], summary, {
      csv: true,
      acks: true,
      note: (n) => notes.push(n),
    });
    expect(notes).toEqual([expect.stringMatching(/again\.837: the claim at segment 57 has another id than the reports give it: it is not the file the reports are of; its 277CA names no billing provider/) as unknown]);
    const fallback = read(out, ackName);
    expect(fallback).toContain('NM1*85*2*NOT REPORTED*****XX*NOTREPORTED~');
    expect(fallback).not.toContain('TESTPATIENT');
    expect(fallback.match(/TRN\*2\*PCN\d+/g)).toEqual(['TRN*2*PCN1001', 'TRN*2*PCN1002', 'TRN*2*PCN1003', 'TRN*2*PCN1004', 'TRN*2*PCN1005']);

    // Same ids, other bytes: the digest tells.
    writeFileSync(input, readFileSync(input, 'latin1').replace('PCN1009', 'PCN1003').replace('SAMPLE CLEARINGHOUSE', 'SAMPLE CLEARINGHOUSf'), 'latin1');
    notes.length = 0;
    await finishRun(out, [{ name: input, format: 'x12', ackName: 'again.837', location: { path: input } }], summary, {
      csv: true,
      acks: true,
      note: (n) => notes.push(n),
    });
    expect(notes).toEqual([expect.stringMatching(/again\.837: cannot be read again: its content is not the one scrubbed \(SHA-256 [0-9a-f]{64}, the run read [0-9a-f]{64}\)/) as unknown]);
    expect(read(out, ackName)).toContain('NM1*85*2*NOT REPORTED*****XX*NOTREPORTED~');
  });

  it('stay out of claims.csv when every worker fails: the claims are rejected with the error, the faults still counted', async () => {
    const input = join(dir, 'envelope-failing.837');
    cpSync(new URL('../fixtures/claims/envelope.837', import.meta.url).pathname, input);
    const failing: ScrubPool = { ...pool, threads: pool.threads, scrub: () => Promise.reject(new Error('worker died')) };
    const out = join(dir, 'envelope-failing');
    const summary = await runScrub(
      { inputs: [input], outDir: out, formats: { csv: true, ndjson: false }, resume: false },
      { pool: failing, reference },
    );
    expect(summary.claims).toMatchObject({ read: 4, rejected: 4 });
    expect(summary.accounting).toMatchObject({ linesBalance: true, claimsBalance: true, claimsReported: 4 });
    expect(summary.fileProblems?.count).toBe(4);
    expect(read(out, 'claims.csv').trimEnd().split('\n').slice(1).map((r) => r.split(',')[2])).toEqual(['E-1', 'E-2', 'E-3', 'E-4']);
    expect(read(out, 'rejected.csv')).toMatch(/a worker failed on this claim: worker died/);
  });

  it('name the claim id of an NDJSON claim no worker could read, as the line gives it', async () => {
    const input = join(dir, 'failing.ndjson');
    cpSync(new URL('../../samples/claims/claims.ndjson', import.meta.url).pathname, input);
    const failing: ScrubPool = { ...pool, threads: pool.threads, scrub: () => Promise.reject(new Error('worker died')) };
    const out = join(dir, 'ndjson-failing');
    await runScrub({ inputs: [input], outDir: out, formats: { csv: true, ndjson: false }, resume: false }, { pool: failing, reference });
    // The sample's last line is cut JSON: the reader rejects it without a claim id (no worker sees it).
    expect(read(out, 'rejected.csv').trimEnd().split('\n').slice(1).map((r) => r.split(',').slice(1, 3))).toEqual([
      ['1', 'N2001'],
      ['2', 'N2002'],
      ['3', 'N2003'],
      ['4', ''],
    ]);
  });
});

describe('runScrub', () => {
  it('accounts for every input line and claim, keeps input order, and writes each report', async () => {
    const input = join(dir, 'claims.csv');
    writeFileSync(input, claimCsv(2000));
    const { out, summary } = await scrub('order', [input], { chunkClaims: 64 });
    expect(ScrubSummary.parse(JSON.parse(read(out, 'summary.json')))).toEqual(summary);
    const dataLines = claimCsv(2000).trimEnd().split('\n').length - 1;
    expect(summary.linesRead).toBe(dataLines);
    expect(summary.linesScrubbed + summary.linesRejected).toBe(dataLines);
    expect(summary.claims.read).toBe(2000);
    const claimRows = read(out, 'claims.csv').trimEnd().split('\n').slice(1);
    expect(claimRows).toHaveLength(2000);
    expect(claimRows.map((r) => r.split(',')[2])).toEqual(Array.from({ length: 2000 }, (_, c) => `K${String(c).padStart(5, '0')}`));
    // Every 50th claim from the 8th is rejected whole: (c % 3) + 1 rejected records each.
    const bad = Array.from({ length: 2000 }, (_, c) => c).filter((c) => c % 50 === 7);
    expect(summary.claims.rejected).toBe(bad.length);
    expect(summary.linesRejected).toBe(bad.reduce((n, c) => n + (c % 3) + 1, 0));
    expect(read(out, 'rejected.csv').trimEnd().split('\n')).toHaveLength(summary.linesRejected + 1);
    // 83036 with J06.9 is not covered by the lab NCD: one error per such line that was not rejected.
    const notListed = read(out, 'findings.csv').split('\n').filter((l) => l.includes(',NCD_NOT_LISTED,'));
    expect(notListed.length).toBeGreaterThan(0);
    expect(read(out, 'findings.ndjson').trimEnd().split('\n')).toHaveLength(summary.findings.total);
    expect(summary.findings.byRule.find((r) => r.rule === 'ncd.lab')?.error).toBe(notListed.length);
    expect(summary.notChecked.length).toBeGreaterThan(0);
  }, 120_000);

  it('writes the same reports whatever the chunk size, and reads gzip input by content', async () => {
    const text = claimCsv(300);
    const plain = join(dir, 'same.csv');
    writeFileSync(plain, text);
    const zipped = join(dir, 'same.dat');
    writeFileSync(zipped, gzipSync(text));
    const a = await scrub('chunk-7', [plain], { chunkClaims: 7 });
    const b = await scrub('chunk-500', [zipped], { chunkClaims: 500 });
    for (const file of ['claims.csv', 'findings.csv', 'rejected.csv']) {
      expect(read(b.out, file).replaceAll(zipped, plain)).toBe(read(a.out, file));
    }
  }, 120_000);

  it('reports progress through the inputs by stored bytes, ending at 1, and none with groupBy', async () => {
    const plain = join(dir, 'progress-a.csv');
    // Big enough for several 256 KB reads, so the first chunks are written before the file is read through.
    writeFileSync(plain, claimCsv(20_000));
    const zipped = join(dir, 'progress-b.csv.gz');
    writeFileSync(zipped, gzipSync(claimCsv(2000)));
    const stages: string[] = [];
    const run = async (groupBy: boolean): Promise<ScrubProgress[]> => {
      const seen: ScrubProgress[] = [];
      await runScrub(
        { inputs: [plain, zipped], outDir: join(dir, `progress-${String(groupBy)}`), formats: { csv: true, ndjson: false }, resume: false, chunkClaims: 50, groupBy },
        { pool, reference, onProgress: (p) => seen.push(p), onStage: (stage) => stages.push(`${String(seen.length)}: ${stage}`) },
      );
      return seen;
    };
    const seen = await run(false);
    // The last steps are announced once every chunk is written (after the last progress report).
    expect(stages).toEqual([
      `${String(seen.length)}: cross-claim checks and claims.csv (22,000 claims)`,
      `${String(seen.length)}: summary and the last reports`,
    ]);
    const fractions = seen.map((p) => p.fraction ?? -1);
    expect(fractions).toEqual([...fractions].sort((a, b) => a - b));
    expect(fractions[0]).toBeGreaterThan(0);
    expect(fractions[0]).toBeLessThan(0.5);
    expect(fractions.at(-1)).toBe(1);
    expect(new Set(seen.map((p) => p.file))).toEqual(new Set([plain, zipped]));
    expect(seen.at(-1)?.claims).toBe(22_000);
    expect((await run(true)).every((p) => p.fraction === undefined)).toBe(true);
  }, 120_000);

  it('with groupBy, gathers the rows of a claim wherever they are: the same claims and findings as the sorted file', async () => {
    const text = claimCsv(400);
    const [header, ...rows] = text.trimEnd().split('\n');
    // Interleave: every row of the second half after a row of the first half, so no claim's rows are adjacent.
    const half = Math.ceil(rows.length / 2);
    const mixed = rows.slice(0, half).flatMap((r, i) => [r, rows[half + i]].filter((x): x is string => x !== undefined));
    const shuffled = join(dir, 'shuffled.csv');
    writeFileSync(shuffled, `${header ?? ''}\n${mixed.join('\n')}\n`);
    const sorted = join(dir, 'sorted.csv');
    writeFileSync(sorted, text);
    const a = await scrub('grouped', [shuffled], { groupBy: true });
    const b = await scrub('sorted', [sorted]);
    expect(a.summary.claims).toEqual(b.summary.claims);
    expect(a.summary.findings).toEqual(b.summary.findings);
    const byClaim = (out: string): string[] =>
      read(out, 'findings.csv').trimEnd().split('\n').slice(1).map((r) => r.replace(/^[^,]*,/, '')).sort();
    expect(byClaim(a.out)).toEqual(byClaim(b.out));
    const ids = read(a.out, 'claims.csv').trimEnd().split('\n').slice(1).map((r) => r.split(',')[2]);
    expect(new Set(ids).size).toBe(400);
    // The rows are gathered in a scratch folder inside --out, gone at the end; one a killed run left is removed.
    expect(readdirSync(a.out).filter((n) => n.startsWith('.scrub-group-by-'))).toEqual([]);
    mkdirSync(join(a.out, '.scrub-group-by-killed'));
    writeFileSync(join(a.out, '.scrub-group-by-killed', 'rows.sqlite'), 'claim rows');
    await scrub('grouped', [shuffled], { groupBy: true });
    expect(readdirSync(a.out).filter((n) => n.startsWith('.scrub-group-by-'))).toEqual([]);
  }, 120_000);

  it('with groupBy, a row that cannot be read stays with its claim, which is rejected whole (as without groupBy)', async () => {
    // M1's second row has a misplaced quote, M2's is not UTF-8; their other rows come after another claim's.
    const rows = [
      HEADER,
      'M1,1,P1,professional,2026-03-02,99213,1,I10',
      'M2,1,P2,professional,2026-03-02,99213,1,I10',
      'M1,2,P1,professional,2026-03-02,8"3036,1,I10',
      'M2,2,P2,professional,2026-03-02,99213,1,I10 caf\xe9',
      'M3,1,P3,professional,2026-03-02,99213,1,I10',
      'M1,3,P1,professional,2026-03-02,99213,1,I10',
      'M2,3,P2,professional,2026-03-02,99213,1,I10',
    ];
    const file = join(dir, 'unreadable-rows.csv');
    writeFileSync(file, Buffer.from(`${rows.join('\n')}\n`, 'latin1'));
    for (const groupBy of [true, false]) {
      const { out, summary } = await scrub(`unreadable-${String(groupBy)}`, [file], { groupBy });
      const claims = read(out, 'claims.csv').trimEnd().split('\n').slice(1).map((r) => r.split(',').slice(2, 6).join(','));
      const rejected = read(out, 'rejected.csv').trimEnd().split('\n').slice(1).map((r) => r.split(',').slice(1, 3).join(','));
      if (groupBy) {
        expect(claims).toEqual(['M1,,3,rejected', 'M2,,3,rejected', 'M3,professional,1,clean']);
        expect(rejected).toEqual(['2,M1', '4,M1', '7,M1', '3,M2', '5,M2', '8,M2']);
      } else {
        // Without groupBy, rows of a claim that are not adjacent are claims of their own: each piece with the bad
        // row is rejected, the others are read as they are.
        expect(claims.filter((c) => c.endsWith('rejected'))).toEqual(['M1,,1,rejected', 'M2,,1,rejected']);
      }
      expect(summary.accounting).toMatchObject({ linesBalance: true, claimsBalance: true });
    }
  }, 120_000);

  it('resumes to byte-identical reports from the state left after any checkpoint, across input files', async () => {
    const a = join(dir, 'part-a.csv');
    const b = join(dir, 'part-b.csv');
    writeFileSync(a, claimCsv(300));
    writeFileSync(b, claimCsv(300).replaceAll(',K', ',L'));
    const opts = { chunkClaims: 16, checkpointSeconds: 0.000001 };
    const whole = await scrub('resume-whole', [a, b], opts);
    // Every 5th checkpoint's state is copied aside, as a kill -9 right after it would leave --out.
    const snapshots: string[] = [];
    let n = 0;
    const out = join(dir, 'resume-live');
    await runScrub(
      { inputs: [a, b], outDir: out, formats: { csv: true, ndjson: true }, resume: false, ...opts },
      {
        pool,
        reference,
        onCheckpoint: () => {
          if (n++ % 5 === 0) {
            const copy = join(dir, `resume-snap-${String(n)}`);
            cpSync(out, copy, { recursive: true });
            snapshots.push(copy);
          }
        },
      },
    );
    expect(snapshots.length).toBeGreaterThan(5);
    for (const snap of snapshots) {
      const before = (JSON.parse(read(snap, '.scrub-checkpoint.json')) as { stats: { linesScrubbed: number; linesRejected: number } }).stats;
      const resumed = await runScrub(
        { inputs: [a, b], outDir: snap, formats: { csv: true, ndjson: true }, resume: true, ...opts },
        { pool, reference },
      );
      for (const file of ['claims.csv', 'findings.csv', 'findings.ndjson', 'rejected.csv']) {
        expect(read(snap, file), `${snap} ${file}`).toBe(read(whole.out, file));
      }
      expect(resumed.claims).toEqual(whole.summary.claims);
      expect(resumed.accounting.linesBalance).toBe(true);
      // lines/s is this run's: the lines the checkpoint had done are not counted again.
      const thisRun = resumed.linesRead - before.linesScrubbed - before.linesRejected;
      expect(resumed.timing.linesPerSecond).toBeCloseTo((thisRun / resumed.timing.elapsedMs) * 1000, 6);
      expect(summaryText(resumed, snap).split('\n')[0]).toContain('s (this resumed run), ');
    }
  }, 300_000);

  it('syncs what a checkpoint names before writing it, and the reports before marking the run finished', async () => {
    const input = join(dir, 'durable.csv');
    writeFileSync(input, claimCsv(200));
    // Every fsync of the main thread, by file name (the handle's descriptor read back through /proc), in order, with
    // the checkpoints as they are written.
    const probe = await open(input, 'r');
    const proto = Object.getPrototypeOf(probe) as { datasync: () => Promise<void>; sync: () => Promise<void> };
    await probe.close();
    const events: string[] = [];
    const nameOf = (handle: FileHandle): string => basename(readlinkSync(`/proc/self/fd/${String(handle.fd)}`));
    const spies = (['datasync', 'sync'] as const).map((method) => {
      const original = proto[method];
      return vi.spyOn(proto, method).mockImplementation(async function (this: FileHandle) {
        events.push(`${method} ${nameOf(this)}`);
        await original.call(this);
      });
    });
    const out = join(dir, 'durable-live');
    try {
      await runScrub(
        { inputs: [input], outDir: out, formats: { csv: true, ndjson: true }, resume: false, chunkClaims: 16, checkpointSeconds: 0.000001 },
        { pool, reference, onCheckpoint: () => events.push('checkpoint') },
      );
    } finally {
      for (const spy of spies) {
        spy.mockRestore();
      }
    }
    const checkpoints = events.flatMap((e, i) => (e === 'checkpoint' ? [i] : []));
    expect(checkpoints.length).toBeGreaterThan(3);
    let from = 0;
    for (const at of checkpoints) {
      // Since the last checkpoint: each appended report synced, then the checkpoint's own file, then the folder.
      const between = events.slice(from, at);
      for (const report of ['findings.csv', 'findings.ndjson', 'rejected.csv', '.scrub-claims.part']) {
        expect(between.indexOf(`datasync ${report}`), report).toBeGreaterThanOrEqual(0);
        expect(between.indexOf(`datasync ${report}`)).toBeLessThan(between.indexOf('datasync .scrub-checkpoint.json.tmp'));
      }
      expect(between.at(-1)).toBe('sync durable-live');
      from = at + 1;
    }
    const end = events.slice(from);
    const finished = end.indexOf('datasync .scrub-finished.tmp');
    expect(finished).toBeGreaterThan(0);
    for (const report of ['claims.csv', 'findings.csv', 'findings.ndjson', 'rejected.csv', 'summary.json', 'report.html']) {
      expect(end.indexOf(`datasync ${report}`), report).toBeGreaterThanOrEqual(0);
      expect(end.indexOf(`datasync ${report}`)).toBeLessThan(finished);
    }
    expect(end.at(-1)).toBe('sync durable-live');
    expect(readdirSync(out).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect(read(out, '.scrub-finished')).toMatch(/\S\n$/);
  }, 120_000);

  it('syncs only the reports it wrote: a resume finishes beside files named like reports that it did not write', async () => {
    const input = join(dir, 'durable-others.csv');
    writeFileSync(input, claimCsv(100));
    const opts = { chunkClaims: 16, checkpointSeconds: 0.000001 };
    const out = join(dir, 'durable-others');
    const snap = join(dir, 'durable-others-snap');
    await runScrub(
      { inputs: [input], outDir: out, formats: { csv: true, ndjson: false }, resume: false, ...opts },
      { pool, reference, onCheckpoint: () => existsSync(snap) || cpSync(out, snap, { recursive: true }) },
    );
    // Left in --out by someone else between the crash and the resume (a fresh run would remove them; a resume keeps
    // what it finds): a link to nothing and a FIFO, which an open for syncing would wait on for ever.
    symlinkSync('/nonexistent', join(snap, 'warnings-link.csv'));
    execFileSync('mkfifo', [join(snap, 'warnings-pipe.csv')]);
    const resumed = await runScrub({ inputs: [input], outDir: snap, formats: { csv: true, ndjson: false }, resume: true, ...opts }, { pool, reference });
    expect(resumed.accounting).toMatchObject({ linesBalance: true, claimsBalance: true });
    expect(read(snap, 'claims.csv')).toBe(read(out, 'claims.csv'));
    expect(existsSync(join(snap, '.scrub-finished'))).toBe(true);
  }, 120_000);

  it('resumes against a reference database built from the same sources on another host (one build key, another build time)', async () => {
    const input = join(dir, 'rehost.csv');
    writeFileSync(input, claimCsv(120));
    const opts = { chunkClaims: 16, checkpointSeconds: 0.000001 };
    const hostA = { ...reference, builtAt: 'host A', buildKey: 'k1' };
    const out = join(dir, 'rehost-live');
    let snaps = 0;
    await runScrub(
      { inputs: [input], outDir: out, formats: { csv: true, ndjson: false }, resume: false, ...opts },
      {
        pool,
        reference: hostA,
        onCheckpoint: () => {
          if (snaps++ === 2) {
            cpSync(out, join(dir, 'rehost-snap'), { recursive: true });
            cpSync(out, join(dir, 'rehost-snap2'), { recursive: true });
          }
        },
      },
    );
    const resumeWith = (from: string, ref: typeof hostA): Promise<unknown> =>
      runScrub({ inputs: [input], outDir: join(dir, from), formats: { csv: true, ndjson: false }, resume: true, ...opts }, { pool, reference: ref }).catch(
        (e: unknown) => e,
      );
    const resumed = (await resumeWith('rehost-snap', { ...hostA, builtAt: 'host B' })) as ScrubSummary;
    expect(resumed.resumed).toBe(true);
    expect(read(join(dir, 'rehost-snap'), 'claims.csv')).toBe(read(out, 'claims.csv'));
    expect(await resumeWith('rehost-snap2', { ...hostA, buildKey: 'k2' })).toMatchObject({
      code: 'CONFIG',
      message: expect.stringMatching(/it differs in the reference database/) as unknown,
    });
  }, 120_000);

  it('refuses a resume that could not give the uninterrupted reports: no cross-claim store, cut reports, another reference', async () => {
    const input = join(dir, 'refuse.csv');
    writeFileSync(input, claimCsv(300));
    const opts = { chunkClaims: 16, checkpointSeconds: 0.000001 };
    const out = join(dir, 'refuse-live');
    let snap: string | undefined;
    let n = 0;
    await runScrub(
      { inputs: [input], outDir: out, formats: { csv: true, ndjson: false }, resume: false, ...opts },
      {
        pool,
        reference,
        onCheckpoint: () => {
          if (n++ === 3) {
            snap = join(dir, 'refuse-snap');
            cpSync(out, snap, { recursive: true });
          }
        },
      },
    );
    const state = snap as string;
    const resume = async (from: string, ref = reference): Promise<unknown> =>
      runScrub({ inputs: [input], outDir: from, formats: { csv: true, ndjson: false }, resume: true, ...opts }, { pool, reference: ref }).catch(
        (e: unknown) => e,
      );
    const copy = (name: string): string => {
      const to = join(dir, name);
      cpSync(state, to, { recursive: true });
      return to;
    };
    const noStore = copy('refuse-no-store');
    for (const f of readdirSync(noStore).filter((f) => f.startsWith('.scrub-cross-claim'))) {
      rmSync(join(noStore, f));
    }
    expect(await resume(noStore)).toMatchObject({ code: 'CONFIG', message: expect.stringMatching(/cross-claim facts .* is missing/) as unknown });
    // Its main file without its write-ahead log: the schema and facts were in the log (it was exit 4, "no such table").
    const noWal = copy('refuse-no-wal');
    const walFiles = readdirSync(noWal).filter((f) => /^\.scrub-cross-claim\.sqlite-(wal|shm)$/.test(f));
    expect(walFiles).toContain('.scrub-cross-claim.sqlite-wal');
    walFiles.forEach((f) => rmSync(join(noWal, f)));
    expect(await resume(noWal)).toMatchObject({ code: 'CONFIG', message: expect.stringMatching(/holds no facts table \(its -wal file lost\?\)/) as unknown });
    // A report the checkpoint wrote is gone: no resume can give it back (it was exit 4, "fix it and run again").
    const gone = copy('refuse-gone-report');
    rmSync(join(gone, 'rejected.csv'));
    expect(await resume(gone)).toMatchObject({ code: 'CONFIG', message: expect.stringMatching(/rejected\.csv, a report the checkpoint has written \d+ bytes of, is missing: scrub without --resume/) as unknown });
    // A fresh run over a killed run's folder removes its checkpoint before anything else: killed itself before its
    // own first checkpoint, it left the old one beside its own reports, and --resume took them for the old run's.
    const fresh = copy('refuse-fresh-killed');
    const killedEarly = { ...pool, warm: () => Promise.reject(new Error('killed before the first checkpoint')) };
    await expect(
      runScrub({ inputs: [input], outDir: fresh, formats: { csv: true, ndjson: false }, resume: false, ...opts }, { pool: killedEarly, reference }),
    ).rejects.toThrow(/killed/);
    expect(existsSync(join(fresh, '.scrub-checkpoint.json'))).toBe(false);
    const cut = copy('refuse-cut');
    writeFileSync(join(cut, 'findings.csv'), 'file\n');
    expect(await resume(cut)).toMatchObject({ code: 'CONFIG', message: expect.stringMatching(/findings\.csv is shorter .* than the checkpoint wrote/) as unknown });
    const other = copy('refuse-other-reference');
    expect(await resume(other, { ...reference, builtAt: 'another build' })).toMatchObject({
      code: 'CONFIG',
      message: expect.stringMatching(/belongs to another run \(it differs in the reference database\)/) as unknown,
    });
    // The refusal names what differs (it named every possible cause, whatever the one that did).
    const otherChecks = copy('refuse-other-checks');
    const withChecks = await runScrub(
      { inputs: [input], outDir: otherChecks, formats: { csv: true, ndjson: false }, resume: true, checks: ['ncd.lab'], ...opts },
      { pool, reference },
    ).catch((e: unknown) => e);
    expect(withChecks).toMatchObject({ code: 'CONFIG', message: expect.stringMatching(/it differs in --checks\)/) as unknown });
    // A checkpoint of another version of the scrubber (9: its claim frames hold a row's head only).
    const older = copy('refuse-older-version');
    const cp = JSON.parse(readFileSync(join(older, '.scrub-checkpoint.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(older, '.scrub-checkpoint.json'), JSON.stringify({ ...cp, version: 10 }));
    expect(await resume(older)).toMatchObject({
      code: 'CONFIG',
      message: expect.stringMatching(/written by another version of the scrubber \(checkpoint version 10, this one reads 11\)/) as unknown,
    });
    // The state itself resumes.
    expect(await resume(copy('refuse-ok'))).toMatchObject({ claims: { read: 300 } });
  }, 120_000);

  it('--resume after the run has finished keeps its reports and answers with its summary (a pod started again)', async () => {
    const input = join(dir, 'finished-in.csv');
    writeFileSync(input, claimCsv(40));
    const { out, summary } = await scrub('finished', [input]);
    const files = readdirSync(out).sort();
    const before = new Map(files.map((f) => [f, read(out, f)]));
    const notes: string[] = [];
    const again = await runScrub(
      { inputs: [input], outDir: out, formats: { csv: true, ndjson: true }, resume: true },
      { pool, reference, onNote: (m) => notes.push(m) },
    );
    // Nothing scrubbed again, nothing rewritten: the finished run's summary, files and bytes.
    expect(again).toEqual(summary);
    expect(notes).toEqual([`${out}: this run has finished (its reports are kept): nothing to resume`]);
    expect(readdirSync(out).sort()).toEqual(files);
    for (const [f, text] of before) {
      expect(read(out, f), f).toBe(text);
    }
    // Another run (other options) into the same folder with --resume starts afresh, as before.
    const other = await runScrub({ inputs: [input], outDir: out, formats: { csv: true, ndjson: false }, resume: true }, { pool, reference });
    expect(other.startedAt).not.toBe(summary.startedAt);
    expect(existsSync(join(out, 'findings.ndjson'))).toBe(false);
  }, 120_000);

  it('a history with a wrong header is refused before the reports of an earlier run are touched', async () => {
    const input = join(dir, 'hist-in.csv');
    writeFileSync(input, claimCsv(20));
    const good = join(dir, 'hist-good.csv');
    writeFileSync(good, 'patientId,dateOfService,procedureCode\nP1,2026-01-10,99213\nP2,01/10/2026,99213\n');
    const { out, summary } = await scrub('hist', [input], { history: good });
    expect(summary.history).toEqual({
      file: good,
      services: 1,
      rejected: 1,
      firstRejected: [{ line: 3, reason: 'dateOfService is not a YYYY-MM-DD date' }],
    });
    const before = read(out, 'findings.csv');
    const bad = join(dir, 'hist-bad.csv');
    writeFileSync(bad, 'PatientID,Date,Code\n');
    await expect(scrub('hist', [input], { history: bad })).rejects.toThrow(/header lacks the column/);
    expect(read(out, 'findings.csv')).toBe(before);
    expect(readdirSync(out)).toContain('summary.json');
    // Nor one refused further on (not CSV past its header): the earlier run's reports stay whole, none left empty.
    const reports = readdirSync(out).filter((f) => !f.startsWith('.'));
    const notCsv = join(dir, 'hist-not-csv.csv');
    writeFileSync(notCsv, 'patientId,dateOfService,procedureCode\nP1,2026-01-10,99213\n"P2,2026-01-10,99213\n');
    await expect(scrub('hist', [input], { history: notCsv })).rejects.toThrow(/history file could not be read: it is not valid CSV/);
    expect(read(out, 'findings.csv')).toBe(before);
    expect(readdirSync(out).filter((f) => !f.startsWith('.'))).toEqual(reports);
  }, 120_000);

  it('a fresh run removes the reports an earlier run left that it does not write', async () => {
    const input = join(dir, 'stale.csv');
    writeFileSync(input, claimCsv(20));
    const { out } = await scrub('stale', [input]);
    expect(readdirSync(out)).toContain('findings.ndjson');
    writeFileSync(join(out, '277ca-yesterday.x12'), 'ISA');
    await scrub('stale', [input], { formats: { csv: true, ndjson: false } });
    expect(readdirSync(out).filter((f) => !f.startsWith('.')).sort()).toEqual(['claims.csv', 'findings.csv', 'rejected.csv', 'report.html', 'summary.json']);
  }, 120_000);

  it('a chunk whose worker failed runs again claim by claim and keeps every cross-claim finding', async () => {
    const input = join(dir, 'retry.csv');
    // Ten patients, each with 20 claims of 99213 on one date: duplicates and MUE sums across claims.
    const rows = Array.from({ length: 200 }, (_, c) => `R${String(c).padStart(4, '0')},1,P${c % 10},professional,2026-05-04,99213,1,I10`);
    writeFileSync(input, `${HEADER}\n${rows.join('\n')}\n`);
    const normal = await scrub('retry-normal', [input], { chunkClaims: 50 });
    let failed = false;
    // How each claim of the failed chunk was sent again: alone on its thread, so that a claim that kills its thread
    // again cannot take another claim's retry with it.
    const retries: boolean[] = [];
    const flaky: ScrubPool = {
      ...pool,
      threads: pool.threads,
      scrub: (task, options) => {
        if (!failed) {
          failed = true;
          return Promise.reject(new Error('worker died'));
        }
        if (task.units.length === 1) {
          retries.push(options?.alone === true);
        }
        return pool.scrub(task, options);
      },
    };
    const out = join(dir, 'retry-flaky');
    await runScrub({ inputs: [input], outDir: out, formats: { csv: true, ndjson: false }, resume: false, chunkClaims: 50 }, { pool: flaky, reference });
    expect(failed).toBe(true);
    expect(retries).toEqual(Array.from({ length: 50 }, () => true));
    expect(read(out, 'findings.csv')).toBe(read(normal.out, 'findings.csv'));
    expect(read(out, 'findings.csv')).toMatch(/,batch\.duplicate,/);
    expect(read(out, 'claims.csv')).toBe(read(normal.out, 'claims.csv'));
  }, 120_000);

  it("counts each claim's cross-claim findings in its claims.csv row, status and the summary's counts", async () => {
    const input = join(dir, 'cross.csv');
    // Ten patients, each with 20 claims of 99213 on one date: the later claims repeat
    // its first claim's line (a possible duplicate, a warning); each claim alone is clean.
    const rows = Array.from({ length: 200 }, (_, c) => `X${String(c).padStart(4, '0')},1,P${c % 10},professional,2026-05-04,99213,1,I10`);
    // And five patients with two claims of 83036 each on one date: the second brings the units over the MUE (MAI 2,
    // an error).
    rows.push(...Array.from({ length: 10 }, (_, c) => `Y${String(c).padStart(4, '0')},1,Q${c % 5},professional,2026-05-05,83036,1,E11.9`));
    writeFileSync(input, `${HEADER}\n${rows.join('\n')}\n`);
    const { out, summary } = await scrub('cross', [input], { chunkClaims: 30 });
    const agreed = expectReportsAgree(out, summary);
    expect(agreed.crossClaimClaims).toBe(195);
    expect(agreed.providersChecked).toBe(true);
    expect(agreed.byStatus).toEqual({ clean: 15, warnings: 190, errors: 5, rejected: 0 });
    expect(read(out, 'claims.csv').split('\n')[206]).toBe(`${input},207,Y0005,professional,1,errors,1,1,0,2,2`);
    expect(read(out, 'claims.csv').split('\n')[11]).toBe(`${input},12,X0010,professional,1,warnings,0,1,0,2,1`);
    expect(readdirSync(out).filter((f) => f.includes('.part'))).toEqual([]);
    // Without the cross-claim checks, the same claims are clean.
    const own = await scrub('cross-own', [input], { checks: ['code.validity'] });
    expect(expectReportsAgree(own.out, own.summary).byStatus).toEqual({ clean: 210, warnings: 0, errors: 0, rejected: 0 });
    // ...which the summary says: clean for the checks that ran (a whole run names none).
    expect(own.summary.checks).toEqual(['code.validity']);
    expect(summaryText(own.summary, own.out)).toContain('  checks: only code.validity (--checks): clean means clean for these\n');
    expect(read(own.out, 'report.html')).toContain('<span data-field="checks">code.validity</span>');
    expect(summary.checks).toBeUndefined();
    expect(read(out, 'report.html')).not.toContain('data-field="checks"');
  }, 120_000);

  it('reads a file reached twice (named twice, or through its folder) once, and says so', async () => {
    const sub = join(dir, 'twice');
    mkdirSync(sub);
    const file = join(sub, 'night.csv');
    writeFileSync(file, claimCsv(12));
    const notes: string[] = [];
    const out = join(dir, 'twice-out');
    const summary = await runScrub(
      { inputs: [file, sub, `${sub}/./night.csv`], outDir: out, formats: { csv: true, ndjson: false }, resume: false },
      { pool, reference, onNote: (text) => notes.push(text) },
    );
    expect(summary.inputs.map((i) => [i.name, i.claims])).toEqual([[file, 12]]);
    expect(summary.claims.read).toBe(12);
    expect(read(out, 'findings.csv')).not.toMatch(/,batch\.duplicate,/);
    expect(notes).toEqual([
      `${file} is given more than once: read once`,
      `${sub}/./night.csv (the file ${file}) is given more than once: read once`,
    ]);
  });

  it('reads a ZIP as macOS makes it: resource forks and hidden members skipped, a gzip member unpacked', async () => {
    const zip = join(dir, 'mac.zip');
    writeFileSync(
      zip,
      makeZip({
        'night/claims.csv': claimCsv(10),
        '__MACOSX/night/._claims.csv': Buffer.from([0, 5, 22, 7, 0, 2, 0, 0, 77, 97, 99]),
        'night/.notes.csv': claimCsv(3),
        'night/more.csv.gz': gzipSync(claimCsv(5)),
        './late.csv': claimCsv(2),
      }),
    );
    const { summary } = await scrub('mac-zip', [zip]);
    // `./late.csv` is no hidden name.
    expect(summary.inputs.map((i) => [i.name, i.format, i.claims, i.error])).toEqual([
      [`${zip}[./late.csv]`, 'csv', 2, undefined],
      [`${zip}[night/claims.csv]`, 'csv', 10, undefined],
      [`${zip}[night/more.csv.gz]`, 'csv', 5, undefined],
    ]);
  });

  it('names a ZIP cut short, a damaged one and an empty one as inputs not read, and scrubs the others', async () => {
    const whole = makeZip({ 'a.csv': claimCsv(4) });
    const inputs = {
      cut: whole.subarray(0, whole.length - 10),
      // The local header's signature left, the central directory gone.
      damaged: whole.subarray(0, 40),
      // An archive of no members: the end record alone.
      empty: Buffer.concat([Buffer.from([0x50, 0x4b, 0x05, 0x06]), Buffer.alloc(18)]),
    };
    const paths = Object.entries(inputs).map(([name, bytes]) => {
      const path = join(dir, `${name}.zip`);
      writeFileSync(path, bytes);
      return path;
    });
    const good = join(dir, 'after-zips.csv');
    writeFileSync(good, claimCsv(6));
    const { summary } = await scrub('bad-zips', [...paths, good]);
    expect(summary.inputs.map((i) => [i.name, i.claims, i.error?.replace(/: [^:]*$/, '')])).toEqual([
      [paths[0], 0, `${paths[0] ?? ''}: cannot read the ZIP archive`],
      [paths[1], 0, `${paths[1] ?? ''}: cannot read the ZIP archive`],
      [paths[2], 0, `${paths[2] ?? ''}: no claims`],
      [good, 6, undefined],
    ]);
    expect(summary.inputs[2]?.error).toBe(
      `${paths[2] ?? ''}: no claims: the ZIP archive holds no claim file (folders, hidden files and macOS resource forks are skipped)`,
    );
  });

  it('does not read a file it cannot recognise as claims, names it, and scrubs the other inputs', async () => {
    const odd = join(dir, 'notes.txt');
    writeFileSync(odd, 'hello world\n');
    const good = join(dir, 'after-notes.csv');
    writeFileSync(good, claimCsv(12));
    const { summary } = await scrub('odd', [odd, good]);
    expect(summary.inputs[0]).toMatchObject({ name: odd, claims: 0, linesRead: 0 });
    expect(summary.inputs[0]?.error).toMatch(/notes\.txt: not a claim file/);
    expect(summary.inputs[0]?.format).toBeUndefined();
    expect(summary.inputs[1]).toMatchObject({ format: 'csv', claims: 12 });
    expect(summary.inputs[1]?.error).toBeUndefined();
  });
});
