// PrimaryLookup over the full reference database (operations.md "PrimaryLookup").
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { primaryLookup, primaryLookups } from '../../../src/engines/mapping/index.js';
import type { Reference } from '../../../src/reference/index.js';
import { PrimaryLookupResult } from '../../../src/schemas/mapping.js';
import { openSharedReference } from '../../helpers/reference-db.js';

const DATE = '2025-10-15';
let ref: Reference;
beforeAll(async () => {
  ref = await openSharedReference();
});
afterAll(() => ref.close());

describe('primaryLookup', () => {
  test('250.00 gives E11.9 with both ICD-9-CM v32 titles, dotted or not', () => {
    const answer = primaryLookup(ref, '250.00', DATE);
    expect(answer).toEqual({
      result: {
        code: '250.00',
        codeAlt: '25000',
        longDescription:
          'Diabetes mellitus without mention of complication, type II or unspecified type, not stated as uncontrolled',
        shortDescription: 'DMII wo cmp nt st uncntr',
        primaryLookup: ['E11.9'],
      },
      messages: [],
    });
    expect(PrimaryLookupResult.safeParse(answer.result).success).toBe(true);
    expect(primaryLookup(ref, ' 25000', DATE)).toEqual(answer);
  });

  test('an unknown code gives an empty list and a message', () => {
    expect(primaryLookup(ref, '999.99', DATE)).toEqual({
      result: { code: '999.99', codeAlt: '99999', longDescription: '', shortDescription: '', primaryLookup: [] },
      messages: [
        { sourceCode: '999.99', code: 'GEM_NOT_FOUND', message: '999.99 is not an ICD-9-CM v32 diagnosis code.' },
      ],
    });
    expect(primaryLookup(ref, '01.23', DATE).messages).toEqual([
      {
        sourceCode: '01.23',
        code: 'GEM_WRONG_TYPE',
        message: '01.23 is not an ICD-9-CM diagnosis code; it is an ICD-9-CM procedure code.',
      },
    ]);
  });

  test('lists a combination by scenario and choice list', () => {
    // 073.0 → A70 (scenario 1, choice list 1) + J17 (choice list 2).
    expect(primaryLookup(ref, '073.0', DATE).result.primaryLookup).toEqual(['A70', 'J17']);
  });

  test('carries a target forward to the billable codes in force on the target date', () => {
    // 133.8 → B88.0, split on 2025-10-01 into B88.01 and B88.09.
    const after = primaryLookup(ref, '133.8', DATE);
    expect(after.result.primaryLookup).toEqual(['B88.01', 'B88.09']);
    expect(after.messages).toMatchObject([{ code: 'LOOKUP_CARRIED_FORWARD' }]);
    expect(primaryLookup(ref, '133.8', '2025-09-30').result.primaryLookup).toEqual(['B88.0']);
    // C83.39 became a header in FY2025; the conversion table has no link from it, so its billable codes stand for it.
    expect(primaryLookup(ref, '200.00', DATE).result.primaryLookup).toEqual(['C83.30', 'C83.390', 'C83.398']);
  });

  test('a date no loaded ICD-10-CM release covers gives an empty list and says no data, not "not billable"', () => {
    // Before the oldest loaded release (E11.9 was billable in 2016: the data to say so is not loaded), and after the
    // newest one ends (E11.9 was answered for 2030).
    for (const [date, why] of [
      ['2015-09-30', 'the oldest loaded starts 2023-10-01'],
      ['2030-01-01', 'the newest loaded, FY2026, ends 2026-09-30'],
    ] as const) {
      const { result, messages } = primaryLookup(ref, '250.00', date);
      expect(result.primaryLookup, date).toEqual([]);
      expect(messages).toMatchObject([
        { code: 'LOOKUP_NO_DATA', message: expect.stringContaining(`covers ${date} (${why})`) as unknown },
      ]);
      expect(messages[0]?.message).toContain('(E11.9)');
    }
    expect(primaryLookup(ref, '250.00', '2026-09-30').result.primaryLookup).toEqual(['E11.9']);
  });

  test('the batch form answers in order', () => {
    expect(primaryLookups(ref, ['431', '999.99', 'V01.0'], DATE).map((a) => a.result.primaryLookup)).toEqual([
      ['I61.9'],
      [],
      ['Z20.09'],
    ]);
  });
});
