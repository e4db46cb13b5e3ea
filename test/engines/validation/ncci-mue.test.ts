// ncci.mue on the real April 2026 MUE tables (release 2026Q2, in force from 2026-04-01). Rows used, as the tables
// give them (code, MUE value, MAI):
//   practitioner         99486   4  1 Line Edit
//   practitioner         G0439   1  2 Date of Service Edit: Policy
//   practitioner         36415   2  3 Date of Service Edit: Clinical
//   practitioner         71046   2  3 Date of Service Edit: Clinical
//   outpatient-hospital  71046   3  3 Date of Service Edit: Clinical
//   dme                  E0601   1  3 Date of Service Edit: Clinical   (practitioner: 0)
//   practitioner         G0071   no row
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { validateClaim } from '../../../src/engines/validation/index.js';
import type { Reference } from '../../../src/reference/index.js';
import type { Claim } from '../../../src/schemas/claim.js';
import { claimOf, type LineSpec } from '../../helpers/claims.js';
import { openSharedReference } from '../../helpers/reference-db.js';

let ref: Reference;
beforeAll(async () => {
  ref = await openSharedReference();
});
afterAll(() => ref.close());

const run = (lines: LineSpec[], fields: Partial<Claim> = {}): ReturnType<typeof validateClaim> =>
  validateClaim(ref, claimOf(fields, ['E11.9'], lines), { checks: ['ncci.mue'] });
const units = (procedureCode: string, n: number, more: Partial<LineSpec & object> = {}): LineSpec => ({
  procedureCode,
  units: n,
  ...more,
});

describe('MAI 1, line edit', () => {
  test('passes a line at the MUE value', () => {
    const r = run([units('99486', 4)]);
    expect(r.findings).toEqual([]);
    expect(r.notChecked).toEqual([]);
  });

  test('flags a line one unit over, naming the value, the MAI and the quarter', () => {
    const r = run([units('99486', 5)]);
    expect(r.findings).toMatchObject([
      {
        rule: 'ncci.mue',
        code: 'MUE_EXCEEDED',
        severity: 'error',
        lines: [1],
        codes: ['99486'],
        source: { dataset: 'mue-practitioner', release: '2026Q2' },
      },
    ]);
    expect(r.findings[0]?.message).toMatch(
      /5 units of 99486 exceed the MUE of 4 per line \(MAI 1 Line Edit, mue-practitioner 2026Q2\)/,
    );
    expect(r.findings[0]?.fix).toMatch(/modifier 59, 76, 77/);
  });

  test('does not sum the units of separate lines', () => {
    expect(run([units('99486', 3), units('99486', 3, { modifiers: ['76'] })]).findings).toEqual([]);
  });
});

