// The 277CA writer (src/reports/ack-277ca.ts) on hand-made claims.csv / findings.csv / rejected.csv in a temp dir:
// envelope counts and control numbers, one TRN per claim of the chosen input only, the status of clean, warnings,
// errors and rejected claims, the warnings report, delimiters in claim ids; every output is parsed back with the
// project's X12 tokenizer to show it is well-formed.
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse as parseCsv } from 'csv-parse/sync';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { ScrubberError } from '../../src/errors.js';
import { X12Tokenizer } from '../../src/readers/claims/x12-segments.js';
import type { X12AckClaim, X12AckEnvelope, X12AckItem, X12Party } from '../../src/schemas/x12-ack.js';
import {
  Ack277caWriter,
  AckSourceError,
  PATIENT_PLACEHOLDER,
  PROVIDER_PLACEHOLDER,
  answeringEnvelope,
  WARNING_COLUMNS,
  render277ca,
  statusCodesForFinding,
  statusCodesForRejection,
  write277caFromReports,
  type Ack277caEnvelope,
  type ClaimAck,
} from '../../src/reports/ack-277ca.js';
import {
  CLAIM_COLUMNS,
  FINDING_COLUMNS,
  REJECTED_COLUMNS,
  csvHeader,
  csvText,
  findingRow,
} from '../../src/reports/rows.js';
import type { Finding, Severity } from '../../src/schemas/findings.js';

const A = 'in/a.837';
const B = 'in/b.837';

const envelope: Ack277caEnvelope = {
  senderId: 'SCRUBBER',
  receiverId: 'SUBMITTER01',
  interchangeControlNumber: 42,
  groupControlNumber: 7,
  transactionControlNumber: '0001',
  creationDate: '20260105',
  creationTime: '0930',
  informationSource: { name: 'CLAIM SCRUBBER', id: 'SCRUB01' },
  informationReceiver: { name: 'BEST BILLING', id: 'S00001' },
};

/** Parses 277CA text with the project's tokenizer: each segment as its elements (`[0]` is the id). */
function segmentsOf(text: string): string[][] {
  const out: string[][] = [];
  const tokenizer = new X12Tokenizer('ack.x12');
  const sink = (s: { elements: readonly string[] }): void => {
    out.push([...s.elements]);
  };
  tokenizer.push(Buffer.from(text, 'latin1'), sink);
  tokenizer.end(sink);
  return out;
}

/** Checks ST/SE, GS/GE and ISA/IEA against each other; returns the segments. */
function expectWellFormed(text: string): string[][] {
  const lines = text.split('\n');
  expect(lines.pop()).toBe('');
  for (const line of lines) {
    expect(line.endsWith('~'), line).toBe(true);
    expect(line.endsWith('*~'), line).toBe(false);
  }
  expect(lines[0]).toHaveLength(106);
  const segs = segmentsOf(text);
  const ids = segs.map((s) => s[0]);
  expect(ids.filter((id) => id === 'ISA')).toHaveLength(1);
  const st = ids.indexOf('ST');
  const se = ids.indexOf('SE');
  const at = (i: number): string[] => segs[i] ?? [];
  const [isa, gs, stSeg, seSeg, ge, iea] = [at(0), at(1), at(st), at(se), at(segs.length - 2), at(segs.length - 1)];
  expect(isa[0]).toBe('ISA');
  expect(gs.slice(0, 2)).toEqual(['GS', 'HN']);
  expect(gs[8]).toBe('005010X214');
  expect(stSeg).toEqual(['ST', '277', '0001', '005010X214']);
  expect(seSeg).toEqual(['SE', String(se - st + 1), stSeg[2]]);
  expect(ge).toEqual(['GE', '1', gs[6]]);
  expect(iea).toEqual(['IEA', '1', isa[13]]);
  expect(segs[st + 1]?.slice(0, 3)).toEqual(['BHT', '0085', '08']);
  return segs;
}

/** The 2200D loops: per patient HL, its TRN02 and STC segments. */
function claimsOf(segs: string[][]): { hl: string[]; trn: string; stc: string[][]; nm1: string[] }[] {
  const out: { hl: string[]; trn: string; stc: string[][]; nm1: string[] }[] = [];
  for (const s of segs) {
    if (s[0] === 'HL' && s[3] === 'PT') {
      out.push({ hl: s, trn: '', stc: [], nm1: [] });
    } else if (out.length > 0 && s[0] === 'TRN') {
      out[out.length - 1]!.trn = s[2]!;
    } else if (out.length > 0 && s[0] === 'STC') {
      out[out.length - 1]!.stc.push(s);
    } else if (out.length > 0 && s[0] === 'NM1' && s[1] === 'QC') {
      out[out.length - 1]!.nm1 = s;
    }
  }
  return out;
}

function finding(claimId: string, code: string, severity: Severity, message: string, lines: number[] = [1]): Finding {
  return {
    rule: `rule.${code.toLowerCase()}`,
    code,
    severity,
    claimId,
    lines,
    codes: ['X1'],
    message,
    fix: `fix ${code}`,
  };
}

function claimsRow(
  file: string,
  line: number,
  id: string,
  status: string,
  e: number,
  w: number,
  i: number,
  crossClaim = 0,
): (string | number)[] {
  return [file, line, id, 'professional', 1, status, e, w, i, 0, crossClaim];
}

