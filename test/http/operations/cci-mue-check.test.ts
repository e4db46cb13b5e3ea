// CciMueCheck (ext) over a real server backed by the shared full reference database. Rows read from the official
// April 2026 MUE tables and the 2026Q2 add-on code file loaded there: G0439 practitioner MUE 1 with MAI 2
// ("2 Date of Service Edit: Policy"); 11045 is a type 1 add-on whose primaries include 11042.
import { expect, test } from 'vitest';
import type { CciMueCheckResponse } from '../../../src/http/operations/cci-mue-check.js';
import { signedServerOnSharedReference } from '../helpers.js';

const server = signedServerOnSharedReference();

type Items = Required<CciMueCheckResponse>['items'];

/** POSTs a CciMueCheck request as JSON. */
const post = (body: unknown): Promise<Response> =>
  server.s.fetch('/medRef/cci', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });

async function check(items: unknown[], providerType = 'P'): Promise<Items> {
  const res = await post({ effectiveDate: '2026-05-15', providerType, items });
  expect(res.status).toBe(200);
  return ((await res.json()) as { items: Items }).items;
}

test('gives the MUE value and indicator, and an error over it', async () => {
  const [ok] = await check([{ code: 'G0439' }]);
  expect(ok).toMatchObject({
    code: 'G0439',
    status: 'OK',
    isValid: true,
    mueValue: 1,
    mueAdjudicationIndicator: '2 Date of Service Edit: Policy',
    issues: [],
  });
  const [over] = await check([{ code: 'G0439', units: 2 }]);
  expect(over?.status).toBe('Error');
  expect(over?.issues).toMatchObject([{ status: 3, ruleId: 'ncci.mue' }]);
});

test('answers one item per input, in order, with the add-on edit on the add-on', async () => {
  const items = await check([{ code: '11045' }, { code: '99213', modifiers: ['25'] }]);
  expect(items.map((i) => i.code)).toEqual(['11045', '99213']);
  expect(items[0]?.issues.filter((i) => i.ruleId === 'ncci.add-on')).toMatchObject([{ status: 3 }]);
  // 25 is a CPT modifier: no CPT modifier list is loaded, so it is not judged.
  expect(items[1]?.modifiers).toMatchObject([{ modCode: '25', status: 'Warning' }]);
  const withPrimary = await check([{ code: '11042' }, { code: '11045' }]);
  expect(withPrimary[1]?.issues.filter((i) => i.ruleId === 'ncci.add-on')).toEqual([]);
});

test('says when the status indicator comes from the derived OPPS table', async () => {
  // 2026-05-15 is in the quarter of the derived April 2026 table only: G0439's indicator is from it. On 2025-01-15 the
  // official January 2025 file answers.
  const [derived] = await check([{ code: 'G0439' }]);
  expect(derived?.derived).toBe(true);
  const res = await post({ effectiveDate: '2025-01-15', providerType: 'P', items: [{ code: 'G0439' }] });
  const official = ((await res.json()) as { items: Items }).items[0];
  expect(official?.statusIndicator).toBeDefined();
  expect(official?.derived).toBeUndefined();
});

test('a check that could not run is a warning issue, never a silent OK', async () => {
  // No MUE table is loaded for 2020: the units of J1100 cannot be checked.
  const res = await post({ effectiveDate: '2020-06-01', providerType: 'P', items: [{ code: 'J1100', units: 200 }] });
  const item = ((await res.json()) as { items: Items }).items[0];
  expect(item?.mueValue).toBeUndefined();
  expect(item?.issues.find((i) => i.ruleId === 'ncci.mue')).toMatchObject({ status: 2 });
  expect(item?.status).not.toBe('OK');
});

test('a CPT code on a date no loaded OPPS addendum covers is a warning with unknown validity, not an invalid code', async () => {
  const res = await post({ effectiveDate: '2020-01-01', providerType: 'P', items: [{ code: '99213' }] });
  const item = ((await res.json()) as { items: Items }).items[0];
  expect(item).toMatchObject({ code: '99213', isValid: false, status: 'Warning' });
  expect(item?.invalidReason).toBeUndefined();
  expect(item?.issues.find((i) => i.ruleId === 'code.validity')?.message).toMatch(
    /^Not checked: .*validity of 99213 .* unknown/,
  );
});

