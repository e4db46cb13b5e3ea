// ncci.add-on on the real add-on code edit file (AOC_V2026Q2-MCR, release 2026Q2, in force from 2026-04-01). Rows
// used (add-on code, primary code, edit type, in force from):
//   11045  11042  1  2013-04-01   (its only primary)
//   0984T  36221, 36222, 36223, 36224, 36225, 36226, 37215, 37216  3  2025-10-01
//   0054T  CCCCC  2  2013-04-01   (contractor-defined primaries)
//   0131U  0102U, 81162  1  2019-10-01, deleted after 2025-12-31
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
  validateClaim(ref, claimOf(fields, ['L97.419'], lines), { checks: ['ncci.add-on'] });

describe('type 1 add-on codes', () => {
  test('passes an add-on code with its primary code on the same date', () => {
    const r = run(['11042', '11045']);
    expect(r.findings).toEqual([]);
    expect(r.notChecked).toEqual([]);
  });

  test('flags an add-on code without its primary code as an error naming the primary', () => {
    const r = run(['99213', '11045']);
    expect(r.findings).toMatchObject([
      {
        rule: 'ncci.add-on',
        code: 'AOC_NO_PRIMARY',
        severity: 'error',
        lines: [2],
        codes: ['11045'],
        source: { dataset: 'ncci-aoc', release: '2026Q2' },
      },
    ]);
    expect(r.findings[0]?.message).toMatch(/11045 is an add-on code \(AOC edit type 1, ncci-aoc 2026Q2\)/);
    expect(r.findings[0]?.fix).toBe('Report its primary procedure (11042) on the same date, or remove 11045.');
  });

  test('flags an add-on code whose primary code is on another date', () => {
    const r = run([{ procedureCode: '11042', dateOfService: '2026-05-14' }, '11045']);
    expect(r.findings).toMatchObject([{ code: 'AOC_NO_PRIMARY', lines: [2] }]);
  });

  test('reports nothing for an add-on code whose edits were deleted before the date', () => {
    expect(run(['0131U']).findings).toEqual([]);
  });
});

describe('type 2 and 3 add-on codes', () => {
  test('passes a type 3 add-on code with one of its listed primary codes', () => {
    expect(run(['36224', '0984T']).findings).toEqual([]);
  });

  test('warns on a type 3 add-on code without a listed primary: the contractor may accept others', () => {
    const r = run(['99213', '0984T']);
    expect(r.findings).toMatchObject([
      { code: 'AOC_NO_LISTED_PRIMARY', severity: 'warning', lines: [2], codes: ['0984T'] },
    ]);
    expect(r.findings[0]?.message).toMatch(/AOC edit type 3.*without a listed primary code/);
  });

  test('warns on a type 2 add-on code: the contractor defines its primary codes', () => {
    const r = run(['0054T']);
    expect(r.findings).toMatchObject([{ code: 'AOC_NO_LISTED_PRIMARY', severity: 'warning', lines: [1] }]);
    expect(r.findings[0]?.message).toMatch(/AOC edit type 2.*reported with no other procedure.*contractor defines/);
  });
});

test('edits an outpatient type of bill, not an inpatient one (paid per stay)', () => {
  expect(run(['11045'], { claimType: 'institutional', billType: '131' }).findings).toMatchObject([
    { code: 'AOC_NO_PRIMARY' },
  ]);
  const r = run(['11045'], { claimType: 'institutional', billType: '111' });
  expect(r.findings).toEqual([]);
  expect(r.notChecked).toEqual([]);
});

test('lists the lines of a date no AOC release covers as not checked, never a pass', () => {
  const r = run(['99213', '11045'], { dateOfServiceFrom: '2026-03-31' });
  expect(r.findings).toEqual([]);
  expect(r.notChecked).toMatchObject([{ rule: 'ncci.add-on', lines: [1, 2], missing: 'ncci-aoc for 2026-03-31' }]);
});

test('an ICD-10-PCS procedure line is no add-on code: on a date no release covers it is not listed as not checked', () => {
  const r = run(['99213', '0BH17EZ'], { dateOfServiceFrom: '2026-03-31', claimType: 'institutional' });
  expect(r.notChecked).toMatchObject([{ rule: 'ncci.add-on', lines: [1] }]);
});
