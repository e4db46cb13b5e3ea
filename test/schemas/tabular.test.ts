// rangeCovers compares code prefixes without slicing; it must answer exactly as the slice comparison it replaced.
import { expect, test } from 'vitest';
import { qualifierPattern, rangeCovers, rangeNames } from '../../src/schemas/tabular.js';

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

test('qualifierPattern reads the Tabular\'s qualifier forms as a test on the codes a range covers', () => {
  const none = (): string => '';
  const names = (qualifier: string, first: string, last: string, code: string, sevenChars: (w: string) => string = none): boolean =>
    rangeNames({ first, last, pattern: qualifierPattern(qualifier, sevenChars) }, code);
  // 7th character, by letter, and by the kind of encounter the definitions name.
  expect(names('with 7th character B', 'S92', 'S92', 'S92414B')).toBe(true);
  expect(names('with 7th character B', 'S92', 'S92', 'S92414S')).toBe(false);
  expect(names('with 7th character B', 'S92', 'S92', 'S924')).toBe(false);
  const open = (words: string): string => (words === 'open fracture' ? 'BCEFHJMNQR' : '');
  expect(names('with open fracture 7th character', 'S52', 'S52', 'S52501C', open)).toBe(true);
  expect(names('with open fracture 7th character', 'S52', 'S52', 'S52501A', open)).toBe(false);
  expect(qualifierPattern('with open fracture 7th character', none)).toBeUndefined();
  // The characters after the category: one subtree, one code, a span.
  expect(names('with .61-', 'E08', 'E13', 'E11618')).toBe(true);
  expect(names('with .61-', 'E08', 'E13', 'E1169')).toBe(false);
  expect(names('with .610', 'E08', 'E13', 'E09610')).toBe(true);
  expect(names('with .51-.52', 'E08', 'E13', 'E1152')).toBe(true);
  expect(names('with .51-.52', 'E08', 'E13', 'E1159')).toBe(false);
  // A character at a position; the code's last characters.
  expect(names('with fifth or sixth character 5', 'T36', 'T65', 'T360X5A')).toBe(true);
  expect(names('with fifth or sixth character 5', 'T36', 'T65', 'T360X1A')).toBe(false);
  expect(names('with fifth-character 1', 'O30', 'O30', 'O3012')).toBe(false);
  expect(names('with fifth-character 1', 'O30', 'O30', 'O3001')).toBe(true);
  expect(names('with fifth to sixth characters 51', 'T36', 'T50', 'T3651XA')).toBe(false);
  expect(names('with final characters -23', 'I69', 'I69', 'I69023')).toBe(true);
  expect(names('with final characters -23', 'I69', 'I69', 'I69020')).toBe(false);
  // A dotted list: the characters after the category are one of them (E11.00, E11.01; not E11.9 nor E11.600).
  const dotted = 'with final characters .00 or .01';
  expect(['E1100', 'E1101', 'E119', 'E11600'].map((c) => names(dotted, 'E11', 'E11', c))).toEqual([true, true, false, false]);
  // Prose is not read: the range is then left out by the index.
  expect(qualifierPattern('with appropriate 7th character', open)).toBeUndefined();
  expect(qualifierPattern('with tuberculosis', none)).toBeUndefined();
  // Without a qualifier a range names every code it covers.
  expect(rangeNames({ first: 'S92', last: 'S92' }, 'S92414S')).toBe(true);
});
