// The 837 scanner of the 277CA (src/readers/claims/x12-ack.ts): the envelope and header parties, each claim's
// billing provider, patient, charge and service dates, on a hand-made 837P and on the repository's fixtures, whose
// claims it must name by the same CLM segment numbers as the claim reader (the 277CA joins claims.csv on them).
import { createReadStream } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { readX12AckItems } from '../../../src/readers/claims/x12-ack.js';
import { readX12Claims } from '../../../src/readers/claims/x12.js';
import type { X12AckClaim, X12AckItem } from '../../../src/schemas/x12-ack.js';

const fixture = (name: string): string => new URL(`../../fixtures/claims/${name}`, import.meta.url).pathname;
const sample = (name: string): string => new URL(`../../../samples/claims/${name}`, import.meta.url).pathname;

async function itemsOf(source: AsyncIterable<Buffer>): Promise<X12AckItem[]> {
  const items: X12AckItem[] = [];
  for await (const item of readX12AckItems(source, 'in.837')) {
    items.push(item);
  }
  return items;
}

async function* bytes(text: string, chunk = 37): AsyncGenerator<Buffer> {
  const all = Buffer.from(text, 'utf8');
  for (let i = 0; i < all.length; i += chunk) {
    yield all.subarray(i, i + chunk);
  }
}

const claimsOf = (items: X12AckItem[]): X12AckClaim[] => items.flatMap((i) => (i.kind === 'claim' ? [i.claim] : []));

const ISA = 'ISA*00*          *00*          *ZZ*BILLER01       *30*PAYER01        *260510*1200*^*00501*000000001*0*T*:~';

/** Two billing providers; the second claim's patient is a dependent; the third provider has only a tax id. */
const TEXT = [
  ISA,
  'GS*HC*BILLAPP*PAYAPP*20260510*1200*1*X*005010X222A1~',
  'ST*837*0001*005010X222A1~',
  'BHT*0019*00*BATCH9*20260510*1200*CH~',
  'NM1*41*2*BEST BILLING*****46*S00001~',
  'PER*IC*DESK*TE*5555550100~',
  'NM1*40*2*ACME PAYER*****46*P0001~',
  'HL*1**20*1~',
  'NM1*85*2*FAIRVIEW CLINIC*****XX*1234567893~',
  'N4*ALEXANDRIA*VA*22314~',
  'HL*2*1*22*0~',
  'NM1*IL*1*MÜLLER*ANN****MI*MBR0001~',
  'CLM*PCN1*125.50***11:B:1*Y*A*Y*Y~',
  'NM1*82*1*RENDERING*RITA****XX*1111111112~',
  'LX*1~',
  'SV1*HC:99213*80*UN*1***1~',
  'DTP*472*D8*20260104~',
  'LX*2~',
  'NM1*85*2*NOT A BILLING PROVIDER*****XX*9999999999~',
  'SV1*HC:36415*45.5*UN*1***1~',
  'DTP*472*RD8*20260102-20260103~',
  'HL*3*1*22*1~',
  'NM1*IL*1*HOLDER*HAL****MI*MBR0002~',
  'HL*4*3*23*0~',
  'NM1*QC*1*CHILD*CAL~',
  'CLM*PCN2*12A***11:B:1*Y*A*Y*Y~',
  'LX*1~',
  'SV1*HC:99213*80*UN*1***1~',
  'DTP*472*D8*20261345~',
  'HL*5**20*1~',
  'NM1*85*2*ATYPICAL TRANSPORT~',
  'REF*EI*123456789~',
  'HL*6*5*22*0~',
  'NM1*IL*1*LONE*LEE****MI*MBR0003~',
  'CLM*PCN3*40***11:B:1*Y*A*Y*Y~',
  'DTP*434*RD8*20260201-20260205~',
  'LX*1~',
  'SV1*HC:A0428*40*UN*1***1~',
  'DTP*472*D8*20260203~',
  'SE*39*0001~',
  'GE*1*1~',
  'IEA*1*000000001~',
].join('\n');