test('reports an unknown code as invalid, and judges HCPCS modifiers only on dates a loaded HCPCS file covers', async () => {
  const [bad] = await check([{ code: 'G0000', modifiers: ['ZZ'] }]);
  expect(bad).toMatchObject({ isValid: false, invalidReason: 'NotFound', status: 'Error' });
  // 2026-05-15 is past the newest HCPCS file (2019Q1): JZ (added in 2023) is not in it, RT is; neither is judged.
  const [drug] = await check([{ code: 'J1100', modifiers: ['JZ', 'RT', 'ZZ'] }]);
  expect(drug?.modifiers).toMatchObject([
    { modCode: 'JZ', status: 'Warning', message: 'JZ is in no loaded HCPCS file; no loaded HCPCS file covers 2026-05-15 (the newest is 2019Q1), so it was not checked.' },
    { modCode: 'RT', status: 'Warning', message: expect.stringMatching(/^RT \(Right side\) is in the 2019Q1 HCPCS file; no loaded/) as unknown },
    { modCode: 'ZZ', status: 'Warning' },
  ]);
  // On a date the 2019Q1 file covers: RT is a modifier in force, ZZ none.
  const res = await post({ effectiveDate: '2019-02-15', providerType: 'P', items: [{ code: '27447', modifiers: ['RT', 'ZZ'] }] });
  const knee = ((await res.json()) as { items: Items }).items[0];
  expect(knee?.modifiers).toMatchObject([
    { modCode: 'RT', status: 'OK' },
    { modCode: 'ZZ', status: 'Error', message: 'ZZ is not a HCPCS modifier in force on 2019-02-15.' },
  ]);
});

test('400 for a provider type or modifier it cannot read', async () => {
  const res = await post({
    effectiveDate: '2026-05-15',
    providerType: 'X',
    items: [{ code: '99213', modifiers: ['259'] }],
  });
  expect(res.status).toBe(400);
  const body = (await res.json()) as { responseStatus: { errors: { fieldName: string }[] } };
  expect(body.responseStatus.errors.map((e) => e.fieldName)).toContain('providerType');
});

test('a missing provider type is NotEmpty, like any missing required field', async () => {
  const res = await post({ effectiveDate: '2026-05-15', items: [{ code: '99213' }] });
  expect(res.status).toBe(400);
  const body = (await res.json()) as { responseStatus: { errors: { errorCode: string; fieldName: string }[] } };
  expect(body.responseStatus.errors).toEqual([
    { errorCode: 'NotEmpty', fieldName: 'providerType', message: "'providerType' must not be empty." },
  ]);
});

test('a diagnosis code as an item is not a valid procedure: isValid false, Invalid, and the issue says why', async () => {
  const [dx] = await check([{ code: 'E11.9' }]);
  expect(dx).toMatchObject({ code: 'E11.9', status: 'Error', isValid: false, invalidReason: 'Invalid' });
  expect(dx?.issues).toMatchObject([{ status: 3, ruleId: 'code.validity' }]);
  expect(dx?.issues[0]?.message).toMatch(/diagnosis code, not a procedure code/);
  // A deleted diagnosis code keeps its own reason, as CodeValidate's DeletedCode does.
  const [deleted] = await check([{ code: 'S30.1XXA' }]);
  expect(deleted).toMatchObject({ status: 'Error', isValid: false, invalidReason: 'Deleted' });
});

test('units are whole service units from 1: a fraction, 0 or a value past Int32 is a 400 on its field, never summed', async () => {
  const errorsOf = async (units: unknown[]): Promise<{ errorCode: string; fieldName: string; message: string }[]> => {
    const res = await post({
      effectiveDate: '2026-05-15',
      providerType: 'P',
      items: units.map((u) => ({ code: '97110', units: u })),
    });
    expect(res.status).toBe(400);
    return (
      (await res.json()) as { responseStatus: { errors: { errorCode: string; fieldName: string; message: string }[] } }
    ).responseStatus.errors;
  };
  // 1.5 + 4.7 would be 6.2 units, over the MUE of 6; the whole-unit reading is not.
  expect(await errorsOf([1.5, 4.7])).toMatchObject([
    { errorCode: 'InvalidValue', fieldName: 'items[0].units' },
    { errorCode: 'InvalidValue', fieldName: 'items[1].units' },
  ]);
  expect(await errorsOf([0])).toMatchObject([
    {
      errorCode: 'OutOfRange',
      fieldName: 'items[0].units',
      message: "'items[0].units' must be between 1 and 2147483647.",
    },
  ]);
  expect(await errorsOf([1e300])).toMatchObject([{ fieldName: 'items[0].units' }]);
  const [ok] = await check([{ code: '97110', units: 6 }]);
  expect(ok?.isValid).toBe(true);
});

test('an item shows its code in output form (upper case), as its modifiers are', async () => {
  const [item] = await check([{ code: 'g0439', modifiers: ['xu'] }]);
  expect(item).toMatchObject({ code: 'G0439', modifiers: [{ modCode: 'XU' }] });
});