function rejectedClaimRow(file: string, line: number, id: string | undefined, records: number): (string | number)[] {
  return [file, line, id ?? '', '', records, 'rejected', 0, 0, 0, 0, 0];
}

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ack-277ca-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A run of two input files, interleaved, with every claim status; A's rejected claims include odd ids. */
async function writeReports(): Promise<void> {
  const claims = [
    claimsRow(A, 10, 'C1', 'clean', 0, 0, 1),
    claimsRow(B, 10, 'B1', 'errors', 1, 0, 0),
    claimsRow(A, 30, 'C2', 'warnings', 0, 2, 0),
    claimsRow(A, 50, 'C3', 'errors', 2, 1, 0),
    rejectedClaimRow(A, 70, 'C*4~', 2),
    rejectedClaimRow(B, 40, undefined, 1),
    rejectedClaimRow(A, 77, undefined, 1),
  ];
  const findings = [
    findingRow(A, finding('C1', 'NCD_SUPPORTED', 'info', 'supported')),
    findingRow(B, finding('B1', 'PTP_CONFLICT', 'error', 'B only')),
    findingRow(A, finding('C2', 'DX_EXCLUDES1', 'warning', 'Excludes1: A and B', [1, 2])),
    findingRow(A, finding('C2', 'POA_MISSING', 'warning', 'no POA, "quoted", a,b')),
    findingRow(A, finding('C3', 'MUE_EXCEEDED', 'error', 'Line 1 J1100: 5 units over MUE 3')),
    findingRow(A, finding('C3', 'CONTRACTOR_UNKNOWN', 'warning', 'no contractor')),
    findingRow(A, finding('C3', 'CODE_NOT_FOUND', 'error', 'Diagnosis Z999: not in any release')),
  ];
  const rejected = [
    [A, 70, 'C*4~', 'claim rejected whole: segment 70: no date of service: no DTP*434/472 on the claim'],
    [A, 72, 'C*4~', 'claim rejected whole: segment 70: no date of service: no DTP*434/472 on the claim'],
    [B, 40, '', 'segment 40: B reason'],
    [A, 77, '', 'claim rejected whole: segment 77: CLM01 (patient control number, the claim id) is empty'],
  ];
  await writeFile(join(dir, 'claims.csv'), csvHeader(CLAIM_COLUMNS) + csvText(claims));
  await writeFile(join(dir, 'findings.csv'), csvHeader(FINDING_COLUMNS) + csvText(findings));
  await writeFile(join(dir, 'rejected.csv'), csvHeader(REJECTED_COLUMNS) + csvText(rejected));
}

