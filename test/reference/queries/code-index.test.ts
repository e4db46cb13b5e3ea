// The code index answers exactly as a Map from code to first position would, for codes that fit the numeric encoding
// and for those that do not, and the encoding keeps code order.
import { expect, test } from 'vitest';
import { codeIndex, codeKey, positionOf } from '../../../src/reference/queries/code-index.js';

test('codeKey keeps code order and refuses what it cannot hold', () => {
  const ordered = ['0', '00', '001', '0019', '01', '1', '9ZZZZZZ', 'A', 'A0', 'A00', 'A000', 'S72001A', 'Z', 'ZZZZZZZ'];
  const keys = ordered.map(codeKey);
  for (let i = 1; i < keys.length; i++) {
    expect(keys[i], `${ordered[i - 1] ?? ''} < ${ordered[i] ?? ''}`).toBeGreaterThan(keys[i - 1] as number);
  }
  expect(codeKey('ZZZZZZZ')).toBeLessThan(2 ** 53);
  for (const bad of ['', 'ZZZZZZZZ', 'a01', 'A0.1', 'A 1', 'É01']) {
    expect(codeKey(bad), bad).toBe(-1);
  }
});

test('positionOf answers as a Map of first positions, over many codes and strings not in the list', () => {
  // 20,000 pseudo-random codes of 1-7 characters (some repeated), plus codes the encoding cannot hold.
  let seed = 42;
  const next = (): number => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed;
  };
  const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  const randomCode = (): string => {
    let s = '';
    const n = 1 + (next() % 7);
    for (let i = 0; i < n; i++) {
      s += alphabet[next() % 36] ?? '';
    }
    return s;
  };
  const codes = Array.from({ length: 20_000 }, randomCode);
  codes.push('A0.1', 'TOOLONGCODE', codes[5] as string, 'A0.1');
  const expected = new Map<string, number>();
  codes.forEach((c, i) => {
    if (!expected.has(c)) {
      expected.set(c, i);
    }
  });
  const index = codeIndex(codes);
  expect(index.keys.length).toBeGreaterThanOrEqual(codes.length * 2);
  for (const [code, at] of expected) {
    expect(positionOf(index, code)).toBe(at);
  }
  const probes = [...Array.from({ length: 20_000 }, randomCode), '', 'a', 'A0.2', 'TOOLONGCODE!', 'ZZZZZZZZ'];
  for (const probe of probes) {
    expect(positionOf(index, probe), probe).toBe(expected.get(probe) ?? -1);
  }
});

test('an empty list answers -1', () => {
  const index = codeIndex([]);
  expect(positionOf(index, 'A00')).toBe(-1);
  expect(positionOf(index, '')).toBe(-1);
});
