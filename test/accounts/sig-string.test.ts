// SigStringBasic's computation and the timestamp rules (operations.md): timeStampIso8601 wins over timeStamp,
// neither means now, the result is UTC yyyy-MM-ddTHH:mm:ss.fffZ, and the parts are joined with newlines.
import { describe, expect, test } from 'vitest';
import { parseTimestamp, sigStringBasic, signableString } from '../../src/accounts/index.js';
import { T0 } from '../helpers/accounts.js';

describe('sigStringBasic', () => {
  test('timeStampIso8601 wins over timeStamp, converted to UTC', () => {
    expect(
      sigStringBasic(
        {
          apiKey: 'ak_x',
          userName: 'alice',
          timeStampIso8601: '2026-03-01T08:30:00-05:00',
          timeStamp: '2020-01-01T00:00:00Z',
        },
        T0,
      ),
    ).toEqual({
      ok: true,
      value: { timeStampUtc: '2026-03-01T13:30:00.000Z', signableString: 'ak_x\nalice\n2026-03-01T13:30:00.000Z' },
    });
  });

  test('timeStamp is used without timeStampIso8601, including the wire /Date()/ form; neither means now', () => {
    expect(sigStringBasic({ apiKey: 'k', userName: 'u', timeStamp: '2026-03-01T13:30:00.5+00:00' }, T0)).toMatchObject({
      value: { timeStampUtc: '2026-03-01T13:30:00.500Z' },
    });
    expect(sigStringBasic({ timeStamp: `/Date(${T0}+0000)/` }, 0)).toMatchObject({
      value: { timeStampUtc: '2026-01-15T12:00:00.000Z' },
    });
    expect(sigStringBasic({ apiKey: 'k', userName: 'u' }, T0)).toEqual({
      ok: true,
      value: { timeStampUtc: '2026-01-15T12:00:00.000Z', signableString: 'k\nu\n2026-01-15T12:00:00.000Z' },
    });
  });

  test('an unreadable timestamp is InvalidValue on its field', () => {
    expect(sigStringBasic({ timeStampIso8601: 'next tuesday' }, T0)).toMatchObject({
      ok: false,
      errorCode: 'InvalidValue',
      errors: [
        { fieldName: 'timeStampIso8601', message: "'next tuesday' is an invalid value for 'timeStampIso8601'." },
      ],
    });
  });

  test('signableString joins key, user and timestamp with newlines', () => {
    expect(signableString('a', 'b', 'c')).toBe('a\nb\nc');
  });
});

describe('parseTimestamp', () => {
  test.each([
    ['2026-01-15T12:00:00Z', T0],
    ['2026-01-15T12:00:00.000Z', T0],
    ['2026-01-15T12:00:00.0004999Z', T0],
    ['2026-01-15T12:00Z', T0],
    ['2026-01-15T12:00:00', T0],
    ['2026-01-15T14:00:00+02:00', T0],
    ['2026-01-15T14:00:00+0200', T0],
    ['2026-01-15T07:00:00-05', T0],
    [`/Date(${T0})/`, T0],
  ])('%s', (text, expected) => {
    expect(parseTimestamp(text)).toBe(expected);
  });

  test.each([
    '',
    '2026-02-30T00:00:00Z',
    '2026-01-15T24:00:00Z',
    '2026-01-15',
    'Thu, 15 Jan 2026 12:00:00 GMT',
    '1768478400000',
    '/Date(99999999999999999)/',
  ])('rejects %j', (text) => {
    expect(parseTimestamp(text)).toBeUndefined();
  });
});