describe('readX12AckItems', () => {
  test("gives the first interchange's envelope, then each claim with its provider, patient, charge and dates", async () => {
    const items = await itemsOf(bytes(TEXT));
    expect(items[0]).toEqual({
      kind: 'envelope',
      envelope: {
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
        delimiters: { element: '*', repetition: '^', component: ':', segment: '~' },
      },
    });
    const clinic = { entity: '2', name: 'FAIRVIEW CLINIC', qualifier: 'XX', id: '1234567893' };
    expect(claimsOf(items)).toEqual([
      {
        segNo: 13,
        claimId: 'PCN1',
        sender: 'BILLER01\tS00001',
        totalCharge: 125.5,
        // The lines' dates, first to last; an NM1*85 inside the claim is no billing provider.
        serviceDate: '20260102-20260104',
        billingProvider: clinic,
        patient: { entity: '1', name: 'MÜLLER', firstName: 'ANN', qualifier: 'MI', id: 'MBR0001' },
      },
      {
        segNo: 26,
        claimId: 'PCN2',
        sender: 'BILLER01\tS00001',
        // CLM02 that is no amount, and a date that is no date, are left out.
        billingProvider: clinic,
        patient: { entity: '1', name: 'CHILD', firstName: 'CAL', qualifier: 'MI', id: 'MBR0002' },
      },
      {
        segNo: 35,
        claimId: 'PCN3',
        sender: 'BILLER01\tS00001',
        totalCharge: 40,
        serviceDate: '20260201-20260205',
        billingProvider: { entity: '2', name: 'ATYPICAL TRANSPORT', qualifier: 'FI', id: '123456789' },
        patient: { entity: '1', name: 'LONE', firstName: 'LEE', qualifier: 'MI', id: 'MBR0003' },
      },
    ]);
  });

  test.each([
    ['professional.837', fixture('professional.837')],
    ['institutional.837', fixture('institutional.837')],
    ['messy.837', fixture('messy.837')],
    ['rejects.837', fixture('rejects.837')],
    ['envelope.837', fixture('envelope.837')],
    ['the 837P sample', sample('claims-837p.txt')],
    ['the 837I sample', sample('claims-837i.txt')],
  ])('names the claims of %s by the segment numbers and ids the claim reader gives them', async (_name, path) => {
    const read: { line: number; claimId: string }[] = [];
    for await (const item of readX12Claims(createReadStream(path), 'in.837')) {
      if (item.kind === 'claim') {
        read.push({ line: item.line, claimId: item.claim.claimId });
      } else if (item.structural !== true) {
        read.push({ line: item.line ?? item.records[0]?.line ?? 0, claimId: item.claimId ?? '' });
      }
    }
    expect(read.length).toBeGreaterThan(0);
    const scanned = claimsOf(await itemsOf(createReadStream(path, { highWaterMark: 53 })));
    expect(scanned.map((c) => ({ line: c.segNo, claimId: c.claimId }))).toEqual(read);
  });

  test('gives no claim the patient of another: an unknown HL level, an HL 23 without its NM1*QC', async () => {
    const text = TEXT.replace('HL*3*1*22*1~', 'HL*3*1*2Z*1~')
      .replace('NM1*IL*1*HOLDER*HAL****MI*MBR0002~\n', '')
      .replace('NM1*QC*1*CHILD*CAL~\n', '');
    const [, second] = claimsOf(await itemsOf(bytes(text)));
    expect(second?.claimId).toBe('PCN2');
    // Nothing of ALPHA/MÜLLER (the previous claim's): a patient without a name, and no member id.
    expect(second?.patient).toEqual({ entity: '1', name: '', qualifier: 'MI', id: '' });
  });

  test("takes a tax id only from the billing provider's REF*EI, and a charge only when it is an amount", async () => {
    const text = TEXT.replace('REF*EI*123456789~', 'NM1*87*2~\nREF*EI*999999999~').replace('CLM*PCN3*40*', 'CLM*PCN3*9999999999999.9999999999*');
    const third = claimsOf(await itemsOf(bytes(text)))[2];
    expect(third?.billingProvider).toEqual({ entity: '2', name: 'ATYPICAL TRANSPORT', qualifier: '', id: '' });
    expect(third?.totalCharge).toBeUndefined();
  });

  test("gives an institutional claim's bill type (CLM05 with A) and a claim's clearinghouse trace (2300 REF*D9)", async () => {
    const text = TEXT.replace('CLM*PCN1*125.50***11:B:1*Y*A*Y*Y~', 'CLM*PCN1*125.50***13>A>1*Y*A*Y*Y~\nREF*D9*TRACE-77~')
      // A line's REF*D9 (after LX) is not the claim's; a CLM05 that reads as no bill type gives none.
      .replace('SV1*HC:36415*45.5*UN*1***1~', 'SV1*HC:36415*45.5*UN*1***1~\nREF*D9*LINE-REF~')
      .replace('CLM*PCN3*40***11:B:1*Y*A*Y*Y~', 'CLM*PCN3*40***131:A:1*Y*A*Y*Y~\nLX*0~\nREF*D9*LATE~');
    const [first, second, third] = claimsOf(await itemsOf(bytes(text)));
    expect([first?.billType, first?.clearinghouseTrace]).toEqual(['131', 'TRACE-77']);
    expect(second).not.toHaveProperty('billType');
    expect(second).not.toHaveProperty('clearinghouseTrace');
    expect(third).not.toHaveProperty('billType');
    expect(third).not.toHaveProperty('clearinghouseTrace');
  });

  test('names the sender of each claim: a second interchange or submitter is another', async () => {
    const body = TEXT.split('\n').slice(1, -1);
    const second = body
      .join('\n')
      .replace('GS*HC*BILLAPP', 'GS*HC*OTHERAPP')
      .replace('NM1*41*2*BEST BILLING*****46*S00001', 'NM1*41*2*OTHER BILLING*****46*S00009');
    const isa2 = ISA.replace('BILLER01       ', 'BILLER02       ').replace('*:~', '*>~');
    const text = [TEXT, isa2, second.replace(/:/g, '>'), 'IEA*1*000000001~'].join('\n');
    const items = await itemsOf(bytes(text));
    const envelopes = items.filter((i) => i.kind === 'envelope');
    expect(envelopes).toHaveLength(1);
    expect(claimsOf(items).map((c) => c.sender)).toEqual([
      ...Array<string>(3).fill('BILLER01\tS00001'),
      ...Array<string>(3).fill('BILLER02\tS00009'),
    ]);
  });

  test('refuses bytes that are no X12, as the claim reader does', async () => {
    await expect(itemsOf(bytes('claimId,lineNumber\nC1,1\n'))).rejects.toThrow(/in\.837/);
  });
});
