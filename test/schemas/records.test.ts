import { expect, test } from 'vitest';
import { setOwn } from '../../src/schemas/records.js';

test('setOwn makes every key an own member, __proto__ included, on a plain object', () => {
  const r: Record<string, number> = {};
  for (const [k, v] of [['a', 1], ['__proto__', 2], ['constructor', 3]] as const) {
    setOwn(r, k, v);
  }
  expect(Object.keys(r)).toEqual(['a', '__proto__', 'constructor']);
  expect(Object.getPrototypeOf(r)).toBe(Object.prototype);
  expect(JSON.stringify(r)).toBe('{"a":1,"__proto__":2,"constructor":3}');
});
