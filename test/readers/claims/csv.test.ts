import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readCsvClaims } from '../../../src/readers/claims/csv.js';
import type { ReadClaim, ReadItem, ReadRejected } from '../../../src/readers/claims/types.js';
import { CLAIM_CSV_COLUMNS } from '../../../src/schemas/claim-csv.js';

const HEADER =
  'claimId,lineNumber,patientId,patientBirthDate,patientSex,claimType,providerType,billingProviderState,billingProviderZip,' +
  'contractorNumber,payerCode,dateOfServiceFrom,dateOfServiceTo,placeOfService,procedureCode,modifiers,units,' +
  'diagnosisCodes,diagnosisPointers,poaIndicators,revenueCode,icdType';

async function read(text: string | Buffer): Promise<ReadItem[]> {
  const out: ReadItem[] = [];
  for await (const item of readCsvClaims(Readable.from([Buffer.from(text)]), 'in.csv')) {
    out.push(item);
  }
  return out;
}
const claims = (items: ReadItem[]): ReadClaim[] => items.filter((i): i is ReadClaim => i.kind === 'claim');
const rejected = (items: ReadItem[]): ReadRejected[] => items.filter((i): i is ReadRejected => i.kind === 'rejected');

describe('readCsvClaims', () => {
  it('the documented header is the contract schema, column for column', () => {
    // The rows below leave out the newest optional column, billType (an absent optional column is allowed).
    expect([...HEADER.split(','), 'billType']).toEqual(CLAIM_CSV_COLUMNS);
  });

  it('trims cells and list items as String#trim does (spaces, tabs, no-break spaces), and orders lines by number', async () => {
    const items = await read(
      `${HEADER}\n` +
        'T1, 3 ,P1,,,professional,,,,,,2026-05-04,,,\t99213\u00a0, 25 | 59 ,1, E11.9 |\u00a0I10 ,1| 2,,,\n' +
        'T1,1,P1,,,professional,,,,,,2026-05-04,,,36415,,1,E11.9 |\u00a0I10,2,,,\n',
    );
    expect(rejected(items)).toEqual([]);
    const claim = claims(items)[0]?.claim;
    expect(claim?.diagnoses.map((d) => d.code)).toEqual(['E11.9', 'I10']);
    expect(claim?.lines.map((l) => [l.lineNumber, l.procedureCode, l.modifiers, l.diagnosisPointers])).toEqual([
      [1, '36415', [], [2]],
      [3, '99213', ['25', '59'], [1, 2]],
    ]);
  });

  it('reads a claim whose line number repeats: the engine reports it (CLAIM_DUPLICATE_LINE), as for NDJSON and 837', async () => {
    const items = await read(
      `${HEADER}\n` +
        'D1,1,P1,,,professional,,,,,,2026-05-04,,,99213,,1,E11.9,,,,\n' +
        'D1,1,P1,,,professional,,,,,,2026-05-04,,,36415,,1,E11.9,,,,\n',
    );
    expect(rejected(items)).toEqual([]);
    expect(claims(items)[0]?.claim.lines.map((l) => [l.lineNumber, l.procedureCode])).toEqual([
      [1, '99213'],
      [1, '36415'],
    ]);
  });

  it('groups adjacent rows of a claim id into one claim with claim-level fields from any row', async () => {
    const items = await read(
      `${HEADER}\n` +
        'A1,1,P1,1958-03-14,f,professional,physician,va,22030-1234,,MCR,2026-05-04,,11,99213,25|GT,1,E11.9|I10,1|2,,,ICD-10 CM\n' +
        'A1,2,,,,professional,,,,,,2026-05-05,2026-05-06,11,83036,,2,,1,,,\n' +
        'B2,,,,,dme,,,,,,2026-05-04,,,E0601,,1,G47.33,,,,\n',
    );
    const [a, b] = claims(items);
    expect(rejected(items)).toEqual([]);
    expect(a).toMatchObject({ file: 'in.csv', line: 2, inputLines: 2 });
    expect(a?.claim).toEqual({
      claimId: 'A1',
      claimType: 'professional',
      patient: { id: 'P1', birthDate: '1958-03-14', sex: 'F' },
      provider: { type: 'Physician', state: 'VA', zip: '22030-1234' },
      payerCode: 'MCR',
      dateOfServiceFrom: '2026-05-04',
      dateOfServiceTo: '2026-05-06',
      icdType: 'ICD-10 CM',
      diagnoses: [{ code: 'E11.9' }, { code: 'I10' }],
      lines: [
        { lineNumber: 1, procedureCode: '99213', modifiers: ['25', 'GT'], units: 1, dateOfService: '2026-05-04', diagnosisPointers: [1, 2], placeOfService: '11' },
        { lineNumber: 2, procedureCode: '83036', modifiers: [], units: 2, dateOfService: '2026-05-05', diagnosisPointers: [1], placeOfService: '11' },
      ],
    });
    expect(b?.claim).toMatchObject({ claimId: 'B2', claimType: 'dme', lines: [{ lineNumber: 1, units: 1 }] });
  });

  it('matches column names case-insensitively, ignores unknown columns, accepts a BOM and CRLF, and lets optional columns be absent', async () => {
    const text = '\uFEFFCLAIMID,Extra,ClaimType,DateOfServiceFrom,PROCEDURECODE,DiagnosisCodes\r\nX9,zzz,professional,2026-05-04,99213,I10\r\n';
    const [x] = claims(await read(text));
    expect(x?.claim).toMatchObject({ claimId: 'X9', diagnoses: [{ code: 'I10' }], lines: [{ procedureCode: '99213' }] });
  });

  it('refuses a file whose header lacks a required column, naming it', async () => {
    await expect(read('claimId,claimType,procedureCode\nA,professional,99213\n')).rejects.toThrow(/dateOfServiceFrom/);
  });

  it('rejects a claim whole when one of its rows is bad, listing every row with the reason', async () => {
    const items = await read(
      `${HEADER}\n` +
        'A1,1,,,,professional,,,,,,2026-05-04,,11,99213,,1,I10,,,,\n' +
        'A1,2,,,,professional,,,,,,2026-02-30,,11,93000,,1,I10,,,,\n' +
        'B2,1,,,,professional,,,,,,2026-05-04,,11,99213,,1,I10,,,,\n',
    );
    const [bad] = rejected(items);
    expect(bad?.claimId).toBe('A1');
    expect(bad?.records.map((r) => r.line)).toEqual([2, 3]);
    expect(bad?.records[1]?.reason).toMatch(/dateOfServiceFrom: "2026-02-30" is not a YYYY-MM-DD date/);
    expect(bad?.records[0]?.reason).toMatch(/claim rejected whole: line 3/);
    expect(claims(items).map((c) => c.claim.claimId)).toEqual(['B2']);
  });

  it('names every faulty row of a rejected claim with its own fault, not only the first', async () => {
    const items = await read(
      `${HEADER}\n` +
        'A1,1,,,F,professional,,,,,,2026-05-04,,11,99213,,1,I10,,,,\n' +
        'A1,2,,,M,professional,,,,,,2026-05-04,,11,93000,,1,I10,,,,\n' +
        'A1,3,,,,professional,,,,,,2026-05-04,,11,36415,,q,I10,,,,\n' +
        'A1,4,,,,professional,,,,,,2026-05-04,,11,36415,,1,I10,,,,\n' +
        'A1,5,,,,professional,,,,,,2026-05-04,2026-05-01,11,36415,,1,I10,,,,\n',
    );
    expect(rejected(items)[0]?.records.map((r) => `${String(r.line)} ${r.reason}`)).toEqual([
      '2 claim rejected whole: line 3: patientSex differs from the value on an earlier row of the claim',
      '3 patientSex differs from the value on an earlier row of the claim',
      '4 units: "q" is not a positive decimal number of at most 15 characters',
      '5 claim rejected whole: line 3: patientSex differs from the value on an earlier row of the claim',
      '6 dateOfServiceTo: "2026-05-01" is not a YYYY-MM-DD date on or after dateOfServiceFrom',
    ]);
  });

  it.each([
    ['units', 'abc', /units: "abc" is not a positive decimal number/],
    ['units', '0x10', /units: "0x10" is not a positive decimal number/],
    ['units', '1e3', /units: "1e3" is not a positive decimal number/],
    ['units', '-2', /units: "-2" is not a positive decimal number/],
    ['units', '99999999999999999999', /units: "99999999999999999999" is not a positive decimal number of at most 15/],
    ['lineNumber', '0x2', /lineNumber: "0x2" is not a positive whole number/],
    ['lineNumber', '1e0', /lineNumber: "1e0" is not a positive whole number/],
    ['lineNumber', '1234567', /lineNumber: "1234567" is not a positive whole number/],
    ['modifiers', '25|GT|59|XU|76', /modifiers/],
    ['diagnosisPointers', '0', /diagnosisPointers: "0" is not up to 12 diagnosis positions/],
    ['diagnosisPointers', '1e0', /diagnosisPointers: "1e0" is not up to 12 diagnosis positions/],
    ['diagnosisPointers', '1|2|3|4|5|6|7|8|9|10|11|12|1', /is not up to 12 diagnosis positions/],
    ['claimType', 'dental', /claimType: "dental"/],
    ['patientSex', 'X', /patientSex/],
    ['placeOfService', '1', /placeOfService/],
  ] as const)('rejects a bad %s cell (%s)', async (column, value, reason) => {
    const cells: Record<string, string> = {
      claimId: 'A1', claimType: 'professional', dateOfServiceFrom: '2026-05-04', procedureCode: '99213', diagnosisCodes: 'I10', units: '1',
    };
    cells[column] = value;
    const cols = Object.keys(cells);
    const [bad] = rejected(await read(`${cols.join(',')}\n${cols.map((c) => cells[c]).join(',')}\n`));
    expect(bad?.records[0]?.reason).toMatch(reason);
  });

  it('reads a pointer past the claim\'s diagnoses, for claim.structure to report (as an 837 SV107 or NDJSON claim is)', async () => {
    const items = await read('claimId,claimType,dateOfServiceFrom,procedureCode,diagnosisCodes,diagnosisPointers\nA1,professional,2026-05-04,99213,E11.9|I10,1|3\n');
    expect(rejected(items)).toEqual([]);
    expect(claims(items)[0]?.claim.lines[0]?.diagnosisPointers).toEqual([1, 3]);
  });

  it('keeps an unparseable row in its claim when its id cell can be read, so the claim is rejected whole', async () => {
    const items = await read(
      'claimId,claimType,dateOfServiceFrom,procedureCode\nC1,professional,2026-05-04,99213\nC1,"professional"x,2026-05-04,93000\nC1,professional,2026-05-04,36415\nC2,professional,2026-05-04,99213\n',
    );
    expect(rejected(items).map((r) => [r.claimId, r.records.map((x) => x.line)])).toEqual([['C1', [2, 3, 4]]]);
    expect(claims(items).map((c) => c.claim.claimId)).toEqual(['C2']);
    // The reason names the parser's error code; csv-parse's own message would quote the cell.
    expect(rejected(items)[0]?.records[1]?.reason).toBe('unreadable CSV row: CSV_INVALID_CLOSING_QUOTE (a misplaced quote?)');
  });

  it('keeps an unparseable row with its claim when the claim id is quoted and holds a comma', async () => {
    const items = await read(
      'claimId,claimType,dateOfServiceFrom,procedureCode\n"C,1",professional,2026-05-04,99213\n"C,1",professional,2026-05-04,"93000"x\n"C,1",professional,2026-05-04,36415\n"C2 ""B""",professional,"2026-05-04\n',
    );
    // The id is read whole (it was cut at its comma: the bad row became claim "C", and "C,1" was scrubbed without it).
    expect(rejected(items).map((r) => [r.claimId, r.records.map((x) => x.line)])).toEqual([
      ['C,1', [2, 3, 4]],
      // A row that ends inside quotes: the cells before that quote are read as CSV reads them.
      ['C2 "B"', [5]],
    ]);
    expect(claims(items)).toEqual([]);
  });

  it('reads the claim id of an unreadable row past quotes out of place in earlier cells', async () => {
    // Quotes inside unquoted cells before the id (the last column) are text, not quoted cells.
    const late = await read(
      'procedureCode,claimType,dateOfServiceFrom,diagnosisCodes,claimId\n99213,professional,2026-05-04,I10,C9\n8"3036,professional,2026-05-04,I1"0,C9\n99213,professional,2026-05-04,I10,C10\n',
    );
    expect(rejected(late).map((r) => [r.claimId, r.records.map((x) => x.line)])).toEqual([['C9', [2, 3]]]);
  });

  it('writes a NUL byte of a rejected row\'s claim id as U+FFFD: a report holding one is unreadable to many CSV readers', async () => {
    const items = await read(
      'claimId,claimType,dateOfServiceFrom,procedureCode\nC1\u00002,professional,2026-05-04,99213\nC1\u00002,professional,2026-05-04,36415\nC2,professional,2026-05-04,99213\n',
    );
    // Both rows stay one claim, rejected whole, its id without the NUL.
    expect(rejected(items).map((r) => [r.claimId, r.records.map((x) => x.line)])).toEqual([['C1\uFFFD2', [2, 3]]]);
    expect(claims(items).map((c) => c.claim.claimId)).toEqual(['C2']);
  });

  it('rejects rows of a claim that disagree on a claim-level field', async () => {
    const items = await read(
      `${HEADER}\nA1,1,P1,,,professional,,,,,,2026-05-04,,,99213,,1,I10,,,,\nA1,2,P2,,,professional,,,,,,2026-05-04,,,93000,,1,I10,,,,\n`,
    );
    // A patient column is named, never its values (rejected.csv is no place for patient data); others show both.
    expect(rejected(items)[0]?.records[1]?.reason).toBe('patientId differs from the value on an earlier row of the claim');
    const state = await read(
      `${HEADER}\nA1,1,,,,professional,,VA,,,,2026-05-04,,,99213,,1,I10,,,,\nA1,2,,,,professional,,MD,,,,2026-05-04,,,93000,,1,I10,,,,\n`,
    );
    expect(rejected(state)[0]?.records[1]?.reason).toMatch(/billingProviderState "MD" differs from "VA"/);
  });

  it('rejects a claim whose billingProviderState is two letters but no USPS state or territory code', async () => {
    const items = await read(
      `${HEADER}\nZ1,1,,,,professional,,ZZ,,,,2026-05-04,,,99213,,1,I10,,,,\nZ2,1,,,,professional,,pr,,,,2026-05-04,,,99213,,1,I10,,,,\n`,
    );
    expect(rejected(items).map((r) => [r.claimId, r.records[0]?.reason])).toEqual([['Z1', 'provider.state: not a USPS state or territory code']]);
    expect(claims(items).map((c) => [c.claim.claimId, c.claim.provider?.state])).toEqual([['Z2', 'PR']]);
  });

  it('reads billType as a UB-04 type of bill with or without its leading 0, and rejects a claim with a bad one', async () => {
    const items = await read(
      'claimId,claimType,dateOfServiceFrom,procedureCode,billType\n' +
        'I1,institutional,2026-05-04,99213,0131\n' +
        'I2,institutional,2026-05-04,99213,111\n' +
        'I3,institutional,2026-05-04,99213,\n' +
        'I4,institutional,2026-05-04,99213,1\n' +
        'I5,institutional,2026-05-04,99213,013\n' +
        'P6,professional,2026-05-04,99213,0131\n',
    );
    expect(claims(items).map((c) => [c.claim.claimId, c.claim.billType])).toEqual([
      ['I1', '131'],
      ['I2', '111'],
      ['I3', undefined],
      ['I5', '13'],
      // A type of bill describes an institutional claim only.
      ['P6', undefined],
    ]);
    expect(rejected(items)).toMatchObject([
      { claimId: 'I4', records: [{ line: 5, reason: expect.stringMatching(/billType: "1" is not a UB-04 type of bill such as 0111/) as unknown }] },
    ]);
  });

  it('reads an institutional row with a revenue code and no procedure code as a revenue-only line, as an 837I SV2 without HCPCS', async () => {
    const items = await read(
      'claimId,lineNumber,claimType,dateOfServiceFrom,procedureCode,revenueCode,diagnosisCodes\n' +
        'R1,1,institutional,2026-05-04,,0120,I21.4\n' +
        'R1,2,institutional,2026-05-06,02703DZ,0360,\n' +
        'R1,3,institutional,2026-05-07,,0250,\n' +
        'R2,1,institutional,2026-05-04,,0120,I21.4\n' +
        'R3,1,institutional,2026-05-04,,,I21.4\n' +
        'R4,1,professional,2026-05-04,,0120,I21.4\n' +
        'R5,1,institutional,2026-05-04,,12,I21.4\n' +
        // A claim's stray room-and-board row away from its others (or a claim without diagnoses): nothing to check.
        'R6,4,institutional,2026-05-07,,0120,\n',
    );
    // Room and board and pharmacy rows: counted as the claim's input lines, not lines the engine checks; the claim's
    // dates still run over them.
    expect(claims(items).map((c) => [c.claim.claimId, c.inputLines, c.claim.lines.map((l) => l.procedureCode), c.claim.dateOfServiceTo])).toEqual([
      ['R1', 3, ['02703DZ'], '2026-05-07'],
      ['R2', 1, [], undefined],
    ]);
    expect(rejected(items).map((r) => [r.claimId, r.records[0]?.reason])).toEqual([
      ['R3', 'procedureCode: blank, and the row has no revenueCode'],
      ['R4', 'procedureCode: blank'],
      ['R5', 'revenueCode: "12" is not a 4-digit revenue code'],
      [
        'R6',
        "the claim has no diagnosis and no line with a procedure code (only revenue-only lines): nothing to check; are the claim's rows adjacent (else give --group-by claimId)?",
      ],
    ]);
  });

  it('a row with too few fields rejects its claim; an unclosed quote is reported and the rows after it still read', async () => {
    const items = await read(
      'claimId,claimType,dateOfServiceFrom,procedureCode\n' +
        'A1,professional,2026-05-04\n' +
        'B2,professional,2026-05-04,99213\n' +
        'C3,"professional,2026-05-04,99213\n',
    );
    expect(rejected(items)[0]).toMatchObject({ claimId: 'A1', records: [{ line: 2, reason: expect.stringMatching(/3 fields/) as unknown }] });
    expect(claims(items).map((c) => c.claim.claimId)).toEqual(['B2']);
    const last = rejected(items).at(-1);
    expect(last?.records[0]).toMatchObject({ line: 4, reason: 'a quoted cell is not closed before the end of the file' });
    const covered = items.reduce((n, i) => n + (i.kind === 'claim' ? i.inputLines : i.records.length), 0);
    expect(covered).toBe(3);
  });

  it('a row with more fields than the header (an unquoted comma) or fewer, even in columns it does not use, rejects its claim', async () => {
    const items = await read(
      'claimId,lineNumber,claimType,dateOfServiceFrom,procedureCode,modifiers,note\n' +
        'A1,1,professional,2026-05-04,99213,25,59,\n' +
        'A1,2,professional,2026-05-04,93000,,\n' +
        'B2,1,professional,2026-05-04,99213,,\n' +
        'C3,1,professional,2026-05-04,99213,\n' +
        'D4,1,professional,2026-05-04,99213,,"a, b"\n',
    );
    expect(claims(items).map((c) => c.claim.claimId)).toEqual(['B2', 'D4']);
    expect(rejected(items).map((r) => r.claimId)).toEqual(['A1', 'C3']);
    // The whole claim is rejected, every row listed; the reason is on the row at fault.
    expect(rejected(items)[0]?.records.map((r) => r.line)).toEqual([2, 3]);
    expect(rejected(items)[0]?.records[0]?.reason).toBe('the row has 8 fields; the header has 7 (a comma in a cell that is not quoted?)');
    expect(rejected(items)[1]?.records[0]?.reason).toBe('the row has 6 fields; the header has 7');
  });
});
