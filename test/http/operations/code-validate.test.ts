// CodeValidate over a real server (auth on, signed calls) backed by the shared full reference database. Codes and
// their expected answers are read from the official files loaded there: 83036 is under lab NCD 190.21B, which
// covers E11.9 (resolution 1) and denies Z00.00 (resolution 2); S30.1XXA was deleted from ICD-10-CM after
// FY2025 (last valid 2025-09-30); O80 is on the MCE v43.1 maternity list (ages 9-64); ZIP 22201 is Part B carrier 12202.
// The lab NCD list answers for 2026Q1 and MCE v43.1 from 2026-04-01: NCD answers are asked on 2026-02-15 (DATE), when
// no OPPS addendum is loaded (CPT validity unknown), MCE and MUE answers on 2026-05-15.
import { parse } from 'csv-parse/sync';
import { describe, expect, test } from 'vitest';
import type { CodeValidateResponse } from '../../../src/http/operations/code-validate.js';
import { signedServerOnSharedReference } from '../helpers.js';

const server = signedServerOnSharedReference();

const DATE = '2026-02-15';
/** A date MCE v43.1, the MUE tables and the April 2026 addendum cover (not the lab NCD list). */
const MCE = { effectiveDate: '2026-05-15' };

type Reply = Required<Pick<CodeValidateResponse, 'count' | 'result'>>;

