import { createHash } from 'node:crypto';
import { createReadStream, readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { ScrubberError } from '../../../src/errors.js';
import type { ReadClaim, ReadItem, ReadRejected } from '../../../src/readers/claims/types.js';
import { readX12ClaimBatches, readX12Claims } from '../../../src/readers/claims/x12.js';
import { Claim } from '../../../src/schemas/claim.js';

const fixture = (name: string): string => new URL(`../../fixtures/claims/${name}`, import.meta.url).pathname;
const sample = (name: string): string => new URL(`../../../samples/claims/${name}`, import.meta.url).pathname;

/** Reads a file through small chunks, so segments straddle chunk boundaries. */
async function readFile(path: string, chunk = 61): Promise<ReadItem[]> {
  const items: ReadItem[] = [];
  for await (const item of readX12Claims(createReadStream(path, { highWaterMark: chunk }), 'in.837')) {
    items.push(item);
  }
  return items;
}

const readFileText = (path: string): string => readFileSync(path, 'latin1');

async function readText(text: string): Promise<ReadItem[]> {
  async function* source(): AsyncGenerator<Buffer> {
    yield Buffer.from(text, 'latin1');
  }
  const items: ReadItem[] = [];
  for await (const item of readX12Claims(source(), 'in.837')) {
    items.push(item);
  }
  return items;
}

const claims = (items: ReadItem[]): ReadClaim[] => items.filter((i): i is ReadClaim => i.kind === 'claim');
const rejected = (items: ReadItem[]): ReadRejected[] => items.filter((i): i is ReadRejected => i.kind === 'rejected');

const ISA =
  'ISA*00*          *00*          *ZZ*SENDER         *ZZ*RECEIVER       *260510*1200*^*00501*000000001*0*T*:~';

/** One 837P interchange around the given 2000B/2300 segments (SE/GE/IEA counts computed). */
function professional(...body: string[]): string {
  const txn = [
    'ST*837*0001*005010X222A1',
    'BHT*0019*00*B1*20260510*1200*CH',
    'HL*1**20*1',
    'NM1*85*2*CLINIC*****XX*1234567893',
    'N4*ALEXANDRIA*VA*22314',
    'HL*2*1*22*0',
    'SBR*P*18*******MB',
    'NM1*IL*1*ALPHA*ANN****MI*MBR0001',
    'DMG*D8*19600115*F',
    ...body,
  ];
  txn.push(`SE*${txn.length + 1}*0001`);
  return [ISA, 'GS*HC*S*R*20260510*1200*1*X*005010X222A1', ...txn, 'GE*1*1', 'IEA*1*000000001'].join('~\n') + '~\n';
}

describe('readX12ClaimBatches', () => {
  test.each([61, 4096, 1 << 20])('gives the items of readX12Claims in the same order, in non-empty batches (chunks of %i bytes)', async (chunk) => {
    const path = sample('claims-837p.txt');
    const batches: ReadItem[][] = [];
    for await (const batch of readX12ClaimBatches(createReadStream(path, { highWaterMark: chunk }), 'in.837')) {
      batches.push(batch);
    }
    expect(batches.every((b) => b.length > 0)).toBe(true);
    const items = await readFile(path, chunk);
    expect(items.length).toBeGreaterThan(3);
    expect(batches.flat()).toEqual(items);
    // Small chunks finish a few items each; one chunk holding the file finishes all of them at once.
    if (chunk === 1 << 20) {
      expect(batches).toHaveLength(1);
    } else if (chunk === 61) {
      expect(batches.length).toBeGreaterThan(3);
    }
  });
});

describe('readX12Claims: 837P', () => {
  test('an 837P has no ICD procedures: HI BBR/BBQ are passed over, even malformed ones', async () => {
    const items = await readText(
      professional('CLM*P-9*100***11:B:1*Y*A*Y*Y', 'HI*ABK:E119*BBR:0DTJ4ZZ:D8:2026*BBQ::D8:20260508', 'LX*1', 'SV1*HC:99213*100*UN*1***1', 'DTP*472*D8*20260504'),
    );
    expect(rejected(items)).toEqual([]);
    expect(claims(items)[0]?.claim.lines.map((l) => l.procedureCode)).toEqual(['99213']);
  });

  test('reads an 837P of a DME supplier (billing provider taxonomy 332B…, 335E00000X) as a DME claim, located where the beneficiary lives', async () => {
    // The 2000A PRV after HL*1, the subscriber's N4 after its NM1 (and the SE count two higher); a rendering provider's
    // PRV (PE) does not count.
    const withPrv = (taxonomy: string, qualifier = 'BI'): string =>
      professional('CLM*D-1*100***12:B:1*Y*A*Y*Y', 'HI*ABK:J449', 'LX*1', 'SV1*HC:E0601*100*UN*1***1', 'DTP*472*D8*20260504')
        .replace('HL*1**20*1~', `HL*1**20*1~\nPRV*${qualifier}*PXC*${taxonomy}~`)
        .replace('*MI*MBR0001~', '*MI*MBR0001~\nN4*TAMPA*FL*33601~')
        .replace(/SE\*(\d+)\*0001/, (_m, n: string) => `SE*${String(Number(n) + 2)}*0001`);
    for (const taxonomy of ['332B00000X', '332BX2000X', '335E00000X']) {
      const [read] = claims(await readText(withPrv(taxonomy)));
      expect(read?.claim, taxonomy).toMatchObject({ claimType: 'dme', provider: { type: 'DME', state: 'FL', zip: '33601' } });
    }
    // A practitioner's claim stays located at its billing provider (VA), the subscriber's N4 aside.
    for (const [taxonomy, qualifier] of [['207Q00000X', 'BI'], ['332B00000X', 'PE']] as const) {
      const [read] = claims(await readText(withPrv(taxonomy, qualifier)));
      expect(read?.claim, `${qualifier} ${taxonomy}`).toMatchObject({
        claimType: 'professional',
        provider: { type: 'Physician', state: 'VA' },
      });
    }
  });

  test('reads professional claims with patient, billing provider, payer, diagnoses and lines', async () => {
    const items = await readFile(fixture('professional.837'));
    expect(items.map((i) => i.kind)).toEqual(['claim', 'claim']);
    const [first, second] = claims(items);
    expect(first).toEqual({
      kind: 'claim',
      file: 'in.837',
      line: 21,
      inputLines: 2,
      claim: {
        claimId: 'P-1',
        claimType: 'professional',
        patient: { id: 'MBR0001', birthDate: '1960-01-15', sex: 'F' },
        provider: { type: 'Physician', state: 'VA', zip: '223141234' },
        payerCode: '00000',
        dateOfServiceFrom: '2026-05-04',
        dateOfServiceTo: '2026-05-06',
        icdType: 'ICD-10 CM',
        // HI listed ABF:I10 before ABK:E119: the principal goes first and the pointers follow their codes.
        diagnoses: [{ code: 'E119' }, { code: 'I10' }],
        lines: [
          {
            lineNumber: 1,
            procedureCode: '99214',
            modifiers: ['25'],
            units: 1,
            dateOfService: '2026-05-04',
            diagnosisPointers: [2, 1],
            placeOfService: '11',
          },
          {
            lineNumber: 2,
            procedureCode: '83036',
            modifiers: [],
            units: 2,
            dateOfService: '2026-05-05',
            diagnosisPointers: [2],
            placeOfService: '11',
          },
        ],
      },
    });
    expect(Claim.safeParse(first?.claim).success).toBe(true);
    expect(second?.claim).toMatchObject({
      claimId: 'P-2',
      // 2000C patient: the dependent's own birth date and sex, identified under the subscriber's member id.
      patient: { id: `MBR0002/${createHash('sha256').update('BETA\tCARL').digest('hex').slice(0, 12)}`, birthDate: '2015-06-30', sex: 'M' },
      // 2310C service facility address (lower-case state upper-cased); 2330 other-payer loops change nothing.
      provider: { type: 'Physician', state: 'MD', zip: '21201' },
      payerCode: 'ACME01',
      dateOfServiceFrom: '2026-05-07',
      diagnoses: [{ code: 'J189' }],
      // No SV105: the claim's place of service (CLM05-1); no SV107: every diagnosis applies.
      lines: [
        {
          lineNumber: 1,
          procedureCode: '99213',
          modifiers: [],
          units: 1,
          placeOfService: '22',
          dateOfService: '2026-05-07',
        },
      ],
    });
    expect(second?.claim.lines[0]).not.toHaveProperty('diagnosisPointers');
  });

  test('takes the claim date from the earliest line and leaves a line without DTP*472 undated', async () => {
    const items = await readText(
      professional(
        'CLM*D-1*100***11:B:1*Y*A*Y*Y',
        'HI*ABK:I10',
        'LX*1',
        'SV1*HC:99213*95*UN*1***1',
        'DTP*472*D8*20260509',
        'LX*2',
        'SV1*HC:93000*40*UN*1***1',
        'LX*3',
        'SV1*HC:36415*10*UN*1***1',
        'DTP*472*D8*20260502',
      ),
    );
    const claim = claims(items)[0]?.claim;
    expect(claim?.dateOfServiceFrom).toBe('2026-05-02');
    expect(claim?.dateOfServiceTo).toBe('2026-05-09');
    expect(claim?.lines[1]).not.toHaveProperty('dateOfService');
  });

  test('reads ICD-9-CM qualifiers as icdType ICD-9 CM', async () => {
    const items = await readText(
      professional(
        'CLM*N-1*95***11:B:1*Y*A*Y*Y',
        'HI*BK:4019*BF:25000',
        'LX*1',
        'SV1*HC:99213*95*UN*1***1:2',
        'DTP*472*D8*20150901',
      ),
    );
    expect(claims(items)[0]?.claim).toMatchObject({
      icdType: 'ICD-9 CM',
      diagnoses: [{ code: '4019' }, { code: '25000' }],
    });
  });
});

describe('readX12Claims: 837I', () => {
  test('reads institutional claims: statement dates, POA, revenue codes, ICD procedures as lines; ABJ/APR/ABN left out', async () => {
    const items = await readFile(fixture('institutional.837'));
    expect(items).toHaveLength(1);
    const [read] = claims(items);
    expect(read?.line).toBe(21);
    // Three service lines; the room-and-board line (revenue code only) has no procedure for the engine.
    expect(read?.inputLines).toBe(3);
    expect(read?.claim).toEqual({
      claimId: 'I-1',
      claimType: 'institutional',
      patient: { id: 'MBR0003', birthDate: '1945-02-28', sex: 'F' },
      provider: { type: 'Facility', state: 'IL', zip: '60612' },
      payerCode: '06001',
      dateOfServiceFrom: '2026-05-05',
      dateOfServiceTo: '2026-05-08',
      // CLM05 11:A:1, facility type 11 and frequency 1: type of bill 0111, hospital inpatient.
      billType: '111',
      icdType: 'ICD-10 CM',
      diagnoses: [{ code: 'J189', poa: 'Y' }, { code: 'E119', poa: 'N' }, { code: 'I10' }],
      lines: [
        {
          lineNumber: 2,
          procedureCode: '83036',
          modifiers: [],
          units: 1,
          dateOfService: '2026-05-06',
          revenueCode: '0300',
        },
        { lineNumber: 3, procedureCode: 'J1885', modifiers: ['JZ'], units: 4, revenueCode: '0636' },
        // HI*BBR:0BH17EZ:D8:20260505: the principal ICD-10-PCS procedure, a line after the service lines.
        { lineNumber: 4, procedureCode: '0BH17EZ', modifiers: [], units: 1, dateOfService: '2026-05-05' },
      ],
    });
  });

  test('ICD procedures: principal first, any case, date optional; a bad date or a second principal rejects the claim', async () => {
    const text = readFileText(fixture('institutional.837'));
    const withHi = (hi: string): string => text.replace('HI*BBR:0BH17EZ:D8:20260505~', hi);
    const lines = async (hi: string): Promise<unknown[]> => (claims(await readText(withHi(hi)))[0]?.claim.lines ?? []).slice(2);
    expect(await lines('HI*BBQ:0DTJ4ZZ*bbr:0bh17ez:d8:20260505*BBQ:02HV33Z:D8:20260506~')).toEqual([
      { lineNumber: 4, procedureCode: '0BH17EZ', modifiers: [], units: 1, dateOfService: '2026-05-05' },
      { lineNumber: 5, procedureCode: '0DTJ4ZZ', modifiers: [], units: 1 },
      { lineNumber: 6, procedureCode: '02HV33Z', modifiers: [], units: 1, dateOfService: '2026-05-06' },
    ]);
    // ICD-9-CM procedures (BR/BQ) are not read: a line cannot say which code set its code is in.
    expect(await lines('HI*BR:3615:D8:20260505*BQ:8872~')).toEqual([]);
    const bad = rejected(await readText(withHi('HI*BBR:0BH17EZ:D8:20261305~')));
    expect(bad[0]?.records[0]?.reason).toMatch(/HI01 BBR procedure date '20261305' is not a valid D8/);
    const two = rejected(await readText(withHi('HI*BBR:0BH17EZ*BBR:0DTJ4ZZ~')));
    expect(two[0]?.records[0]?.reason).toMatch(/more than one principal procedure/);
    const empty = rejected(await readText(withHi('HI*BBQ:~')));
    expect(empty[0]?.records[0]?.reason).toMatch(/HI01 BBQ has no procedure code/);
  });

  test('ICD procedures follow the highest LX number, whatever order the LX numbers come in', async () => {
    const text = readFileText(fixture('institutional.837'));
    // LX 3, 1, 2: the procedure is line 4, not the last LX's number plus one (3, a number already used).
    const shuffled = text.replace('LX*1~', 'LX*3~').replace('LX*2~', 'LX*1~').replace('LX*3~\nSV2*0636', 'LX*2~\nSV2*0636');
    const [read] = claims(await readText(shuffled));
    expect(read?.claim.lines.map((l) => [l.lineNumber, l.procedureCode])).toEqual([
      [1, '83036'],
      [2, 'J1885'],
      [4, '0BH17EZ'],
    ]);
  });
});

describe('readX12Claims: messy input', () => {
  test('reads a BOM, CRLF, indentation, trailing blanks, stray component separators and a second interchange', async () => {
    const items = await readFile(fixture('messy.837'), 7);
    expect(items.map((i) => i.kind)).toEqual(['claim', 'claim']);
    const [p, i] = claims(items);
    expect(p?.claim).toMatchObject({
      claimId: 'M-1',
      claimType: 'professional',
      provider: { state: 'CO', zip: '80202' },
      diagnoses: [{ code: 'E119' }, { code: 'I10' }],
      lines: [
        { procedureCode: '99213', modifiers: ['25'], diagnosisPointers: [1, 2], placeOfService: '11' },
        { procedureCode: '36415', modifiers: [], diagnosisPointers: [1] },
      ],
    });
    // Segment numbers run on across interchanges: the second CLM is segment 34 of the file.
    expect(i?.line).toBe(34);
    expect(i?.claim).toMatchObject({
      claimId: 'M-2',
      claimType: 'institutional',
      billType: '131',
      provider: { type: 'Facility', state: 'TX' },
      dateOfServiceFrom: '2026-06-01',
      diagnoses: [{ code: 'N1830' }],
      lines: [{ procedureCode: '80053', revenueCode: '0300' }],
    });
  });
});

describe('readX12Claims: rejected claims', () => {
  test('rejects a malformed claim whole, one record per service line, and reads the claims around it', async () => {
    const items = await readFile(fixture('rejects.837'));
    expect(items.map((i) => (i.kind === 'claim' ? i.claim.claimId : `rejected ${i.claimId ?? '?'}`))).toEqual([
      'OK-1',
      'rejected ?',
      'rejected BAD-DATE',
      'rejected BAD-UNITS',
      'rejected NO-SV',
      'rejected NO-LINES',
      'rejected LOWER-MOD',
      'OK-2',
    ]);
    const [noId, badDate, badUnits, noSv, noLines, lowerMod] = rejected(items);
    // CLM without id: two lines, two records at their SV1 segments, no claim id.
    expect(noId?.records).toEqual([
      {
        file: 'in.837',
        line: 29,
        reason: 'claim rejected whole: segment 26: CLM01 (patient control number, the claim id) is empty',
      },
      {
        file: 'in.837',
        line: 32,
        reason: 'claim rejected whole: segment 26: CLM01 (patient control number, the claim id) is empty',
      },
    ]);
    // A bad line date: that line's record says why, the other points at it.
    expect(badDate?.records.map((r) => [r.line, r.claimId, r.reason])).toEqual([
      [37, 'BAD-DATE', "segment 38: DTP*472: date '20260230' is not a valid D8 (CCYYMMDD) date"],
      [40, 'BAD-DATE', "claim rejected whole: segment 38: DTP*472: date '20260230' is not a valid D8 (CCYYMMDD) date"],
    ]);
    expect(badUnits?.records.map((r) => r.reason)).toEqual(["segment 45: SV104 units 'one' are not a number of at most 15 characters"]);
    expect(noSv?.records.map((r) => [r.line, r.reason])).toEqual([
      [49, 'segment 49: service line 1 has no SV1 or SV2 segment'],
    ]);
    expect(noLines?.records.map((r) => [r.line, r.reason])).toEqual([
      [51, 'segment 51: the claim has no service lines (LX with SV1 or SV2)'],
    ]);
    // A value the Claim schema refuses (a modifier `R!`): the zod issue's path and message.
    expect(lowerMod?.records[0]?.reason).toMatch(/^segment 57: claim schema: lines\.0\.modifiers\.0: /);
  });

  test('rejects a claim without a total charge (CLM02 is required), and reads any plain amount', async () => {
    const claimWith = (charge: string): string =>
      professional(`CLM*CH-1*${charge}***11:B:1*Y*A*Y*Y`, 'HI*ABK:I10', 'LX*1', 'SV1*HC:99213*100*UN*1***1', 'DTP*472*D8*20260504');
    for (const [charge, reason] of [
      ['', 'CLM02 (total claim charge) is empty'],
      ['12A', "CLM02 (total claim charge) '12A' is not an amount"],
      ['1e3', "CLM02 (total claim charge) '1e3' is not an amount"],
    ] as const) {
      const items = await readText(claimWith(charge));
      expect(claims(items)).toEqual([]);
      expect(rejected(items)[0]?.records.map((r) => r.reason)).toEqual([`claim rejected whole: segment 12: ${reason}`]);
    }
    for (const charge of ['100', '95.1', '.5', '0']) {
      expect(claims(await readText(claimWith(charge))).map((c) => c.claim.claimId)).toEqual(['CH-1']);
    }
  });

  test('reads what real senders write: lower case, HIPPS rate codes, anesthesia minutes, lines wrapped at 80 columns', async () => {
    // Lower-case HI qualifiers, modifiers, DMG sex and POA (the diagnoses vanished; the others rejected the claim).
    const lower = claims(
      await readText(
        professional('CLM*LC-1*95***11:B:1*Y*A*Y*Y', 'HI*abk:E119*abf:I10', 'LX*1', 'SV1*HC:73502:rt*95*UN*1***1:2', 'DTP*472*D8*20260504').replace(
          'DMG*D8*19600115*F',
          'DMG*D8*19600115*f',
        ),
      ),
    );
    expect(lower[0]?.claim).toMatchObject({
      patient: { sex: 'F' },
      diagnoses: [{ code: 'E119' }, { code: 'I10' }],
      lines: [{ procedureCode: '73502', modifiers: ['RT'], diagnosisPointers: [1, 2] }],
    });
    // SV103 MJ: 45 anesthesia minutes are one service.
    const minutes = claims(
      await readText(professional('CLM*AN-1*900***11:B:1*Y*A*Y*Y', 'HI*ABK:I10', 'LX*1', 'SV1*HC:00810:AA*900*MJ*45***1', 'DTP*472*D8*20260504')),
    );
    expect(minutes[0]?.claim.lines[0]).toMatchObject({ procedureCode: '00810', units: 1 });
    // SV202 HP is a HIPPS rate code (SNF, home health, IRF): no procedure code to check, a revenue-only line (it was
    // read as procedure KAQD1 and the claim got a CODE_WRONG_SET error).
    const inst = readFileSync(fixture('institutional.837'), 'latin1').replace('SV2*0300*HC:83036*60*UN*1', 'SV2*0022*HP:KAQD1*60*UN*1');
    const instClaims = claims(await readText(inst));
    const codes = instClaims.flatMap((c) => c.claim.lines.map((l) => l.procedureCode));
    expect(codes).not.toContain('KAQD1');
    expect(codes).toContain('J1885');
    // Counted as revenue-only lines (claims.csv's serviceLines adds them): room and board (SV2*0120, no SV202) and
    // the HIPPS line; the J1885 line is the model's.
    expect(instClaims.map((c) => [c.inputLines, c.revenueOnlyLines, c.claim.lines.filter((l) => l.revenueCode !== undefined).length])).toEqual([[3, 2, 1]]);
    // A file wrapped at 80 columns (line breaks inside segments) reads as the unwrapped file.
    const text = oneClaim();
    const flat = text.replace(/\n/g, '');
    const wrapped = (flat.match(/.{1,80}/g) ?? []).join('\r\n');
    expect(await readText(wrapped)).toEqual(await readText(text));
  });

  test('an 837I claim without diagnoses whose lines are all revenue-only is rejected: nothing to check', async () => {
    const inst = readFileText(fixture('institutional.837'))
      .replace(/HI\*[^~]*~\s*/g, '')
      .replace(/SV2\*(\d{4})\*HC:[^*]*\*/g, 'SV2*$1**');
    const items = await readText(inst);
    expect(claims(items)).toEqual([]);
    expect(rejected(items)[0]?.records[0]?.reason).toMatch(/the claim has no diagnosis and no line with a procedure code \(only revenue-only lines\): nothing to check/);
  });

  test('every claim yielded passes the Claim schema', async () => {
    for (const name of ['professional.837', 'institutional.837', 'messy.837', 'rejects.837', 'envelope.837']) {
      for (const item of claims(await readFile(fixture(name)))) {
        expect(Claim.safeParse(item.claim).success).toBe(true);
      }
    }
  });

  test('rejects an SV2 line in an 837P transaction', async () => {
    const items = await readText(
      professional('CLM*X-1*95***11:B:1*Y*A*Y*Y', 'HI*ABK:I10', 'LX*1', 'SV2*0300*HC:80053*38*UN*1'),
    );
    expect(rejected(items)[0]?.records[0]?.reason).toMatch(/SV2 in a professional \(837P\) transaction; SV1 expected/);
  });

  test('rejects a claim with no date of service anywhere', async () => {
    const items = await readText(
      professional('CLM*X-2*95***11:B:1*Y*A*Y*Y', 'HI*ABK:I10', 'LX*1', 'SV1*HC:99213*95*UN*1'),
    );
    expect(rejected(items)[0]?.records[0]?.reason).toMatch(/no date of service/);
  });
});

/** A professional file of one clean claim (cut at some point by the truncation tests). */
const oneClaim = (): string =>
  professional('CLM*T-1*95***11:B:1*Y*A*Y*Y', 'HI*ABK:I10', 'LX*1', 'SV1*HC:99213*95*UN*1', 'DTP*472*D8*20260504');

describe('readX12Claims: envelope faults', () => {
  test('claims after a damaged or missing ST are rejected whole with their CLM segment, never dropped', async () => {
    // Two transactions; the first one's ST is gone (its SE stays), so its two claims stand after no ST.
    const first = professional(
      'CLM*S-1*95***11:B:1*Y*A*Y*Y', 'HI*ABK:I10', 'LX*1', 'SV1*HC:99213*95*UN*1', 'LX*2', 'SV1*HC:83036*20*UN*1',
      'HL*3*1*22*0', 'SBR*P*18*******MB', 'NM1*IL*1*BETA*BOB****MI*MBR0002',
      'CLM*S-2*95***11:B:1*Y*A*Y*Y', 'HI*ABK:I10', 'LX*1', 'SV1*HC:99213*95*UN*1',
    ).replace('ST*837*0001*005010X222A1~\n', '');
    const second = professional('CLM*S-3*95***11:B:1*Y*A*Y*Y', 'HI*ABK:I10', 'LX*1', 'SV1*HC:99213*95*UN*1', 'DTP*472*D8*20260504');
    const items = await readText(first + second);
    expect(items.map((i) => (i.kind === 'claim' ? i.claim.claimId : `rejected ${i.claimId ?? '-'}`))).toEqual([
      'rejected -',
      'rejected S-1',
      'rejected S-2',
      'rejected -',
      'S-3',
    ]);
    const [stretch, s1, s2, ge] = rejected(items);
    expect(stretch?.structural).toBe(true);
    expect(stretch?.records[0]?.reason).toBe('segment BHT outside a transaction set (no ST before it): its claims are rejected up to the next SE or ST');
    // Every service line is a record of its claim: the input lines stay accounted for.
    expect(s1?.records).toHaveLength(2);
    expect(s2?.records).toHaveLength(1);
    expect(s1?.records[0]?.reason).toMatch(/^claim rejected whole: segment \d+: the claim is outside a transaction set: no ST before it \(a damaged or missing ST\)( \(and \d+ more problems?\))?$/);
    // The group's count says a transaction set is missing; the stretch's SE (counted from no ST) says nothing more.
    expect(ge?.records[0]?.reason).toBe('GE01 says 1 transaction sets, functional group 1 (GS at segment 2) has 0');
  });

  test('reports wrong SE, GE and IEA counts and a truncated interchange, after every complete claim', async () => {
    const items = await readFile(fixture('envelope.837'));
    expect(items.map((i) => (i.kind === 'claim' ? i.claim.claimId : `rejected ${i.claimId ?? '-'}`))).toEqual([
      'E-1',
      'rejected -',
      'E-2',
      'rejected -',
      'rejected -',
      'E-3',
      'rejected E-4',
      'rejected -',
    ]);
    const [se, ge, iea, truncated, cut] = rejected(items).map((r) => r.records);
    expect(se).toEqual([
      { file: 'in.837', line: 26, reason: 'SE01 says 99 segments, transaction set 0001 (ST at segment 3) has 24' },
    ]);
    expect(ge?.[0]?.reason).toBe('GE01 says 3 transaction sets, functional group 601 (GS at segment 2) has 2');
    expect(iea?.[0]?.reason).toBe('IEA01 says 2 functional groups, interchange 000000601 (ISA at segment 1) has 1');
    // The count faults are of the file's structure, not claims; the truncated claim is a claim, and the truncation
    // is a fault of the file's structure too (it was the claim's reason only: no file-structure problem said it).
    expect(rejected(items).map((r) => r.structural === true)).toEqual([true, true, true, false, true]);
    expect(truncated).toHaveLength(1);
    expect(truncated?.[0]?.reason).toMatch(
      /^claim rejected whole: segment \d+: the file ends inside transaction set 0003 \(ST at segment \d+\) before its SE: truncated; the claim may be incomplete \(and 1 more problem\)$/,
    );
    expect(cut?.[0]?.reason).toMatch(/^the file ends inside transaction set 0003 \(ST at segment \d+\) before its SE: truncated$/);
  });

  test('bytes that fail part way (a gzip cut short): the claim being read is rejected as cut short, then the fault thrown', async () => {
    const text = readFileText(fixture('professional.837'));
    // Cut after the second claim's CLM and HI: the first claim is whole, the second has no end.
    const cutAt = text.indexOf('LX*', text.indexOf('CLM*P-2'));
    async function* failing(): AsyncGenerator<Buffer> {
      await Promise.resolve();
      yield Buffer.from(text.slice(0, cutAt), 'latin1');
      throw new Error('unexpected end of file');
    }
    const got: ReadItem[] = [];
    await expect(
      (async () => {
        for await (const item of readX12Claims(failing(), 'in.837.gz')) {
          got.push(item);
        }
      })(),
    ).rejects.toThrow(/unexpected end of file/);
    expect(got.map((i) => (i.kind === 'claim' ? i.claim.claimId : `rejected ${i.claimId ?? '-'}`))).toEqual(['P-1', 'rejected P-2', 'rejected -']);
    expect(rejected(got)[0]?.records[0]?.reason).toMatch(/before its SE: the file cannot be read past segment \d+: it may be cut short; the claim may be incomplete/);
  });

  test('a claim cut short inside a service line says the file is truncated, beside the line\'s own problem', async () => {
    const text = oneClaim();
    const items = await readText(text.slice(0, text.indexOf('SV1*')));
    const [cut] = rejected(items);
    expect(cut?.records).toHaveLength(1);
    // The claim is named by its CLM segment, as a claim read whole is; its record by its service line.
    const segments = text.split('~').map((seg) => seg.trim()).filter((seg) => seg !== '');
    const clm = segments.findIndex((seg) => seg.startsWith('CLM*')) + 1;
    expect(cut?.line).toBe(clm);
    expect(cut?.records[0]?.line).toBeGreaterThan(clm);
    expect(cut?.records[0]?.reason).toMatch(
      /^segment \d+: service line 1 has no SV1 or SV2 segment; and the claim's: segment \d+: the file ends inside transaction set .* truncated/,
    );
  });

  test('reports a file that ends between transactions, without a GE and IEA', async () => {
    const text = oneClaim();
    const items = await readText(text.slice(0, text.indexOf('GE*')));
    expect(items.map((i) => i.kind)).toEqual(['claim', 'rejected']);
    expect(rejected(items)[0]?.records[0]?.reason).toMatch(
      /ends inside functional group 1 .* before its GE: truncated/,
    );
  });

  test('a file whose segments end with another character than the ISA declares says so, not only "truncated"', async () => {
    const text = oneClaim();
    const isaEnd = text.indexOf('\n') + 1;
    // The ISA ends with '~', every segment after it with '!' and a line break.
    const items = await readText(`${text.slice(0, isaEnd)}${text.slice(isaEnd).replaceAll('~', '!')}`);
    expect(items.map((i) => i.kind)).toEqual(['rejected']);
    expect(rejected(items)[0]?.records[0]?.reason).toMatch(
      /^the file ends inside functional group 1 \(GS at segment 2\) before its GE: truncated, or segment 2 runs to the end of the file \(\d+ lines\): its lines end with '!', not the '~' the ISA declares as the segment terminator$/,
    );
    // A file cut short (no line breaks in its last segment) is only truncated.
    const cut = await readText(text.slice(0, text.indexOf('DTP*472') + 5));
    expect(rejected(cut).map((r) => [r.structural === true, r.records[0]?.reason.replace(/.*(before its SE: truncated.*)/, '$1')])).toEqual([
      [false, 'before its SE: truncated; the claim may be incomplete (and 1 more problem)'],
      [true, 'before its SE: truncated'],
    ]);
  });

  test('skips a transaction set that is not an 837, with one rejected record', async () => {
    const text = professional(
      'CLM*T-2*95***11:B:1*Y*A*Y*Y',
      'HI*ABK:I10',
      'LX*1',
      'SV1*HC:99213*95*UN*1',
      'DTP*472*D8*20260504',
    );
    const items = await readText(text.replace('ST*837*0001', 'ST*835*0001'));
    expect(items).toHaveLength(1);
    expect(rejected(items)[0]?.records[0]).toMatchObject({
      line: 3,
      reason: 'transaction set 835 is not an 837 claim: skipped up to its SE',
    });
  });
});

describe('readX12Claims: input that is not X12 text', () => {
  test.each([
    ['UTF-16 with a BOM', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(ISA, 'utf16le')])],
    ['UTF-16 without a BOM', Buffer.from(ISA, 'utf16le').swap16()],
    ['binary data', Buffer.from([0x49, 0x53, 0x41, 0x2a, 0x00, 0x01, 0x02])],
    ['a CSV file', Buffer.from('claimId,lineNumber,procedureCode\nC1,1,99213\n')],
  ])('throws ScrubberError INPUT_FORMAT for %s', async (_name, bytes) => {
    async function* source(): AsyncGenerator<Buffer> {
      yield bytes;
    }
    const err = await (async () => {
      for await (const item of readX12Claims(source(), 'in.837')) {
        expect(item).toBeUndefined();
      }
    })().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ScrubberError);
    expect((err as ScrubberError).code).toBe('INPUT_FORMAT');
  });
});