describe('write277caFromReports', () => {
  test('acknowledges only the chosen input, one 2000D with TRN*2 per claim, in claims.csv order', async () => {
    await writeReports();
    const result = await write277caFromReports(dir, A, envelope);
    expect(result).toEqual({
      ackFile: join(dir, '277ca-a.837.x12'),
      warningsFile: join(dir, 'warnings-a.837.csv'),
      claims: 5,
      otherSender: 0,
    });
    const text = await readFile(result.ackFile, 'latin1');
    const segs = expectWellFormed(text);
    const claims = claimsOf(segs);
    expect(claims.map((c) => c.trn)).toEqual(['C1', 'C2', 'C3', 'C?4?', 'NOCLAIMID-S77']);
    expect(claims.map((c) => c.hl)).toEqual([4, 5, 6, 7, 8].map((n) => ['HL', String(n), '3', 'PT']));
    expect(text).not.toContain('B1');
    expect(text).not.toContain('B only');
    expect(text).not.toContain('B reason');
    // No patient data: placeholders only.
    for (const c of claims) {
      expect(c.nm1).toEqual([
        'NM1',
        'QC',
        '1',
        PATIENT_PLACEHOLDER.lastName,
        '',
        '',
        '',
        '',
        'MI',
        PATIENT_PLACEHOLDER.id,
      ]);
    }
    // 2000A-2000C: source, receiver with the batch id and counts, one billing provider with children.
    expect(segs).toContainEqual(['HL', '1', '', '20', '1']);
    expect(segs).toContainEqual(['NM1', 'AY', '2', 'CLAIM SCRUBBER', '', '', '', '', '46', 'SCRUB01']);
    expect(segs).toContainEqual(['TRN', '2', 'a.837']);
    expect(segs).toContainEqual(['STC', 'A1:19:AY', '20260105', 'WQ']);
    expect(segs).toContainEqual(['QTY', '90', '2']);
    expect(segs).toContainEqual(['QTY', 'AA', '3']);
    expect(segs).toContainEqual(['HL', '3', '2', '19', '1']);
    expect(segs[0]?.[13]).toBe('000000042');
    expect(segs[0]?.[9]).toBe('260105');
  });

  test('accepts clean and warnings claims as A2:20 and rejects errors and reader rejections as A3 with codes', async () => {
    await writeReports();
    const { ackFile } = await write277caFromReports(dir, A, envelope);
    const claims = claimsOf(segmentsOf(await readFile(ackFile, 'latin1')));
    const [clean, warned, errors, noDate, noId] = claims.map((c) => c.stc);
    expect(clean).toEqual([['STC', 'A2:20', '20260105', 'WQ']]);
    expect(warned).toEqual([['STC', 'A2:20', '20260105', 'WQ']]);
    // MUE → 476; an invalid diagnosis → 21 + 255; the findings' codes and messages in STC12.
    expect(errors).toHaveLength(1);
    expect(errors![0]!.slice(0, 4)).toEqual(['STC', 'A3:476', '20260105', 'U']);
    expect(errors![0]!.slice(10, 12)).toEqual(['A3:21', 'A3:255']);
    expect(errors![0]![12]).toBe(
      'MUE_EXCEEDED - Line 1 J1100 5 units over MUE 3; CODE_NOT_FOUND - Diagnosis Z999 not in any release',
    );
    // Reader rejections: no date of service → 187 (one distinct reason for both records); no claim id → 21 + 538.
    expect(noDate).toHaveLength(1);
    expect(noDate![0]!.slice(0, 4)).toEqual(['STC', 'A3:187', '20260105', 'U']);
    expect(noDate![0]![12]).toBe('claim rejected whole segment 70 no date of service no DTP 434/472 on the claim');
    expect(noId![0]!.slice(0, 4)).toEqual(['STC', 'A3:21', '20260105', 'U']);
    expect(noId![0]![10]).toBe('A3:538');
  });

  test("a claim's status codes are deduplicated by finding, so a 21 keeps the data code an earlier finding gave", async () => {
    await writeReports();
    const findings = await readFile(join(dir, 'findings.csv'), 'utf8');
    // C3: an MCE age conflict (732 + 255), then an invalid diagnosis (21 + 255).
    await writeFile(join(dir, 'findings.csv'), findings.replace(',MUE_EXCEEDED,', ',MCE_AGE_CONFLICT,'));
    const { ackFile } = await write277caFromReports(dir, A, envelope);
    const stc = claimsOf(segmentsOf(await readFile(ackFile, 'latin1')))[2]!.stc;
    expect(stc.map((s) => [s[1], s[10] ?? '', s[11] ?? ''])).toEqual([
      ['A3:732', 'A3:255', ''],
      ['A3:21', 'A3:255', ''],
    ]);
  });

  test('writes one warnings row per warning finding of the chosen input, with the finding columns', async () => {
    await writeReports();
    const { warningsFile } = await write277caFromReports(dir, A, envelope);
    const rows: string[][] = parseCsv(await readFile(warningsFile, 'utf8'));
    expect(rows[0]).toEqual([...WARNING_COLUMNS]);
    expect(rows.slice(1)).toEqual([
      ['C2', '1|2', 'rule.dx_excludes1', 'DX_EXCLUDES1', 'warning', 'Excludes1: A and B', 'fix DX_EXCLUDES1'],
      ['C2', '1', 'rule.poa_missing', 'POA_MISSING', 'warning', 'no POA, "quoted", a,b', 'fix POA_MISSING'],
      ['C3', '1', 'rule.contractor_unknown', 'CONTRACTOR_UNKNOWN', 'warning', 'no contractor', 'fix CONTRACTOR_UNKNOWN'],
    ]);
  });

  test('the other input gets its own files with its own claims', async () => {
    await writeReports();
    const result = await write277caFromReports(dir, B, { ...envelope, batchId: 'BATCH-B' }, { freeText: false });
    expect(result.claims).toBe(2);
    const segs = expectWellFormed(await readFile(result.ackFile, 'latin1'));
    expect(segs).toContainEqual(['TRN', '2', 'BATCH-B']);
    const claims = claimsOf(segs);
    expect(claims.map((c) => c.trn)).toEqual(['B1', 'NOCLAIMID-S40']);
    // PTP conflict → 735; freeText off → no STC12.
    expect(claims[0]?.stc).toEqual([['STC', 'A3:735', '20260105', 'U']]);
    expect(claims[1]?.stc).toEqual([['STC', 'A3:481', '20260105', 'U']]);
    expect((await readFile(result.warningsFile, 'utf8')).trim()).toBe(WARNING_COLUMNS.join(','));
  });

  test('an input without claims gets a well-formed 277CA with a childless 2000C', async () => {
    await writeReports();
    const result = await write277caFromReports(dir, 'in/other.837', envelope);
    expect(result.claims).toBe(0);
    const segs = expectWellFormed(await readFile(result.ackFile, 'latin1'));
    expect(segs).toContainEqual(['HL', '3', '2', '19', '0']);
    expect(segs.some((s) => s[0] === 'QTY' || (s[0] === 'HL' && s[3] === 'PT'))).toBe(false);
  });

  test("cross-claim findings count in a claim's status: an error rejects it, a warning goes to the warnings report", async () => {
    await writeReports();
    const batch = (claimId: string, code: string, severity: Severity, message: string): Finding => ({
      ...finding(claimId, code, severity, message),
      rule: code === 'BATCH_MUE_EXCEEDED' ? 'batch.mue' : 'batch.duplicate',
    });
    // C1 (clean of its own) has a possible duplicate, B1 too, and C2 (warnings of its own) is over an MUE with
    // another claim: claims.csv counts them, and they follow every claim's own findings, in claim order.
    const ownClaims = await readFile(join(dir, 'claims.csv'), 'utf8');
    const claims = ownClaims
      .replace('in/a.837,10,C1,professional,1,clean,0,0,1,0,0', 'in/a.837,10,C1,professional,1,warnings,0,1,1,0,1')
      .replace('in/b.837,10,B1,professional,1,errors,1,0,0,0,0', 'in/b.837,10,B1,professional,1,errors,1,1,0,0,1')
      .replace('in/a.837,30,C2,professional,1,warnings,0,2,0,0,0', 'in/a.837,30,C2,professional,1,errors,1,2,0,0,1');
    await writeFile(join(dir, 'claims.csv'), claims);
    const crossClaim = csvText([
      findingRow(A, batch('C1', 'BATCH_DUPLICATE_LINE', 'warning', 'dup C1')),
      findingRow(B, batch('B1', 'BATCH_DUPLICATE_LINE', 'warning', 'dup B1')),
      findingRow(A, batch('C2', 'BATCH_MUE_EXCEEDED', 'error', '4 units with claim X over the MUE of 3')),
    ]);
    const own = await readFile(join(dir, 'findings.csv'), 'utf8');
    await writeFile(join(dir, 'findings.csv'), own + crossClaim);
    const result = await write277caFromReports(dir, A, envelope);
    const acks = claimsOf(expectWellFormed(await readFile(result.ackFile, 'latin1')));
    expect(acks[0]?.stc).toEqual([['STC', 'A2:20', '20260105', 'WQ']]);
    expect(acks[1]?.trn).toBe('C2');
    expect(acks[1]?.stc).toEqual([['STC', 'A3:476', '20260105', 'U', '', '', '', '', '', '', '', '', 'BATCH_MUE_EXCEEDED - 4 units with claim X over the MUE of 3']]);
    const rows = (await readFile(result.warningsFile, 'utf8')).trim().split('\n');
    expect(rows.slice(1, 3)).toEqual([
      'C1,1,batch.duplicate,BATCH_DUPLICATE_LINE,warning,dup C1,fix BATCH_DUPLICATE_LINE',
      'C2,1|2,rule.dx_excludes1,DX_EXCLUDES1,warning,Excludes1: A and B,fix DX_EXCLUDES1',
    ]);
    expect(rows.join('\n')).not.toContain('dup B1');

    // A cross-claim finding claims.csv does not count, or another row after them, is refused.
    for (const extra of [
      findingRow(A, batch('C3', 'BATCH_DUPLICATE_LINE', 'warning', 'stray')),
      findingRow(A, finding('C1', 'MUE_EXCEEDED', 'error', 'stray')),
    ]) {
      await writeFile(join(dir, 'findings.csv'), own + crossClaim + csvText([extra]));
      await expect(write277caFromReports(dir, A, envelope)).rejects.toThrow(/belongs to no claim of claims\.csv/);
    }
    // A row of no claim between the claims' own rows and the cross-claim ones, and an own count one too many (the
    // claim's cross-claim finding read as its own), are refused too.
    await writeFile(join(dir, 'findings.csv'), own + csvText([findingRow(A, finding('GHOST', 'MUE_EXCEEDED', 'error', 'stray'))]) + crossClaim);
    await expect(write277caFromReports(dir, A, envelope)).rejects.toThrow(/row 9 belongs to no claim of claims\.csv/);
    await writeFile(join(dir, 'findings.csv'), own + crossClaim);
    await writeFile(join(dir, 'claims.csv'), claims.replace('C2,professional,1,errors,1,2,0,0,1', 'C2,professional,1,errors,1,3,0,0,1'));
    await expect(write277caFromReports(dir, A, envelope)).rejects.toThrow(/row \d+ is not of claims\.csv row 4|is not one of claims\.csv row 4's own findings/);
    await writeFile(join(dir, 'claims.csv'), claims);
    // Without any for this file, another file's are passed over, and a stray one of this file is refused.
    await writeFile(join(dir, 'claims.csv'), ownClaims.replace('B1,professional,1,errors,1,0,0,0,0', 'B1,professional,1,errors,1,1,0,0,1'));
    await writeFile(join(dir, 'findings.csv'), own + csvText([findingRow(B, batch('B1', 'BATCH_DUPLICATE_LINE', 'warning', 'dup B1'))]));
    const quiet = await write277caFromReports(dir, A, envelope);
    expect(await readFile(quiet.warningsFile, 'utf8')).not.toContain('batch.');
    await writeFile(join(dir, 'findings.csv'), own + csvText([findingRow(A, batch('C3', 'BATCH_DUPLICATE_LINE', 'warning', 'stray'))]));
    await expect(write277caFromReports(dir, A, envelope)).rejects.toThrow(/a cross-claim finding of a claim claims\.csv counts none for/);
  });

  test('refuses reports out of step and leaves no partial files', async () => {
    await writeReports();
    const findings = (await readFile(join(dir, 'findings.csv'), 'utf8')).split('\n');
    findings.splice(3, 1); // drop C2's first warning: every later row shifts onto the wrong claim
    await writeFile(join(dir, 'findings.csv'), findings.join('\n'));
    const error = await write277caFromReports(dir, A, envelope).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ScrubberError);
    expect((error as ScrubberError).code).toBe('INPUT_FORMAT');
    expect((error as Error).message).toMatch(/findings\.csv is out of step with claims\.csv/);
    expect((await readdir(dir)).sort()).toEqual(['claims.csv', 'findings.csv', 'rejected.csv']);
  });

  test('refuses a claims.csv without the report columns', async () => {
    await writeFile(join(dir, 'claims.csv'), 'file,line\nin/a.837,1\n');
    await writeFile(join(dir, 'findings.csv'), csvHeader(FINDING_COLUMNS));
    await expect(write277caFromReports(dir, A, envelope)).rejects.toThrow(/header lacks claimId/);
    expect(existsSync(join(dir, '277ca-a.837.x12'))).toBe(false);
  });
});

