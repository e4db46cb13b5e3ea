import { describe, expect, test } from 'vitest';
import { parseNoteCodeRanges, rangeCovers } from '../../../src/refdata/notes/code-ranges.js';

const refs = (text: string): [string, string, string, boolean, string | null][] =>
  parseNoteCodeRanges(text).map((r) => [r.first, r.last, r.text, r.incomplete, r.qualifier]);

describe('parseNoteCodeRanges', () => {
  test('reads single codes, ranges and dash-suffixed codes, in or out of parentheses', () => {
    expect(refs('diabetes mellitus (E08-E13)')).toEqual([['E08', 'E13', 'E08-E13', false, null]]);
    expect(refs('insulin (Z79.4)')).toEqual([['Z794', 'Z794', 'Z79.4', false, null]]);
    expect(refs('Conditions classifiable to E08-E13')).toEqual([['E08', 'E13', 'E08-E13', false, null]]);
    expect(refs('tuberculosis (A15-A19)')).toEqual([['A15', 'A19', 'A15-A19', false, null]]);
    expect(
      refs('complications of surgical procedures during pregnancy, childbirth and the puerperium (O00-O9A)'),
    ).toEqual([['O00', 'O9A', 'O00-O9A', false, null]]);
    expect(refs('intracranial injury (S06.-)')).toEqual([['S06', 'S06', 'S06.-', true, null]]);
    expect(refs('type 2 diabetes mellitus (E11.-)')).toEqual([['E11', 'E11', 'E11.-', true, null]]);
    expect(refs('gestational diabetes (O24.4-)')).toEqual([['O244', 'O244', 'O24.4-', true, null]]);
    expect(refs('malignant neoplasm of auricular canal (external) (C43.2-,C44.2-)')).toEqual([
      ['C432', 'C432', 'C43.2-', true, null],
      ['C442', 'C442', 'C44.2-', true, null],
    ]);
  });

  test('reads a qualifier on the characters of the named codes', () => {
    expect(refs('adverse effect of drugs (T36-T65 with fifth or sixth character 5)')).toEqual([
      ['T36', 'T65', 'T36-T65', false, 'with fifth or sixth character 5'],
    ]);
    expect(refs('diabetic (peripheral) angiopathy (E08-E13 with .51-.52)')).toEqual([
      ['E08', 'E13', 'E08-E13', false, 'with .51-.52'],
    ]);
    expect(refs('open skull fracture (S02.- with 7th character B)')).toEqual([
      ['S02', 'S02', 'S02.-', true, 'with 7th character B'],
    ]);
    expect(
      refs('fluency disorder (stuttering) following cerebrovascular disease (I69. with final characters -23)'),
    ).toEqual([['I69', 'I69', 'I69', false, 'with final characters -23']]);
    // The Tabular's own spellings: no space before it (S91's note), words before the ordinal (S51's).
    expect(refs('open fracture of ankle, foot and toes (S92.-with 7th character B)')).toEqual([
      ['S92', 'S92', 'S92.-', true, 'with 7th character B'],
    ]);
    expect(refs('open fracture of elbow and forearm (S52.- with open fracture 7th character)')).toEqual([
      ['S52', 'S52', 'S52.-', true, 'with open fracture 7th character'],
    ]);
    // After a comma-separated list, the qualifier restricts every code of the list (E87.0's FY2024 addendum note).
    const final = 'with final characters .00 or .01';
    expect(refs(`diabetes with hyperosmolarity (E08, E09, E11, E13 ${final})`)).toEqual([
      ['E08', 'E08', 'E08', false, final],
      ['E09', 'E09', 'E09', false, final],
      ['E11', 'E11', 'E11', false, final],
      ['E13', 'E13', 'E13', false, final],
    ]);
    // A list broken by other words, or a code already qualified, keeps its own.
    expect(refs('K50.- and A00 (A01 with 7th character B)').map((r) => r[4])).toEqual([null, null, 'with 7th character B']);
    // Prose after a code is not a qualifier, nor is a word that starts with "with".
    expect(refs('S92.-without displacement')).toEqual([['S92', 'S92', 'S92.-', true, null]]);
    expect(refs('Any condition in J60-J64 with tuberculosis, any type in A15')).toEqual([
      ['J60', 'J64', 'J60-J64', false, null],
      ['A15', 'A15', 'A15', false, null],
    ]);
  });

  test('reads the irregular range spellings of the tabular', () => {
    expect(refs('head injury (S00.- to S09.-)')).toEqual([['S00', 'S09', 'S00.- to S09.-', true, null]]);
    expect(refs('atherosclerosis of the extremities (I70.2--I70.7-)')).toEqual([
      ['I702', 'I707', 'I70.2--I70.7-', true, null],
    ]);
    expect(refs('specified syndactyly (Q70.0- -Q70.3-)')).toEqual([['Q700', 'Q703', 'Q70.0- -Q70.3-', true, null]]);
    expect(refs('rheumatic fever with heart involvement (I01.0 -I01.9)')).toEqual([
      ['I010', 'I019', 'I01.0 -I01.9', false, null],
    ]);
    expect(refs('localized abdominal pain (R10.1-R10.3-)')).toEqual([['R101', 'R103', 'R10.1-R10.3-', true, null]]);
    expect(refs('benign neoplasm of testis (D29.2.-)')).toEqual([['D292', 'D292', 'D29.2.-', true, null]]);
    expect(refs("abscess of intestine with Crohn's disease (K50.014, K50.114,)").map((r) => r[0])).toEqual([
      'K50014',
      'K50114',
    ]);
    expect(refs('specified adverse effects of drugs and medicaments (A00-R94 and T80-T88.6, T88.8)')).toEqual([
      ['A00', 'R94', 'A00-R94', false, null],
      ['T80', 'T886', 'T80-T88.6', false, null],
      ['T888', 'T888', 'T88.8', false, null],
    ]);
  });

  test('names no code in plain prose, vitamin names or gene symbols, and survives an empty note', () => {
    expect(refs('')).toEqual([]);
    expect(refs('code to identify control using:')).toEqual([]);
    expect(refs('vitamin B12 deficiency (E53.8)')).toEqual([['E538', 'E538', 'E53.8', false, null]]);
    expect(refs('glucose-6-phosphate dehydrogenase (G6PD) deficiency without anemia (D75.A)')).toEqual([
      ['D75A', 'D75A', 'D75.A', false, null],
    ]);
    expect(refs('influenza due to H1N1 virus')).toEqual([]);
    expect(refs('with C3 glomerulopathy')).toEqual([]);
  });
});

describe('rangeCovers', () => {
  test('compares the first characters of the code with each end of the range', () => {
    expect(rangeCovers({ first: 'E08', last: 'E13' }, 'E1165')).toBe(true);
    expect(rangeCovers({ first: 'E08', last: 'E13' }, 'E14')).toBe(false);
    expect(rangeCovers({ first: 'O00', last: 'O9A' }, 'O9A11')).toBe(true);
    expect(rangeCovers({ first: 'O00', last: 'O9A' }, 'O993')).toBe(true);
    expect(rangeCovers({ first: 'I702', last: 'I707' }, 'I70399')).toBe(true);
    expect(rangeCovers({ first: 'I702', last: 'I707' }, 'I70')).toBe(false);
    expect(rangeCovers({ first: 'I702', last: 'I707' }, 'I708')).toBe(false);
    expect(rangeCovers({ first: 'Z794', last: 'Z794' }, 'Z794')).toBe(true);
  });
});