describe('MAI 2, date of service edit (policy)', () => {
  test('passes the MUE value on one line', () => {
    expect(run([units('G0439', 1)]).findings).toEqual([]);
  });

  test('sums the units of the code across lines of one date and flags the excess as an error', () => {
    const r = run([units('G0439', 1), '99213', units('G0439', 1)]);
    expect(r.findings).toMatchObject([{ code: 'MUE_EXCEEDED', severity: 'error', lines: [1, 3], codes: ['G0439'] }]);
    expect(r.findings[0]?.message).toMatch(
      /2 units of G0439 on 2026-05-15 exceed the MUE of 1 per date of service \(MAI 2 Date of Service Edit: Policy/,
    );
    expect(r.findings[0]?.fix).toMatch(/not payable, even on appeal/);
  });

  test('does not sum across dates of service', () => {
    const r = run([units('G0439', 1), units('G0439', 1, { dateOfService: '2026-05-16' })]);
    expect(r.findings).toEqual([]);
  });
});

describe('MAI 3, date of service edit (clinical)', () => {
  test('passes units summed to the MUE value', () => {
    expect(run([units('36415', 1), units('36415', 1)]).findings).toEqual([]);
    // Decimal units sum as written: 0.1 + 2.7 + 0.2 is 3 (71046's outpatient MUE), not 3.0000000000000004.
    const institutional = { claimType: 'institutional' } as const;
    expect(run([units('71046', 0.1), units('71046', 2.7), units('71046', 0.2)], institutional).findings).toEqual([]);
    expect(run([units('71046', 0.1), units('71046', 2.7), units('71046', 0.3)], institutional).findings).toHaveLength(1);
  });

  test('warns when the sum for the date is one over: payable on appeal with documentation', () => {
    const r = run([units('36415', 2), units('36415', 1)]);
    expect(r.findings).toMatchObject([
      {
        code: 'MUE_EXCEEDED_CLINICAL',
        severity: 'warning',
        lines: [1, 2],
        source: { dataset: 'mue-practitioner', release: '2026Q2' },
      },
    ]);
    expect(r.findings[0]?.message).toMatch(/MUE of 2 per date of service \(MAI 3 Date of Service Edit: Clinical/);
    expect(r.findings[0]?.fix).toMatch(/appeal with documentation/);
  });
});

describe('setting tables', () => {
  test('reads the outpatient hospital table for an institutional claim', () => {
    expect(run([units('71046', 3)], { claimType: 'institutional' }).findings).toEqual([]);
    const r = run([units('71046', 3)]);
    expect(r.findings).toMatchObject([{ code: 'MUE_EXCEEDED_CLINICAL', source: { dataset: 'mue-practitioner' } }]);
    const h = run([units('71046', 4)], { claimType: 'institutional' });
    expect(h.findings).toMatchObject([{ source: { dataset: 'mue-outpatient-hospital', release: '2026Q2' } }]);
  });

  test('edits an outpatient type of bill and one without a type of bill, never an inpatient one (paid per stay)', () => {
    const over = [units('71046', 4)];
    for (const billType of ['131', '121', '141', '851']) {
      expect(run(over, { claimType: 'institutional', billType }).findings, billType).toHaveLength(1);
    }
    expect(run(over, { claimType: 'institutional' }).findings).toHaveLength(1);
    for (const billType of ['111', '181', '211', '411']) {
      const r = run(over, { claimType: 'institutional', billType });
      expect(r.findings, billType).toEqual([]);
      expect(r.notChecked, billType).toEqual([]);
    }
  });

  test('reads the DME supplier table for a DME claim', () => {
    expect(run([units('E0601', 1)], { claimType: 'dme' }).findings).toEqual([]);
    const r = run([units('E0601', 2)], { claimType: 'dme' });
    expect(r.findings).toMatchObject([{ code: 'MUE_EXCEEDED_CLINICAL', source: { dataset: 'mue-dme' } }]);
  });
});

describe('no data', () => {
  test('lists a code without an MUE row as not checked: unpublished or none, never a pass', () => {
    const r = run(['99213', 'G0151']);
    expect(r.findings).toEqual([]);
    expect(r.notChecked).toMatchObject([{ rule: 'ncci.mue', lines: [2] }]);
    expect(r.notChecked[0]?.missing).toMatch(/MUE value \(unpublished or none\) of G0151 in mue-practitioner 2026Q2/);
  });

  test('an ICD-10-PCS inpatient procedure on a line has no MUE to look up: neither checked nor "not checked"', () => {
    const r = run([units('71046', 1), units('0BH17EZ', 1)], { claimType: 'institutional' });
    expect(r.findings).toEqual([]);
    expect(r.notChecked).toEqual([]);
  });

  test('one unit over an MUE of 0 "exceeds" it (0079U, MAI 3 in the practitioner table)', () => {
    const r = run([units('0079U', 1)]);
    expect(r.findings.map((f) => f.code)).toEqual(['MUE_EXCEEDED_CLINICAL']);
    expect(r.findings[0]?.message).toMatch(/: 1 unit of 0079U on 2026-05-15 exceeds the MUE of 0 per date of service/);
  });

  test('lists the lines of a date no MUE table covers as not checked, once per date', () => {
    const r = run([units('36415', 5), units('99486', 9)], { dateOfServiceFrom: '2026-03-15' });
    expect(r.findings).toEqual([]);
    expect(r.notChecked).toMatchObject([{ lines: [1, 2], missing: 'mue-practitioner for 2026-03-15' }]);
    // The April 2026 tables answer for their quarter only: July is the next quarter's, which is not loaded.
    const later = run([units('36415', 5), units('99486', 9)], { dateOfServiceFrom: '2026-07-01' });
    expect(later.findings).toEqual([]);
    expect(later.notChecked).toMatchObject([{ lines: [1, 2], missing: 'mue-practitioner for 2026-07-01' }]);
    expect(run([units('36415', 5)], { dateOfServiceFrom: '2026-06-30' }).findings.map((f) => f.code)).toEqual(['MUE_EXCEEDED_CLINICAL']);
  });
});

describe('long claims', () => {
  test('group lines by code and date alike above the line count where groups are kept in a map', () => {
    // 40 lines: 36 filler lines of distinct dates, then the G0439 (MAI 2) and 36415 (MAI 3) lines of the short claims.
    const filler = Array.from({ length: 36 }, (_, i) =>
      units('99486', 1, { dateOfService: `2026-05-${String(16 + (i % 14)).padStart(2, '0')}` }),
    );
    const tail = [units('G0439', 1), units('36415', 2), units('G0439', 1), units('36415', 1)];
    const short = run(tail);
    const long = run([...filler, ...tail]);
    expect(short.findings.map((f) => f.code)).toEqual(['MUE_EXCEEDED', 'MUE_EXCEEDED_CLINICAL']);
    const shape = (f: (typeof short.findings)[number], shift: number): object => ({
      code: f.code,
      severity: f.severity,
      lines: f.lines.map((n) => n - shift),
      codes: f.codes,
      source: f.source,
      fix: f.fix,
    });
    expect(long.findings.map((f) => shape(f, 36))).toEqual(short.findings.map((f) => shape(f, 0)));
    expect(long.findings[0]?.message).toMatch(/^Lines 37, 39 \(summed\): 2 units of G0439 on 2026-05-15/);
    expect(long.notChecked).toEqual([]);
  });
});