describe('write277caFromReports with the 837 read again', () => {
  const clinic: X12Party = { entity: '2', name: 'FAIRVIEW CLINIC', qualifier: 'XX', id: '1234567893' };
  const doctor: X12Party = { entity: '1', name: 'JONES', firstName: 'ANN', qualifier: 'XX', id: '1987654325' };
  const noNpi: X12Party = { entity: '2', name: 'NO ID YET', qualifier: 'XX', id: '' };
  const patient = (name: string, id: string): X12Party => ({ entity: '1', name, firstName: 'PAT', qualifier: 'MI', id });
  const sent: X12AckEnvelope = {
    senderQualifier: 'ZZ',
    senderId: 'BILLER01',
    receiverQualifier: '30',
    receiverId: 'PAYER01',
    applicationSender: 'BILLAPP',
    applicationReceiver: 'PAYAPP',
    batchId: 'BATCH9',
    submitter: { entity: '2', name: 'BEST BILLING', qualifier: '46', id: 'S00001' },
    receiver: { entity: '2', name: 'ACME PAYER', qualifier: '46', id: 'P0001' },
    sender: 'BILLER01\tS00001',
  };
  const from = sent.sender;
  /** A's claims (see writeReports) as the 837 has them: C1 and C2 of the clinic, C3 of a doctor, C4 the clinic's. */
  const a837: X12AckClaim[] = [
    { segNo: 10, claimId: 'C1', sender: from, totalCharge: 125.5, serviceDate: '20260102', billType: '131', clearinghouseTrace: 'T1', billingProvider: clinic, patient: patient('ALPHA', 'M1') },
    { segNo: 30, claimId: 'C2', sender: from, totalCharge: 80, serviceDate: '20260102-20260104', billingProvider: clinic, patient: patient('BETA', 'M2') },
    { segNo: 50, claimId: 'C3', sender: from, totalCharge: 10, billingProvider: doctor, patient: patient('GAMMA', '') },
    { segNo: 70, claimId: 'C*4~', sender: from, billingProvider: clinic },
    { segNo: 77, claimId: '', sender: from, billingProvider: noNpi },
  ];
  async function* itemsOf(items: readonly X12AckItem[]): AsyncGenerator<X12AckItem> {
    yield* items;
  }
  const source = (claims: readonly X12AckClaim[], env: X12AckEnvelope | undefined = sent): AsyncGenerator<X12AckItem> =>
    itemsOf([
      ...(env === undefined ? [] : [{ kind: 'envelope' as const, envelope: env }]),
      ...claims.map((claim) => ({ kind: 'claim' as const, claim })),
    ]);

  test("answers the 837's sender with its parties, and each claim with its provider, patient, charge and dates", async () => {
    await writeReports();
    const result = await write277caFromReports(dir, A, envelope, { source: source(a837) });
    const segs = expectWellFormed(await readFile(result.ackFile, 'latin1'));
    // Addressed back: the 837's receiver sends, its sender receives; 1000B is the source, 1000A the receiver.
    expect(segs[0]?.slice(5, 9)).toEqual(['30', 'PAYER01        ', 'ZZ', 'BILLER01       ']);
    expect(segs[1]?.slice(2, 4)).toEqual(['PAYAPP', 'BILLAPP']);
    expect(segs).toContainEqual(['NM1', 'AY', '2', 'ACME PAYER', '', '', '', '', '46', 'P0001']);
    expect(segs).toContainEqual(['NM1', '41', '2', 'BEST BILLING', '', '', '', '', '46', 'S00001']);
    expect(segs).toContainEqual(['TRN', '2', 'BATCH9']);
    // A 2000C per run of claims of one provider; a provider without an id gets the placeholder.
    const providers = segs.filter((s) => s[0] === 'HL' && s[3] === '19');
    expect(providers).toEqual([3, 6, 8, 10].map((n) => ['HL', String(n), '2', '19', '1']));
    expect(segs.filter((s) => s[0] === 'NM1' && s[1] === '85')).toEqual([
      ['NM1', '85', '2', 'FAIRVIEW CLINIC', '', '', '', '', 'XX', '1234567893'],
      ['NM1', '85', '1', 'JONES', 'ANN', '', '', '', 'XX', '1987654325'],
      ['NM1', '85', '2', 'FAIRVIEW CLINIC', '', '', '', '', 'XX', '1234567893'],
      ['NM1', '85', '2', PROVIDER_PLACEHOLDER.name, '', '', '', '', 'XX', PROVIDER_PLACEHOLDER.id],
    ]);
    const claims = claimsOf(segs);
    expect(claims.map((c) => c.hl)).toEqual([
      ['HL', '4', '3', 'PT'],
      ['HL', '5', '3', 'PT'],
      ['HL', '7', '6', 'PT'],
      ['HL', '9', '8', 'PT'],
      ['HL', '11', '10', 'PT'],
    ]);
    expect(claims.map((c) => c.nm1.slice(3, 5).concat(c.nm1.slice(8)))).toEqual([
      ['ALPHA', 'PAT', 'MI', 'M1'],
      ['BETA', 'PAT', 'MI', 'M2'],
      ['GAMMA', 'PAT', 'MI', PATIENT_PLACEHOLDER.id],
      [PATIENT_PLACEHOLDER.lastName, '', 'MI', PATIENT_PLACEHOLDER.id],
      [PATIENT_PLACEHOLDER.lastName, '', 'MI', PATIENT_PLACEHOLDER.id],
    ]);
    // C1's trace number and bill type are given back, once.
    expect(segs.filter((s) => s[0] === 'REF')).toEqual([
      ['REF', 'D9', 'T1'],
      ['REF', 'BLT', '131'],
    ]);
    // STC04 is required: C*4~ and the claim without an id have no CLM02 amount, so they charged 0.
    expect(claims.map((c) => c.stc[0]?.[4] ?? '')).toEqual(['125.5', '80', '10', '0', '0']);
    // 2200B: C1 and C2 are accepted, C3, C*4~ and the claim without an id rejected.
    expect(segs).toContainEqual(['STC', 'A1:19:AY', envelope.creationDate, 'WQ', '215.5']);
    expect(segs.filter((s) => s[0] === 'AMT')).toEqual([
      ['AMT', 'YU', '205.5'],
      ['AMT', 'YY', '10'],
    ]);
    expect((await readdir(dir)).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    const priced = a837.map((c, i) => (c.totalCharge === undefined ? { ...c, totalCharge: [0, 0, 0, 3.3, 0.1][i] } : c));
    const all = await write277caFromReports(dir, A, envelope, { source: source(priced) });
    const full = expectWellFormed(await readFile(all.ackFile, 'latin1'));
    expect(full).toContainEqual(['STC', 'A1:19:AY', envelope.creationDate, 'WQ', '218.9']);
    expect(full.filter((s) => s[0] === 'AMT')).toEqual([
      ['AMT', 'YU', '205.5'],
      ['AMT', 'YY', '13.4'],
    ]);
    expect(segs.filter((s) => s[0] === 'DTP' && s[1] === '472')).toEqual([
      ['DTP', '472', 'D8', '20260102'],
      ['DTP', '472', 'RD8', '20260102-20260104'],
    ]);
  });

  test("repeats nothing of another sender's claims in the same file", async () => {
    await writeReports();
    const other = a837.map((c) => (c.segNo === 30 ? { ...c, sender: 'OTHER\tS00009' } : c));
    const result = await write277caFromReports(dir, A, envelope, { source: source(other) });
    const segs = expectWellFormed(await readFile(result.ackFile, 'latin1'));
    const c2 = claimsOf(segs)[1];
    expect(c2?.trn).toBe('C2');
    expect(c2?.nm1).toEqual(['NM1', 'QC', '1', PATIENT_PLACEHOLDER.lastName, '', '', '', '', 'MI', PATIENT_PLACEHOLDER.id]);
    expect(c2?.stc[0]?.[4]).toBeUndefined();
    expect(await readFile(result.ackFile, 'latin1')).not.toContain('BETA');
    // Counted, so that the run says so (finish-run's note); the claims of the first sender are not.
    expect(result.otherSender).toBe(1);
    expect((await write277caFromReports(dir, A, envelope, { source: source(a837) })).otherSender).toBe(0);
  });

  test('keeps the given envelope where the 837 has no usable value', async () => {
    await writeReports();
    const odd: X12AckEnvelope = { ...sent, senderId: 'A*B', receiverId: 'MUCH TOO LONG AN ID', applicationSender: '', batchId: '', submitter: undefined };
    const result = await write277caFromReports(dir, A, envelope, { source: source(a837, odd) });
    const segs = expectWellFormed(await readFile(result.ackFile, 'latin1'));
    expect(segs[0]?.slice(5, 9)).toEqual(['ZZ', 'SCRUBBER       ', 'ZZ', 'SUBMITTER01    ']);
    expect(segs[1]?.slice(2, 4)).toEqual(['PAYAPP', 'SUBMITTER01']);
    expect(segs).toContainEqual(['TRN', '2', 'a.837']);
    expect(segs).toContainEqual(['NM1', '41', '2', 'BEST BILLING', '', '', '', '', '46', 'S00001']);
    expect(answeringEnvelope(envelope, odd).informationReceiver).toEqual(envelope.informationReceiver);
    // A submitter who is a person is written as one.
    const person = answeringEnvelope(envelope, { ...sent, submitter: { entity: '1', name: 'SMITH', firstName: 'JO', qualifier: '46', id: 'S7' } });
    expect(render277ca(person, [])).toContain('NM1*41*1*SMITH*JO****46*S7~');
    // A 1-character ISA id cannot be a GS code (2-15): without the 837's GS codes the given ones stand in.
    const short = answeringEnvelope(envelope, { ...sent, senderId: 'S', applicationSender: 'S', applicationReceiver: '' });
    expect(render277ca(short, [])).toMatch(/^ISA(\*[^*]*){5}\*PAYER01        \*ZZ\*S              \*[\s\S]*\nGS\*HN\*PAYER01\*SUBMITTER01\*/);
  });

  test("writes with the 837's own delimiters, so TRN02 echoes a CLM01 that holds X12's usual ones", async () => {
    await writeReports();
    const theirs = { element: '|', component: '>', repetition: '!', segment: "'" };
    const result = await write277caFromReports(dir, A, envelope, { source: source(a837, { ...sent, delimiters: theirs }) });
    const text = await readFile(result.ackFile, 'latin1');
    const lines = text.split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.filter((l) => !l.endsWith("'") || l.endsWith("|'"))).toEqual([]);
    expect(lines[0]).toHaveLength(106);
    const segs = segmentsOf(text);
    // ISA11 and ISA16 declare the repetition and component separators written with.
    expect([segs[0]?.[11], segs[0]?.[16]]).toEqual(['!', '>']);
    expect(claimsOf(segs).map((c) => c.trn)).toEqual(['C1', 'C2', 'C3', 'C*4~', 'NOCLAIMID-S77']);
    expect(claimsOf(segs)[0]?.stc[0]?.[1]).toBe('A2>20');
    expect(segs.find((seg) => seg[0] === 'STC')?.[1]).toBe('A1>19>AY');
    expect(segs.filter((seg) => ['ST', 'SE', 'GS', 'GE', 'IEA'].includes(seg[0] ?? '')).map((seg) => seg[0])).toEqual(['GS', 'ST', 'SE', 'GE', 'IEA']);
    // A 4010-style ISA11 (no repetition separator) gets ^; delimiters the writer cannot use (a line break ends the
    // 837's segments) leave X12's usual ones, and a CLM01 that holds them is written with ? as before.
    expect(answeringEnvelope(envelope, { ...sent, delimiters: { ...theirs, repetition: undefined } }).delimiters).toEqual({ ...theirs, repetition: '^' });
    const newline = { element: '*', component: ':', repetition: '^', segment: '\n' };
    const usual = await write277caFromReports(dir, A, envelope, { source: source(a837, { ...sent, delimiters: newline }) });
    const usualSegs = expectWellFormed(await readFile(usual.ackFile, 'latin1'));
    expect(claimsOf(usualSegs)[3]?.trn).toBe('C?4?');
    expect(() => render277ca({ ...envelope, delimiters: { ...theirs, component: 'A' } }, [])).toThrow(/delimiters/);
    expect(() => render277ca({ ...envelope, delimiters: { ...theirs, component: '|' } }, [])).toThrow(/delimiters/);
  });

  test('refuses an 837 that is not the one the reports are of, leaving no files', async () => {
    await writeReports();
    const renamed = a837.map((c) => (c.segNo === 50 ? { ...c, claimId: 'OTHER' } : c));
    const cases: [AsyncIterable<X12AckItem>, RegExp][] = [
      [source(renamed), /the claim at segment 50 has another id than the reports give it/],
      [source(a837.slice(0, 2)), /no claim at segment 50:/],
      [source(a837.filter((c) => c.segNo !== 30)), /no claim at segment 30:/],
      [
        (async function* broken(): AsyncGenerator<X12AckItem> {
          yield* a837.slice(0, 1).map((claim) => ({ kind: 'claim' as const, claim }));
          throw new Error('disk gone');
        })(),
        /in\/a\.837: cannot be read again: disk gone/,
      ],
    ];
    for (const [items, message] of cases) {
      const error = await write277caFromReports(dir, A, envelope, { source: items }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AckSourceError);
      expect((error as Error).message).toMatch(message);
      expect((await readdir(dir)).sort()).toEqual(['claims.csv', 'findings.csv', 'rejected.csv']);
    }
  });
});

