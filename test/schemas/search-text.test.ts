// The search tokeniser (issue 13 §1): folding, splitting, the light stemmer, and the edit distance of corrections.
import { describe, expect, test } from 'vitest';
import { editDistance, stem, textWords } from '../../src/schemas/search-text.js';

describe('textWords', () => {
  test('folds case and accents, splits hyphens and slashes, keeps numbers, adds the joined form of a hyphenated word', () => {
    expect(textWords('Gastro-esophageal reflux, Schönlein w/o esophagitis, stage 3').map((w) => w.word)).toEqual([
      'gastro',
      'esophageal',
      'gastroesophageal',
      'reflux',
      'schonlein',
      'w',
      'o',
      'esophagitis',
      'stage',
      '3',
    ]);
  });

  test('positions count the words; the joined form shares its first part position', () => {
    expect(textWords('non-traumatic fracture').map((w) => [w.word, w.position])).toEqual([
      ['non', 0],
      ['traumatic', 1],
      ['nontraumatic', 0],
      ['fracture', 2],
    ]);
  });
});

describe('stem', () => {
  test.each([
    ['fractures', 'fracture'],
    ['injuries', 'injury'],
    ['femurs', 'femur'],
    ['abscesses', 'abscess'],
    ['bleeding', 'bleed'],
    ['fractured', 'fractur'],
    ['diabetes', 'diabete'],
    ['sinus', 'sinus'],
    ['tb', 'tb'],
    ['n18.30', 'n18.30'],
  ])('%s → %s', (word, stemmed) => {
    expect(stem(word)).toBe(stemmed);
  });

  test('a stemmed query word is a prefix of the stemmed document word it should find', () => {
    expect(stem('fracture').startsWith(stem('fractured'))).toBe(true);
    expect(stem('infections').startsWith(stem('infected'))).toBe(true);
  });
});

describe('editDistance', () => {
  test('counts a transposition as one edit and stops past the bound', () => {
    expect(editDistance('pnuemonia', 'pneumonia')).toBe(1);
    expect(editDistance('hypertenson', 'hypertension')).toBe(1);
    expect(editDistance('asthma', 'asthma')).toBe(0);
    expect(editDistance('asthma', 'plasma')).toBe(2);
    expect(editDistance('cat', 'category')).toBe(2);
  });
});