describe('readX12Claims: a NUL byte part way', () => {
  test('the claims before it are read and the claim it falls in is rejected, then INPUT_FORMAT is thrown', async () => {
    const text = readFileText(fixture('professional.837'));
    // In the second claim, past its CLM: the claim is open when the NUL comes.
    const at = text.indexOf('LX*', text.indexOf('CLM*P-2')) + 2;
    const bytes = Buffer.concat([Buffer.from(text.slice(0, at), 'latin1'), Buffer.from([0]), Buffer.from(text.slice(at + 1), 'latin1')]);
    // One chunk holding the whole file: the claims before the NUL in it are still read.
    async function* source(): AsyncGenerator<Buffer> {
      yield bytes;
    }
    const got: ReadItem[] = [];
    const err = await (async () => {
      for await (const item of readX12Claims(source(), 'in.837')) {
        got.push(item);
      }
    })().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ScrubberError);
    expect((err as Error).message).toBe(`in.837: binary data, not X12 text (NUL byte at offset ${String(at)})`);
    expect(got.map((i) => (i.kind === 'claim' ? i.claim.claimId : `rejected ${i.claimId ?? '-'}`))).toEqual(['P-1', 'rejected P-2', 'rejected -']);
    expect(rejected(got)[0]?.records[0]?.reason).toMatch(
      /the file cannot be read past segment \d+: binary data, not X12 text \(NUL byte at offset \d+\); the claim may be incomplete/,
    );
  });
});