describe('render277ca', () => {
  const claims: ClaimAck[] = [
    { claimId: 'P1', status: 'accepted', statusCodes: [], totalCharge: 125.5, serviceDate: '20251201' },
    {
      claimId: 'P2',
      status: 'rejected',
      statusCodes: ['476', '21', '255', '735'].map((code) => ({ category: 'A3' as const, code })),
      freeText: 'x'.repeat(300),
      serviceDate: '20251201-20251203',
    },
  ];

  test('is deterministic and counts segments in SE', () => {
    const text = render277ca(envelope, claims);
    expect(render277ca(envelope, claims)).toBe(text);
    const segs = expectWellFormed(text);
    expect(segs).toContainEqual(['STC', 'A2:20', '20260105', 'WQ', '125.5']);
    expect(segs).toContainEqual(['DTP', '472', 'D8', '20251201']);
    expect(segs).toContainEqual(['DTP', '472', 'RD8', '20251201-20251203']);
  });

  test('puts three status codes per STC, the free text trimmed to 264 characters on the first', () => {
    const stc = claimsOf(segmentsOf(render277ca(envelope, claims)))[1]!.stc;
    expect(stc).toHaveLength(2);
    expect(stc[0]).toEqual([
      'STC',
      'A3:476',
      '20260105',
      'U',
      '',
      '',
      '',
      '',
      '',
      '',
      'A3:21',
      'A3:255',
      'x'.repeat(264),
    ]);
    expect(stc[1]).toEqual(['STC', 'A3:735', '20260105', 'U']);
  });

  test('gives back the clearinghouse trace (REF*D9) and the bill type (REF*BLT) between STC and DTP*472', () => {
    const segs = segmentsOf(
      render277ca(envelope, [
        { claimId: 'I1', status: 'accepted', statusCodes: [], clearinghouseTrace: 'TR*1~', billType: '131', serviceDate: '20260102' },
        { claimId: 'P1', status: 'accepted', statusCodes: [], clearinghouseTrace: '', serviceDate: '20260102' },
      ]),
    );
    const ids = segs.map((s) => s.slice(0, 2).join('*'));
    const at = ids.indexOf('TRN*2', ids.indexOf('TRN*2') + 1);
    expect(segs.slice(at, at + 5)).toEqual([
      ['TRN', '2', 'I1'],
      ['STC', 'A2:20', '20260105', 'WQ'],
      ['REF', 'D9', 'TR?1?'],
      ['REF', 'BLT', '131'],
      ['DTP', '472', 'D8', '20260102'],
    ]);
    // Nothing to give back for the professional claim: no REF.
    const last = ids.lastIndexOf('TRN*2');
    expect(ids.slice(last, last + 4)).toEqual(['TRN*2', 'STC*A2:20', 'DTP*472', 'SE*' + String(segs[last + 3]?.[1] ?? '')]);
  });

  test('keeps a 21 or 732 in one STC with the code naming its data', () => {
    const a3 = (...codes: string[]): ClaimAck['statusCodes'] => codes.map((code) => ({ category: 'A3', code }));
    const stcCodes = (codes: ClaimAck['statusCodes']): string[][] =>
      claimsOf(segmentsOf(render277ca(envelope, [{ claimId: 'P', status: 'rejected', statusCodes: codes }])))[0]!.stc.map(
        (s) => [s[1], s[10], s[11]].filter((c): c is string => c !== undefined && c !== ''),
      );
    expect(stcCodes(a3('476', '735', '21', '254'))).toEqual([['A3:476', 'A3:735'], ['A3:21', 'A3:254']]);
    expect(stcCodes(a3('732', '255', '476', '21', '247'))).toEqual([['A3:732', 'A3:255', 'A3:476'], ['A3:21', 'A3:247']]);
    // A 21 last in the list has no data code to keep.
    expect(stcCodes(a3('476', '735', '21'))).toEqual([['A3:476', 'A3:735', 'A3:21']]);
  });

  test('replaces delimiters in a claim id, so the TRN keeps its elements, and cuts it to 50 characters', () => {
    const text = render277ca(envelope, [
      { claimId: 'A*B:C^D~E\nF', status: 'accepted', statusCodes: [] },
      { claimId: `${'L'.repeat(60)}`, status: 'accepted', statusCodes: [] },
    ]);
    const trns = claimsOf(expectWellFormed(text)).map((c) => c.trn);
    expect(trns).toEqual(['A?B?C?D?E F', 'L'.repeat(50)]);
    expect(text).toContain('TRN*2*A?B?C?D?E F~\n');
  });

  test('keeps free text readable: delimiters become spaces, accents are dropped', () => {
    const stc = claimsOf(
      segmentsOf(
        render277ca(envelope, [
          {
            claimId: 'P3',
            status: 'rejected',
            statusCodes: [{ category: 'A3', code: '476' }],
            freeText: 'Line 1 J1100: 5 units > MUE 3 ~ café *x*',
          },
        ]),
      ),
    )[0]!.stc;
    expect(stc[0]?.[12]).toBe('Line 1 J1100 5 units > MUE 3 cafe x');
  });

  test('an id shorter than NM109 holds (2 characters) gives way to the placeholder', () => {
    const segs = segmentsOf(
      render277ca(envelope, [
        {
          claimId: 'S1',
          status: 'accepted',
          statusCodes: [],
          patient: { entity: '1', name: 'ROE', qualifier: 'MI', id: 'X' },
          billingProvider: { entity: '2', name: 'ONE CHAR CLINIC', qualifier: 'XX', id: '7' },
        },
      ]),
    );
    expect(segs).toContainEqual(['NM1', 'QC', '1', 'ROE', '', '', '', '', 'MI', PATIENT_PLACEHOLDER.id]);
    expect(segs).toContainEqual(['NM1', '85', '2', PROVIDER_PLACEHOLDER.name, '', '', '', '', 'XX', PROVIDER_PLACEHOLDER.id]);
  });

  test('refuses misuse with a RangeError naming the argument', () => {
    expect(() => render277ca({ ...envelope, interchangeControlNumber: 0 }, [])).toThrow(/interchangeControlNumber/);
    expect(() => render277ca({ ...envelope, creationDate: '2026-01-05' }, [])).toThrow(/creationDate/);
    expect(() => render277ca({ ...envelope, senderId: 'TOO*LONG' }, [])).toThrow(RangeError);
    expect(() => render277ca(envelope, [{ claimId: 'X', status: 'rejected', statusCodes: [] }])).toThrow(/non-empty/);
    expect(() =>
      render277ca(envelope, [{ claimId: 'X', status: 'accepted', statusCodes: [{ category: 'A3', code: '21' }] }]),
    ).toThrow(/accepting category/);
    const writer = new Ack277caWriter(envelope);
    expect(() => writer.end()).toThrow(TypeError);
    expect(() => writer.begin({ accepted: 1, rejected: 0, acceptedAmount: Number.NaN })).toThrow(/acceptedAmount/);
    writer.begin({ accepted: 0, rejected: 0 });
    expect(() => writer.begin({ accepted: 0, rejected: 0 })).toThrow(TypeError);
    writer.end();
    expect(() => writer.claim({ claimId: 'X', status: 'accepted', statusCodes: [] })).toThrow(TypeError);
  });

  test("2200B totals the batch's charges when every claim's is known: STC04, AMT*YU accepted, AMT*YY rejected", () => {
    const ack = (claimId: string, status: 'accepted' | 'rejected', totalCharge?: number): ClaimAck => ({
      claimId,
      status,
      statusCodes: status === 'rejected' ? [{ category: 'A3', code: '21' }] : [],
      totalCharge,
    });
    const head = (claims: ClaimAck[]): string[][] => {
      const segs = expectWellFormed(render277ca(envelope, claims));
      // 2200B: from the 2000B HL up to the first 2000C HL.
      const b = segs.findIndex((s) => s[0] === 'HL' && s[3] === '21');
      const c = segs.findIndex((s) => s[0] === 'HL' && s[3] === '19');
      return segs.slice(b + 2, c);
    };
    // Cents summed as integers: 0.1 + 0.2 is 0.3, not 0.30000000000000004.
    expect(head([ack('A', 'accepted', 0.1), ack('B', 'rejected', 100), ack('C', 'accepted', 0.2)])).toEqual([
      ['TRN', '2', 'NOTREPORTED'],
      ['STC', 'A1:19:AY', '20260105', 'WQ', '100.3'],
      ['QTY', '90', '2'],
      ['QTY', 'AA', '1'],
      ['AMT', 'YU', '0.3'],
      ['AMT', 'YY', '100'],
    ]);
    // A rejected claim without a charge: the rejected and batch totals are unknown, never a partial sum.
    expect(head([ack('A', 'accepted', 12.5), ack('B', 'rejected')])).toEqual([
      ['TRN', '2', 'NOTREPORTED'],
      ['STC', 'A1:19:AY', '20260105', 'WQ'],
      ['QTY', '90', '1'],
      ['QTY', 'AA', '1'],
      ['AMT', 'YU', '12.5'],
    ]);
    // No claims: no quantities and no amounts; a zero charge is still a known total.
    expect(head([])).toEqual([['TRN', '2', 'NOTREPORTED'], ['STC', 'A1:19:AY', '20260105', 'WQ', '0']]);
  });
});

