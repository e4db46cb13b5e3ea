import { describe, expect, test } from 'vitest';
import {
  formatWcfDate,
  parseBoolean,
  parseInteger,
  splitList,
  toDate,
  toDateTime,
} from '../../../src/http/wire/values.js';

describe('value conversion (wire.md §4)', () => {
  test('reads decimal integers and reports values outside the bounds as OutOfRange', () => {
    expect(parseInteger(' 42 ', -10, 100)).toEqual({ ok: true, value: 42 });
    expect(parseInteger('+7', 0, 10)).toEqual({ ok: true, value: 7 });
    expect(parseInteger('2147483648', -2147483648, 2147483647)).toEqual({ ok: false, code: 'OutOfRange' });
    expect(parseInteger('1.5', 0, 10)).toEqual({ ok: false, code: 'InvalidValue' });
    expect(parseInteger('ten', 0, 10)).toEqual({ ok: false, code: 'InvalidValue' });
  });

  test('reads true/false in any case and 1/0 as booleans', () => {
    expect(parseBoolean('TRUE')).toEqual({ ok: true, value: true });
    expect(parseBoolean('False')).toEqual({ ok: true, value: false });
    expect(parseBoolean('1')).toEqual({ ok: true, value: true });
    expect(parseBoolean('0')).toEqual({ ok: true, value: false });
    expect(parseBoolean('yes').ok).toBe(false);
  });

  test('reads a date from an ISO date, a date-time in its own offset and /Date(ms±hhmm)/', () => {
    expect(toDate('2024-03-01')).toBe('2024-03-01');
    expect(toDate('2024-03-01T23:30:00-05:00')).toBe('2024-03-01');
    expect(toDate('/Date(1709335800000-0500)/')).toBe('2024-03-01'); // 2024-03-01T23:30Z-05:00 local
    expect(toDate('/Date(1709335800000)/')).toBe('2024-03-01');
    expect(toDate('/Date(1709335800000+0100)/')).toBe('2024-03-02');
    expect(toDate('\\/Date(1709335800000)\\/')).toBe('2024-03-01');
    expect(toDate('2024-02-30')).toBeUndefined();
    expect(toDate('03/01/2024')).toBeUndefined();
  });

  test('reads date-times keeping their offset, UTC when none', () => {
    expect(toDateTime('2024-03-01T10:20:30+01:00')).toBe('2024-03-01T10:20:30+01:00');
    expect(toDateTime('2024-03-01T10:20:30.123+0100')).toBe('2024-03-01T10:20:30.123+01:00');
    expect(toDateTime('2024-03-01T10:20')).toBe('2024-03-01T10:20:00Z');
    expect(toDateTime('2024-03-01')).toBe('2024-03-01T00:00:00Z');
    expect(toDateTime('/Date(1700000000000+0000)/')).toBe('2023-11-14T22:13:20.000+00:00');
    expect(toDateTime('/Date(1700000000000)/')).toBe('2023-11-14T22:13:20.000Z');
    expect(toDateTime('2024-03-01T25:00:00Z')).toBeUndefined();
  });

  test('writes WCF dates with the offset of the ISO value', () => {
    expect(formatWcfDate('2023-11-14T22:13:20.000Z')).toBe('/Date(1700000000000+0000)/');
    expect(formatWcfDate('2023-11-14T23:13:20.000+01:00')).toBe('/Date(1700000000000+0100)/');
  });

  test('splits lists written a,b and [a,b], with quoted items holding commas', () => {
    expect(splitList('a,b')).toEqual(['a', 'b']);
    expect(splitList('[a, b]')).toEqual(['a', 'b']);
    expect(splitList('"a,b",c')).toEqual(['a,b', 'c']);
    expect(splitList('"say ""hi""",x')).toEqual(['say "hi"', 'x']);
    expect(splitList('a,,b,')).toEqual(['a', 'b']);
    expect(splitList('')).toEqual([]);
  });
});