async function post(body: Record<string, unknown>, path = '/json/reply/CodeValidate'): Promise<Response> {
  return server.s.fetch(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/**
 * A Facility claim whose principal diagnosis is W01.0XXA, an external-cause code (V00-Y99): never a principal
 * diagnosis on an inpatient claim (MCE edit 2).
 */
const EXTERNAL_CAUSE_PDX = {
  codeCheckTypes: ['CMS'],
  providerType: 'Facility',
  state: 'IL',
  effectiveDate: '2026-05-01',
  cptCodes: ['83036'],
  icdCodes: ['W01.0XXA', 'E11.9'],
};

async function validate(body: Record<string, unknown>): Promise<Reply> {
  const res = await post({ codeCheckTypes: ['NCD', 'CMS'], effectiveDate: DATE, ...body });
  expect(res.status).toBe(200);
  return (await res.json()) as Reply;
}

describe('CodeValidate', () => {
  test('one item per procedure and one sub-item per diagnosis, with the NCD that covers the pairing', async () => {
    const r = await validate({
      cptCodes: ['83036', '99213'],
      icdCodes: ['E11.9', 'Z00.00'],
      patient: { age: 50, gender: 'f' },
    });
    expect(r.count).toBe(2);
    expect(r.result.items.map((i) => i.code)).toEqual(['83036', '99213']);
    expect(r.result.items.map((i) => i.subItems.map((x) => x.code))).toEqual([
      ['E11.9', 'Z00.00'],
      ['E11.9', 'Z00.00'],
    ]);
    const [a1c, visit] = r.result.items;
    // Each pairing is judged on its own (operations.md step 4): E11.9 supports the test, Z00.00 is denied, and the
    // item is the worst of its sub-items.
    expect(a1c?.subItems.map((x) => x.status)).toEqual(['OK', 'Error']);
    expect(a1c?.status).toBe('Error');
    expect(a1c?.policies).toContain('NCD 190.21');
    expect(a1c?.subItems[0]?.issues[0]).toMatchObject({ policy: 'NCD 190.21', status: 'OK', code: 'NCD_SUPPORTED' });
    // No OPPS addendum is loaded for 2026-02-15 (and no CPT file at all): whether 99213 is valid then is not known, so
    // its item is a Warning saying so, never PolicyNotFound or OK on no data.
    expect(visit?.status).toBe('Warning');
    expect(visit?.issues).toContainEqual(
      expect.objectContaining({ policy: 'CMS', status: 'Warning', ruleId: 'code.validity' }),
    );
    expect(r.result.policies['NCD 190.21']).toMatchObject({
      policyType: 'N',
      title: 'Glycated Hemoglobin/Glycated Protein',
    });
    expect(Object.keys(r.result.codes).sort()).toEqual(['83036', '99213', 'E11.9', 'Z00.00']);
    // Every policy an item or a message cites is in the dictionary (CMS: the claim edits not checked on the date).
    const cited = new Set([...r.result.items.flatMap((i) => i.policies), ...r.result.messages.map((m) => m.policy)]);
    expect(Object.keys(r.result.policies).sort()).toEqual([...cited].sort());
  });

  test('a test with only a denied diagnosis is an Error on the sub-item and the item', async () => {
    const r = await validate({ cptCodes: ['83036'], icdCodes: ['Z00.00'] });
    const item = r.result.items[0];
    expect(item?.status).toBe('Error');
    expect(item?.subItems[0]).toMatchObject({ status: 'Error', issues: [{ status: 'Error', code: 'NCD_DENIED' }] });
  });

  test('invalid and deleted codes keep their item and sub-item, with InvalidCode and DeletedCode', async () => {
    const r = await validate({ ...MCE, cptCodes: ['83036', 'G0000'], icdCodes: ['E11', 'S30.1XXA'] });
    expect(r.count).toBe(2);
    expect(r.result.items[1]?.status).toBe('InvalidCode');
    expect(r.result.items[1]?.subItems.map((x) => x.status)).toEqual(['InvalidCode', 'DeletedCode']);
    expect(r.result.codes['S30.1XXA']).toMatchObject({ isValid: false, invalidReason: 'Deleted' });
  });

  test('cptIcdMapping pairs only the named diagnoses and still lists every sub-item', async () => {
    const r = await validate({
      cptCodes: ['83036'],
      icdCodes: ['E11.9', 'Z00.00'],
      cptIcdMapping: { '83036': ['Z00.00'] },
    });
    expect(r.result.items[0]?.status).toBe('Error');
    expect(r.result.items[0]?.subItems[0]?.messages[0]?.message).toMatch(/cptIcdMapping/);
  });

  test('codes named like Object.prototype members are codes like any other (in codes, items and with a mapping)', async () => {
    const res = await post({
      codeCheckTypes: ['NCD'],
      effectiveDate: DATE,
      cptCodes: ['__proto__', 'constructor', '83036'],
      icdCodes: ['E11.9', 'Z00.00'],
      cptIcdMapping: { '83036': ['E11.9'] },
    });
    expect(res.status).toBe(200);
    const r = (await res.json()) as Reply;
    expect(Object.keys(r.result.codes).sort()).toEqual(['83036', 'E11.9', 'Z00.00', '__proto__', 'constructor'].sort());
    expect(r.result.codes['__proto__']).toMatchObject({ code: '__PROTO__', isValid: false });
    expect(r.result.items.map((i) => [i.code, i.status])).toEqual([
      ['__proto__', 'InvalidCode'],
      ['constructor', 'InvalidCode'],
      ['83036', 'Warning'],
    ]);
  });

  test('Age exceptions: OK, Error with the patient, Warning without', async () => {
    const ageOf = async (patient?: Record<string, unknown>): Promise<string | undefined> => {
      const r = await validate({ ...MCE, cptCodes: ['59400'], icdCodes: ['O80'], ...(patient ? { patient } : {}) });
      return r.result.items[0]?.subItems[0]?.exceptions.find((e) => e.exception === 'Age')?.status;
    };
    expect(await ageOf({ age: 30 })).toBe('OK');
    expect(await ageOf({ birthdate: '1950-01-01', gender: 'F' })).toBe('Error');
    expect(await ageOf()).toBe('Warning');
    // Without patient data the sub-item and the item roll up to Warning (above PolicyNotFound).
    const r = await validate({ ...MCE, cptCodes: ['59400'], icdCodes: ['O80'] });
    expect(r.result.items[0]?.subItems[0]?.status).toBe('Warning');
    expect(r.result.items[0]?.status).toBe('Warning');
  });

  test('an MCE list without an age range gives a Warning Age exception, never OK', async () => {
    // MCE v37 (FY2020) lists O80 as maternity without ages: the limit cannot be read for a 70-year-old.
    const r = await validate({
      effectiveDate: '2020-01-15',
      cptCodes: ['99213'],
      icdCodes: ['O80'],
      patient: { age: 70, gender: 'f' },
    });
    const sub = r.result.items[0]?.subItems[0];
    expect(sub?.exceptions.find((e) => e.exception === 'Age')).toEqual({
      policy: 'CMS',
      exception: 'Age',
      status: 'Warning',
      message: 'Not checked: O80 is on the MCE v37 maternity list, which gives no age range.',
    });
    expect(sub?.status).toBe('Warning');
  });

  test("a procedure's sex conflict is a claim message: it concerns no diagnosis", async () => {
    // MCE v37 (FY2020) lists 0VT04ZZ (prostate resection) as male-only.
    const r = await validate({
      codeCheckTypes: ['CMS'],
      effectiveDate: '2020-01-15',
      cptCodes: ['0VT04ZZ'],
      icdCodes: ['R33.9'],
      patient: { age: 70, gender: 'f' },
    });
    expect(r.result.messages.map((m) => m.message)).toContainEqual(
      expect.stringMatching(
        /^Line 1: procedure 0VT04ZZ .* is on the MCE v37 male-only list, but the patient is female\.$/,
      ),
    );
  });

  test('without procedures, an age conflict is a claim message (there is no pairing to carry the exception)', async () => {
    const r = await validate({ ...MCE, icdCodes: ['O80', 'R73.9'], patient: { age: 70, gender: 'm' } });
    expect(r.count).toBe(0);
    expect(r.result.messages.map((m) => m.message)).toContainEqual(expect.stringMatching(/O80.*age.*70|70.*O80/i));
    // A diagnosis cptIcdMapping leaves off every line is checked with none: its conflict is a message too.
    const unpaired = await validate({
      ...MCE,
      cptCodes: ['83036'],
      icdCodes: ['E11.9', 'O80'],
      cptIcdMapping: { '83036': ['E11.9'] },
      patient: { age: 70 },
    });
    expect(unpaired.result.messages.map((m) => m.message)).toContainEqual(expect.stringMatching(/O80.*70/));
    // ...and an Error issue of its unpaired sub-item, so the answer never looks OK (the scrubber's claim is an error).
    const [item] = unpaired.result.items;
    expect(item?.subItems[1]?.issues).toEqual([expect.objectContaining({ status: 'Error', ruleId: 'mce.age-conflict', code: 'MCE_AGE_CONFLICT' })]);
    expect([item?.subItems[1]?.status, item?.subItems[0]?.status, item?.status]).toEqual(['Error', 'OK', 'Error']);
    // With a procedure it stays the pairing's Age exception, not a message too.
    const paired = await validate({ ...MCE, cptCodes: ['59400'], icdCodes: ['O80'], patient: { age: 70 } });
    expect(paired.result.items[0]?.subItems[0]?.exceptions.find((e) => e.exception === 'Age')?.status).toBe('Error');
    expect(paired.result.messages.map((m) => m.message).join('\n')).not.toMatch(/O80/);
  });

  test('icdType in any spelling of a code-set name (operations.md): ICD-10-CM, icd10cm, icd-9 cm', async () => {
    for (const icdType of ['ICD-10-CM', 'icd10cm', ' ICD-10 CM ']) {
      const r = await validate({ cptCodes: ['83036'], icdCodes: ['E11.9'], icdType });
      expect(r.result.items[0]?.subItems[0]?.status).toBe('OK');
    }
    // ICD-9-CM read as the claim's code set: E11.9 is then no ICD-9-CM code.
    const r9 = await validate({ cptCodes: ['83036'], icdCodes: ['E11.9'], icdType: 'icd-9 cm' });
    expect(r9.result.items[0]?.subItems[0]?.status).toBe('InvalidCode');
    expect(r9.result.codes['E11.9']?.message).toMatch(/not a well-formed ICD-9-CM diagnosis code/);
  });

  test('a requested source no policy pack loaded answers (Transmittal, MLM, another payer) is not checked, never PolicyNotFound', async () => {
    const r = await validate({
      ...MCE,
      codeCheckTypes: ['Transmittal', 'MLM'],
      cptCodes: ['97110'],
      icdCodes: ['M54.50'],
    });
    expect(r.result.items[0]?.status).toBe('Warning');
    expect(r.result.items[0]?.issues.map((i) => [i.policy, i.message])).toEqual([
      ['Transmittal', 'Not checked: no Transmittal policy pack is loaded in force on 2026-05-15.'],
      ['MLM', 'Not checked: no MLM policy pack is loaded in force on 2026-05-15.'],
    ]);
    expect(Object.keys(r.result.policies).sort()).toEqual(['MLM', 'Transmittal']);
    // A payer without a pack: not checked; the example pack's own payer is searched (and lists no 97110).
    const other = await validate({ ...MCE, codeCheckTypes: ['Commercial'], payerCode: 'AETNA', cptCodes: ['97110'] });
    expect(other.result.items[0]?.issues[0]?.message).toBe(
      'Not checked: no Commercial policy pack is loaded in force on 2026-05-15 for payer AETNA.',
    );
    const own = await validate({ ...MCE, codeCheckTypes: ['Commercial'], payerCode: 'EXAMPLE01', cptCodes: ['97110'] });
    expect(own.result.items[0]?.status).toBe('PolicyNotFound');
  });

  test('a diagnosis code sent as a procedure is an InvalidCode item that says why', async () => {
    const r = await validate({ cptCodes: ['E11.9', '83036'], icdCodes: ['I10'] });
    expect(r.result.items[0]).toMatchObject({ code: 'E11.9', status: 'InvalidCode' });
    expect(r.result.items[0]?.issues).toMatchObject([{ code: 'CODE_WRONG_SET', status: 'Error' }]);
    // Not looked up under any policy, so no "No requested policy lists E11.9".
    expect(r.result.items[0]?.messages.map((m) => m.message).join('\n')).not.toMatch(/No requested policy lists/);
    expect(r.result.items[1]?.status).not.toBe('InvalidCode');
    // The issue says why whatever the request asked for (the request's shape, not a policy).
    const ncdOnly = await validate({ codeCheckTypes: ['NCD'], cptCodes: ['E11.9'], icdCodes: ['I10'] });
    expect(ncdOnly.result.items[0]?.issues.map((i) => i.code)).toEqual(['CODE_WRONG_SET']);
  });

  test('claim-level MCE edits of the principal diagnosis are issues of its sub-items (not only messages)', async () => {
    const r = await validate({ ...EXTERNAL_CAUSE_PDX, patient: { age: 60, gender: 'f' } });
    const sub = r.result.items[0]?.subItems[0];
    expect(sub?.issues.map((i) => i.code)).toContain('MCE_E_CODE_AS_PDX');
    expect(sub?.status).toBe('Error');
    expect(r.result.items[0]?.status).toBe('Error');
  });

  test('(ext) billType: a Facility claim is inpatient without one; an outpatient bill gets no MCE admission edits', async () => {
    const pdxIssues = async (extra: Record<string, unknown>): Promise<(string | undefined)[] | undefined> =>
      (await validate({ ...EXTERNAL_CAUSE_PDX, ...extra })).result.items[0]?.subItems[0]?.issues.map((i) => i.code);
    expect(await pdxIssues({})).toEqual(['MCE_E_CODE_AS_PDX']);
    // Hospital inpatient and swing bed, with or without the leading 0, in any case.
    for (const billType of ['0111', '111', '181', '011q']) {
      expect(await pdxIssues({ billType }), billType).toEqual(['MCE_E_CODE_AS_PDX']);
    }
    // Outpatient, inpatient Part B and clinic bills go through the outpatient edits, not the MCE's.
    for (const billType of ['0131', '121', '0721']) {
      expect(await pdxIssues({ billType }), billType).toEqual([]);
    }
  });

  test('a code whose validity no loaded release decides is a Warning issue of its item or sub-items, whatever was asked', async () => {
    // 2026-10-01 is past the newest ICD-10-CM release (FY2026) and the newest OPPS addendum (2026Q2).
    const r = await validate({
      codeCheckTypes: ['CMS'],
      effectiveDate: '2026-10-01',
      cptCodes: ['99213'],
      icdCodes: ['E11.9'],
    });
    expect(r.result.codes['E11.9']).toMatchObject({ isValid: false, reasonCode: 'CODE_NO_DATA' });
    const [item] = r.result.items;
    expect(item?.subItems[0]?.status).toBe('Warning');
    expect(item?.subItems[0]?.issues).toContainEqual(
      expect.objectContaining({
        policy: 'CMS',
        status: 'Warning',
        ruleId: 'code.validity',
        message: expect.stringMatching(/^Not checked: /) as unknown,
      }),
    );
    expect(item?.issues).toContainEqual(expect.objectContaining({ status: 'Warning', ruleId: 'code.validity' }));
    expect(item?.status).toBe('Warning');
    // On a date every release covers, the same codes are decided: no such issue.
    const covered = await validate({
      codeCheckTypes: ['CMS'],
      effectiveDate: '2026-05-15',
      cptCodes: ['99213'],
      icdCodes: ['E11.9'],
    });
    expect(covered.result.items[0]?.subItems[0]?.status).toBe('OK');
    expect(covered.result.items[0]?.status).toBe('PolicyNotFound');
  });

  test('a code that fits two code sets (CODE_AMBIGUOUS) is a Warning issue, never OK: its validity is not decided', async () => {
    // 4019 on 2015-09-01 as a procedure: ICD-9-CM procedure 40.19 or a diagnosis shape; the request names no icdType.
    const r = await validate({ codeCheckTypes: ['CMS'], effectiveDate: '2015-09-01', cptCodes: ['4019'], icdCodes: ['25000'] });
    expect(r.result.codes['4019']).toMatchObject({ reasonCode: 'CODE_AMBIGUOUS' });
    const item = r.result.items[0];
    expect(item?.issues).toContainEqual(expect.objectContaining({ status: 'Warning', ruleId: 'code.validity', code: 'CODE_AMBIGUOUS' }));
    expect(item?.status).toBe('Warning');
  });

  test('icdCodes are diagnoses: an ICD-9-CM code is read as a diagnosis, never as a procedure of the same digits', async () => {
    // 4019 on 2015-09-01: diagnosis 401.9 (hypertension), not procedure 40.19.
    const r = await validate({ codeCheckTypes: ['CMS'], effectiveDate: '2015-09-01', cptCodes: ['99213'], icdCodes: ['4019'] });
    expect(r.result.codes['4019']).toMatchObject({ isValid: true, code: '401.9', codeType: 'ICD-9 CM', longDescription: 'Unspecified essential hypertension' });
  });

  test('an inpatient claim says POA was not checked (a request cannot carry the indicators); an outpatient one does not', async () => {
    const poa = async (billType?: string): Promise<string[]> =>
      (
        await validate({
          ...MCE,
          codeCheckTypes: ['CMS'],
          providerType: 'Facility',
          state: 'VA',
          cptCodes: ['99221'],
          icdCodes: ['J18.9', 'I10'],
          ...(billType === undefined ? {} : { billType }),
        })
      ).result.messages
        .map((m) => m.message)
        .filter((m) => /present on admission/.test(m));
    expect(await poa()).toEqual([expect.stringMatching(/^Not checked: present on admission \(rule poa\): a CodeValidate request cannot carry POA indicators/)]);
    expect(await poa('0111')).toHaveLength(1);
    expect(await poa('0131')).toEqual([]);
  });

  test('a requested policy whose data is not loaded for the date is a Warning, never PolicyNotFound', async () => {
    // The loaded lab NCD spreadsheet starts 2026-01-01: on 2025-06-01 whether an NCD lists 83036 is unknown.
    const r = await validate({
      codeCheckTypes: ['NCD'],
      effectiveDate: '2025-06-01',
      cptCodes: ['83036'],
      icdCodes: ['E11.9'],
    });
    expect(r.result.items[0]?.status).toBe('Warning');
    expect(r.result.items[0]?.issues).toContainEqual(
      expect.objectContaining({ policy: 'NCD', status: 'Warning', ruleId: 'ncd.lab' }),
    );
    expect(r.result.policies['NCD']).toMatchObject({ policyType: 'N' });
  });

  test('items and sub-items show codes in their output form, whatever case or dots were sent; codes keeps the keys sent', async () => {
    const r = await validate({
      ...MCE,
      codeCheckTypes: ['CMS'],
      cptCodes: ['g0439', '99213'],
      icdCodes: ['e119', 'I10'],
    });
    expect(r.result.items.map((i) => i.code)).toEqual(['G0439', '99213']);
    expect(r.result.items[0]?.subItems.map((x) => x.code)).toEqual(['E11.9', 'I10']);
    expect(Object.keys(r.result.codes).sort()).toEqual(['99213', 'I10', 'e119', 'g0439']);
  });

  test('a diagnosis listed twice is two sub-items, and each finding goes to its own position', async () => {
    // The principal Z00.00 is unacceptable as principal (MCE edit 9); the second one repeats it (edit 3).
    const mce = await validate({
      ...MCE,
      codeCheckTypes: ['CMS'],
      providerType: 'Facility',
      cptCodes: ['99213'],
      icdCodes: ['Z00.00', 'Z00.00', 'R03.0'],
      patient: { age: 60 },
    });
    expect(mce.result.items[0]?.subItems.map((x) => x.issues.map((i) => i.code))).toEqual([
      ['MCE_UNACCEPTABLE_PDX'],
      ['MCE_DUPLICATE_OF_PDX'],
      [],
    ]);
    // One NCD finding per pairing, on its own sub-item (not twice on each Z00.00).
    const ncd = await validate({
      codeCheckTypes: ['NCD'],
      cptCodes: ['83036'],
      icdCodes: ['Z00.00', 'H40.9', 'Z00.00'],
    });
    expect(ncd.result.items[0]?.subItems.map((x) => x.issues.map((i) => i.code))).toEqual([
      ['NCD_DENIED'],
      ['NCD_NOT_LISTED'],
      ['NCD_DENIED'],
    ]);
    // cptIcdMapping names a code: its first position is paired, the repeat is not, and gets no pairing's finding.
    const mapped = await validate({
      cptCodes: ['85032'],
      icdCodes: ['E11.9', 'E11.9'],
      cptIcdMapping: { '85032': ['E11.9'] },
    });
    const [first, second] = mapped.result.items[0]?.subItems ?? [];
    expect(first?.issues.map((i) => i.code)).toEqual(['NCD_SUPPORTED']);
    expect(second?.issues).toEqual([]);
    expect(second?.messages.map((m) => m.message)).toEqual(['E11.9 is not checked against 85032 (cptIcdMapping).']);
    // The same for a payer pack's diagnosis findings.
    const pack = await validate({
      ...MCE,
      codeCheckTypes: ['Commercial'],
      payerCode: 'EXAMPLE01',
      cptCodes: ['99396'],
      icdCodes: ['J06.9', 'Z00.00', 'J06.9'],
      cptIcdMapping: { '99396': ['J06.9', 'Z00.00'] },
      patient: { age: 40, gender: 'f' },
    });
    const subs = pack.result.items[0]?.subItems ?? [];
    expect(subs.map((x) => x.issues.map((i) => i.code))).toEqual([
      ['POLICY_DX_NOT_COVERED'],
      ['POLICY_DX_COVERED'],
      [],
    ]);
    expect(subs[2]?.status).toBe('OK');
  });

  test('names the contractor of a split-state ZIP in messages', async () => {
    const r = await validate({ cptCodes: ['99213'], icdCodes: ['I10'], providerType: 'P', postalCode: '22201' });
    expect(r.result.messages.map((m) => m.message)).toContain('Contractor: contractor 12202 (Part B) from ZIP 22201.');
  });

  test('answers in CSV and XML too, on the custom route', async () => {
    const body = { codeCheckTypes: ['NCD'], effectiveDate: DATE, cptCodes: ['83036'], icdCodes: ['E11.9'] };
    const xml = await post(body, '/codeValidate?format=xml');
    expect(xml.status).toBe(200);
    expect(await xml.text()).toContain('<Code>83036</Code>');
    // wire.md §10: CodeValidate is a single-row operation; the items, codes and policies are JSON cells.
    const csv = await post(body, '/codeValidate?format=csv');
    expect(csv.status, await csv.clone().text()).toBe(200);
    const rows: string[][] = parse(await csv.text());
    const [header, row, ...rest] = rows;
    expect(rest).toEqual([]);
    const cells = Object.fromEntries((header ?? []).map((h, i) => [h, row?.[i]]));
    expect(cells['count']).toBe('1');
    expect(JSON.parse(cells['result.items'] ?? '')).toMatchObject([{ code: '83036', status: 'Warning' }]);
    expect(Object.keys(JSON.parse(cells['result.codes'] ?? '') as object).sort()).toEqual(['83036', 'E11.9']);
    expect(cells['result.policies']).toContain('NCD 190.21');
  });

  test('400 with field errors for the spec rules, bad spellings and too many codes', async () => {
    const errorsOf = async (body: Record<string, unknown>): Promise<{ errorCode: string; fieldName: string }[]> => {
      const res = await post({ codeCheckTypes: ['NCD'], effectiveDate: '2026-05-15', ...body });
      expect(res.status).toBe(400);
      return ((await res.json()) as { responseStatus: { errors: { errorCode: string; fieldName: string }[] } })
        .responseStatus.errors;
    };
    expect(await errorsOf({ codeCheckTypes: ['LCD'] })).toMatchObject([
      { errorCode: 'NotEmpty', fieldName: 'contractorNumber' },
    ]);
    // Articles are contractor documents like LCDs: rule 1 holds for them too.
    expect(await errorsOf({ codeCheckTypes: ['Article'] })).toMatchObject([
      {
        errorCode: 'NotEmpty',
        fieldName: 'contractorNumber',
        message: expect.stringContaining('when Article is checked') as unknown,
      },
    ]);
    expect(await errorsOf({ codeCheckTypes: ['Commercial'] })).toMatchObject([
      { errorCode: 'NotEmpty', fieldName: 'payerCode' },
    ]);
    // A birth date after the date of service is no age at all (it was answered as "age -4 ... not a valid age").
    expect(await errorsOf({ patient: { birthdate: '2030-01-01' } })).toMatchObject([
      {
        errorCode: 'InvalidValue',
        fieldName: 'patient.birthdate',
        message: "'patient.birthdate' (2030-01-01) is after effectiveDate (2026-05-15).",
      },
    ]);
    // A type of bill is a Facility claim's; one that is no UB-04 type of bill is refused.
    expect(await errorsOf({ providerType: 'Physician', billType: '0131' })).toMatchObject([
      {
        errorCode: 'InvalidValue',
        fieldName: 'billType',
        message: expect.stringContaining('must be Facility') as unknown,
      },
    ]);
    expect(await errorsOf({ billType: '0131' })).toMatchObject([{ errorCode: 'InvalidValue', fieldName: 'billType' }]);
    expect(await errorsOf({ providerType: 'Facility', billType: '013-1' })).toMatchObject([
      { errorCode: 'InvalidValue', fieldName: 'billType' },
    ]);
    // Every field's own error in one 400 (wire.md section 4), not the schema's first and the spellings after.
    const all = await errorsOf({
      effectiveDate: 20260515,
      patient: { age: 'seventy', gender: 5 },
      icdType: 'ICD-11',
      providerType: 'Clinic',
      state: 'Virginia',
    });
    expect(all.map((e) => [e.errorCode, e.fieldName]).sort()).toEqual(
      [
        ['InvalidValue', 'effectiveDate'],
        ['InvalidValue', 'icdType'],
        ['InvalidValue', 'patient.age'],
        ['InvalidValue', 'patient.gender'],
        ['InvalidValue', 'providerType'],
        ['InvalidValue', 'state'],
      ].sort(),
    );
    // Two letters that are no USPS state or territory code are no state (ZZ was a 200 with the contractor not checked).
    expect(await errorsOf({ state: 'ZZ' })).toMatchObject([{ errorCode: 'InvalidValue', fieldName: 'state' }]);
    expect((await post({ codeCheckTypes: ['NCD'], effectiveDate: '2026-05-15', state: 'pr' })).status).toBe(200);
    // A null element is no element, and the errors of the others name their index as sent (it was cptCodes[1]).
    expect(await errorsOf({ cptCodes: [null, '85032', { x: 1 }] })).toEqual([
      { errorCode: 'InvalidValue', fieldName: 'cptCodes[2]', message: expect.any(String) as unknown },
    ]);
    expect(await errorsOf({ patient: { gender: 'x' } })).toMatchObject([
      { errorCode: 'InvalidValue', fieldName: 'patient.gender' },
    ]);
    expect(await errorsOf({ icdType: 'ICD-10 PCS' })).toMatchObject([
      { errorCode: 'InvalidValue', fieldName: 'icdType' },
    ]);
    // A blank code is no code; codes are read trimmed.
    expect(await errorsOf({ cptCodes: ['83036', '  '], icdCodes: [''] })).toMatchObject([
      { errorCode: 'NotEmpty', fieldName: 'cptCodes[1]' },
      { errorCode: 'NotEmpty', fieldName: 'icdCodes[0]' },
    ]);
    const trimmed = await validate({ cptCodes: [' 83036 '], icdCodes: [' E11.9'] });
    expect(trimmed.result.items[0]).toMatchObject({ code: '83036', subItems: [{ code: 'E11.9', status: 'OK' }] });
    // cptIcdMapping is read trimmed the same way.
    const mapped = await validate({
      cptCodes: [' 83036 '],
      icdCodes: [' E11.9', 'Z00.00'],
      cptIcdMapping: { ' 83036 ': [' E11.9'] },
    });
    expect(mapped.result.items[0]?.subItems.map((x) => [x.code, x.status])).toEqual([
      ['E11.9', 'OK'],
      ['Z00.00', 'OK'],
    ]);
    expect(mapped.result.items[0]?.subItems[1]?.messages[0]?.message).toMatch(
      /not checked against 83036 \(cptIcdMapping\)/,
    );
    const many = Array.from({ length: 51 }, (_, i) => String(99200 + i));
    expect((await errorsOf({ cptCodes: many }))[0]).toMatchObject({ errorCode: 'TooMany', fieldName: 'cptCodes' });
    expect(await errorsOf({ cptIcdMapping: { '83036': ['E11.9'] } })).toMatchObject([
      { errorCode: 'InvalidValue', fieldName: 'cptIcdMapping.83036' },
      { errorCode: 'InvalidValue', fieldName: 'cptIcdMapping.83036[0]' },
    ]);
  });
});