describe('status codes', () => {
  test('map error findings to claim status codes under A3', () => {
    const codes = (code: string, message = ''): string[] =>
      statusCodesForFinding(code, message).map((c) => `${c.category}:${c.code}`);
    expect(codes('MUE_EXCEEDED')).toEqual(['A3:476']);
    expect(codes('AOC_NO_PRIMARY')).toEqual(['A3:736']);
    expect(codes('NCD_NOT_LISTED')).toEqual(['A3:732', 'A3:488']);
    expect(codes('MCE_AGE_CONFLICT')).toEqual(['A3:732', 'A3:255']);
    expect(codes('CODE_DELETED', 'Principal diagnosis A00: deleted')).toEqual(['A3:21', 'A3:254']);
    expect(codes('CODE_DELETED', 'Diagnosis A00: deleted')).toEqual(['A3:21', 'A3:255']);
    expect(codes('CODE_HEADER', 'Line 2 procedure 9921: not billable')).toEqual(['A3:21', 'A3:454']);
    expect(codes('SOMETHING_NEW')).toEqual(['A3:21', 'A3:732']);
  });

  test('map reader reasons to claim status codes', () => {
    const codes = (reason: string): string[] => statusCodesForRejection(reason).map((c) => c.code);
    expect(codes('segment 9: the claim has 2 principal diagnoses (HI ABK/BK)')).toEqual(['21', '254']);
    expect(codes('segment 9: the claim has no service lines (LX with SV1 or SV2)')).toEqual(['21', '247']);
    expect(codes('a worker failed on this claim: boom')).toEqual(['0']);
    // Units of service (476), as the X12 and CSV readers word them; an SV1/SV2 element's problem is a line's.
    expect(codes("segment 12: SV104 units 'abc' are not a number of at most 12 characters")).toEqual(['476']);
    expect(codes("line 3: units: 'x' is not a positive decimal number of at most 12 characters")).toEqual(['476']);
    expect(codes('segment 12: SV101 is not a composite procedure code')).toEqual(['21', '247']);
    expect(codes('segment 3: something else')).toEqual(['481']);
  });
});
