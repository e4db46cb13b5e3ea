// rangeCovers compares code prefixes without slicing; it must answer exactly as the slice comparison it replaced.
import { expect, test } from 'vitest';
import { rangeCovers, rangeNames } from '../../src/schemas/tabular.js';

const sliceCovers = (r: { first: string; last: string }, code: string): boolean =>
  code.slice(0, r.first.length) >= r.first && code.slice(0, r.last.length) <= r.last;

test('answers as the slice comparison on 200,000 random codes and ranges', () => {
  let seed = 7;
  const rnd = (n: number): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const chars = 'ABEIOSZ0123459X';
  const word = (min: number, max: number): string =>
    Array.from({ length: min + rnd(max - min + 1) }, () => chars[rnd(chars.length)]).join('');
  let covered = 0;
  for (let i = 0; i < 200_000; i++) {
    const a = word(1, 5);
    const b = rnd(3) === 0 ? a : word(1, 5);
    const range = a <= b ? { first: a, last: b } : { first: b, last: a };
    const code = rnd(2) === 0 ? `${range.first}${word(0, 3)}` : word(1, 7);
    const expected = sliceCovers(range, code);
    expect(rangeCovers(range, code), `${range.first}-${range.last} ${code}`).toBe(expected);
    covered += expected ? 1 : 0;
  }
  expect(covered).toBeGreaterThan(10_000);
});

test('rangeNames keeps to the 7th characters a qualified range allows', () => {
  const open = { first: 'S92', last: 'S92', seventh: 'B' };
  expect(rangeNames(open, 'S92414B')).toBe(true);
  expect(rangeNames(open, 'S92414S')).toBe(false);
  // A code without a 7th character is not one of them; without a restriction the range covers as before.
  expect(rangeNames(open, 'S924')).toBe(false);
  expect(rangeNames({ first: 'S92', last: 'S92' }, 'S92414S')).toBe(true);
  expect(rangeNames({ first: 'S52', last: 'S52', seventh: 'BCEFHJMNQR' }, 'S52501C')).toBe(true);
  expect(rangeNames({ first: 'S52', last: 'S52', seventh: 'BCEFHJMNQR' }, 'S62302B')).toBe(false);
});