describe('readX12Claims: streaming', () => {
  test('yields 50,000 claims one at a time, well before the input ends', async () => {
    const total = 50_000;
    let produced = 0;
    let producedAtFirstClaim = -1;
    async function* source(): AsyncGenerator<Buffer> {
      const head = `${ISA}\nGS*HC*S*R*20260510*1200*1*X*005010X222A1~\nST*837*0001*005010X222A1~\nHL*1**20*1~\nNM1*85*2*CLINIC*****XX*1234567893~\nN4*RICHMOND*VA*23219~\n`;
      produced += head.length;
      yield Buffer.from(head, 'latin1');
      let segments = 4;
      for (let i = 0; i < total; i++) {
        const claim =
          `HL*${i + 2}*1*22*0~\nSBR*P*18*******MB~\nNM1*IL*1*DOE*JANE****MI*M${i}~\nDMG*D8*19520314*F~\n` +
          `CLM*C${i}*95***11:B:1*Y*A*Y*Y~\nHI*ABK:I10~\nLX*1~\nSV1*HC:99213*95*UN*1***1~\nDTP*472*D8*20260504~\n`;
        segments += 9;
        produced += claim.length;
        yield Buffer.from(claim, 'latin1');
      }
      yield Buffer.from(`SE*${segments + 1}*0001~\nGE*1*1~\nIEA*1*000000001~\n`, 'latin1');
    }
    let count = 0;
    let faults = 0;
    for await (const item of readX12Claims(source(), 'big.837')) {
      if (item.kind === 'claim') {
        if (count === 0) {
          producedAtFirstClaim = produced;
        }
        count++;
      } else {
        faults++;
      }
    }
    expect(count).toBe(total);
    expect(faults).toBe(0);
    expect(producedAtFirstClaim).toBeGreaterThan(0);
    expect(producedAtFirstClaim).toBeLessThan(produced / 1000);
  });
});

describe('samples', () => {
  test('claims-837p.txt: four claims and the claim with an impossible date rejected', async () => {
    const items = await readFile(sample('claims-837p.txt'), 64 * 1024);
    expect(claims(items).map((c) => c.claim.claimId)).toEqual(['PCN1001', 'PCN1002', 'PCN1003', 'PCN1004']);
    expect(rejected(items).map((r) => [r.claimId, r.records.length])).toEqual([['PCN1005', 1]]);
  });

  test('claims-837i.txt: four claims and the claim without a CLM01 rejected', async () => {
    const items = await readFile(sample('claims-837i.txt'), 64 * 1024);
    expect(claims(items).map((c) => c.claim.claimId)).toEqual(['PCN2001', 'PCN2002', 'PCN2003', 'PCN2004']);
    expect(rejected(items).map((r) => [r.claimId, r.records.length])).toEqual([[undefined, 1]]);
  });
});
