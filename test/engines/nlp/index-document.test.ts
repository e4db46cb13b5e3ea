// The dictionary and the matcher on a small hand-made reference (rows in the shapes the reference port returns, a
// few ICD-10-CM codes): word-order variants, longest match first, Index main-term forms and nonessential modifiers,
// title acronyms, abbreviations, categories with alternatives, drugs, rows out of force, and offsets.
import { describe, expect, test } from 'vitest';
import { buildDictionary, dictionaryCovers } from '../../../src/engines/nlp/dictionary.js';
import { indexDocument } from '../../../src/engines/nlp/index.js';
import type { Reference } from '../../../src/reference/index.js';
import type { SearchIndexRow, SearchTitleRow } from '../../../src/reference/queries/search-docs.js';
import { CodeSystem } from '../../../src/schemas/code-systems.js';

const DATE = '2026-05-15';
const title = (code: string, text: string, billable = true, validTo: string | null = null): SearchTitleRow => ({
  system: CodeSystem.ICD10CM,
  code,
  validFrom: '2015-10-01',
  validTo,
  billable: billable ? 1 : 0,
  title: text,
  ord: null,
});
const index = (kind: SearchIndexRow['kind'], path: string, code: string, nemod: string | null = null): SearchIndexRow => ({
  kind,
  path,
  code,
  validFrom: '2015-10-01',
  validTo: null,
  nemod,
});
const TITLES = [
  title('M25562', 'Pain in left knee'),
  title('M2556', 'Pain in knee', false),
  title('M25561', 'Pain in right knee'),
  title('J189', 'Pneumonia, unspecified organism'),
  title('I10', 'Essential (primary) hypertension'),
  title('F431', 'Post-traumatic stress disorder (PTSD)', false),
  title('F4310', 'Post-traumatic stress disorder, unspecified'),
  title('S42001A', 'Fracture of unspecified part of right clavicle, initial encounter for closed fracture'),
  title('J45909', 'Unspecified asthma, uncomplicated'),
  title('Z9999', 'Retired code title', true, '2020-09-30'),
  title('F10921', 'Alcohol use, unspecified with intoxication delirium'),
  title('G43909', 'Migraine, unspecified'),
  title('G43009', 'Migraine without aura'),
  title('E1140', 'Type 2 diabetes mellitus with diabetic neuropathy, unspecified'),
  title('I110', 'Hypertensive heart disease with heart failure'),
  title('R079', 'Chest pain, unspecified'),
  title('M1611', 'Unilateral primary osteoarthritis, right hip'),
  title('M1612', 'Unilateral primary osteoarthritis, left hip'),
  title('M1610', 'Unilateral primary osteoarthritis, unspecified hip'),
  title('M161', 'Unilateral primary osteoarthritis of hip', false),
  title('M8445', 'Pathological fracture, femur and pelvis', false),
  title('M8448', 'Pathological fracture, other site', false),
];
const INDEX = [
  index('disease', 'Diabetes, diabetic > type 2', 'E119'),
  index('disease', 'Infection > urinary', 'N390', '(tract)'),
  index('disease', 'Asthma, asthmatic', 'J45909'),
  index('disease', 'Hypertension, hypertensive', 'I10', '(accelerated) (benign) (essential)'),
  index('disease', 'Encounter', 'Z7689'),
  index('disease', 'Tenderness, abdominal', 'R10819'),
  // In the Index's order: "Fracture, pathological" comes before "Fracture, traumatic", which has more subterms.
  index('disease', 'Fracture, pathological > femur', 'M8445'),
  index('disease', 'Fracture, pathological > pelvis', 'M8445'),
  index('disease', 'Fracture, pathological > vertebra', 'M8448'),
  index('disease', 'Fracture, traumatic > femur', 'S7290'),
  index('disease', 'Fracture, traumatic > pelvis', 'S329XXA'),
  index('disease', 'Fracture, traumatic > clavicle', 'S4200'),
  index('disease', 'Fracture, traumatic > radius', 'S529'),
  index('disease', 'Osteoarthritis > hip', 'M161'),
  index('drug', 'Metformin > Adverse effect', 'T383X5'),
  index('disease', 'Cold', 'J00'),
  index('disease', 'Cold > common', 'J00'),
  index('drug', 'Carbon monoxide > Poisoning, Accidental (unintentional)', 'T5891'),
];
const CODES = new Map<string, { billable: boolean; longTitle: string }>([
  ...TITLES.map((t) => [t.code, { billable: t.billable === 1, longTitle: t.title }] as const),
  ['E119', { billable: true, longTitle: 'Type 2 diabetes mellitus without complications' }],
  ['N390', { billable: true, longTitle: 'Urinary tract infection, site not specified' }],
  ['J00', { billable: true, longTitle: 'Acute nasopharyngitis [common cold]' }],
]);
const ref = {
  search: {
    titles: () => TITLES,
    inclusionTerms: () => [],
    indexRows: () => INDEX,
    seeRows: () => [],
    seeTerms: () => [],
    indexTree: () => [],
  },
  codes: {
    onDate: (_system: CodeSystem, code: string) => {
      const c = CODES.get(code);
      return c === undefined ? undefined : { system: CodeSystem.ICD10CM, code, ...c };
    },
    manyBillableDescendants: (_system: CodeSystem, codes: readonly string[]) =>
      new Map(
        codes.map((code) => {
          const under = [...CODES].filter(([c, v]) => c.startsWith(code) && c !== code && v.billable).map(([c]) => c).sort();
          return [code, { codes: under, total: under.length }] as const;
        }),
      ),
  },
} as unknown as Pick<Reference, 'search' | 'codes'>;

const found = (text: string): [string, string][] => indexDocument(ref, text, DATE).map((m) => [m.text, m.code]);

describe('buildDictionary', () => {
  test('rows in force only; generic words alone are left out; chemicals without an adverse effect too', () => {
    const dict = buildDictionary(ref, DATE);
    expect(dict.words.has('retir')).toBe(false);
    expect(found('retired code title')).toEqual([]);
    expect(found('Encounter for the visit')).toEqual([]);
    expect(found('carbon monoxide exposure')).toEqual([]);
    // A word a note uses in another sense is no mention alone ("cold to touch"), only in a longer name.
    expect(found('Hands are cold to touch')).toEqual([]);
    expect(found('common cold')).toEqual([['common cold', 'J00']]);
  });

  test('a dictionary holds for every date with the same rows in force, and only those', () => {
    const dict = buildDictionary(ref, DATE);
    expect(dictionaryCovers(dict, '2026-12-31')).toBe(true);
    expect(dictionaryCovers(dict, '2020-10-01')).toBe(true);
    // The retired title was in force up to 2020-09-30, and nothing before 2015-10-01.
    expect(dictionaryCovers(dict, '2020-09-30')).toBe(false);
    expect(dictionaryCovers(dict, '2015-09-30')).toBe(false);
    expect(dictionaryCovers(buildDictionary(ref, '2020-09-30'), '2019-01-01')).toBe(true);
    expect(dictionaryCovers(buildDictionary(ref, '2020-09-30'), DATE)).toBe(false);
  });
});

describe('indexDocument', () => {
  test('word order does not matter; the longest match wins; offsets slice the mention', () => {
    const text = 'Knee pain, left. Also pain in the left knee.';
    const mentions = indexDocument(ref, text, DATE);
    expect(mentions.map((m) => [m.text, m.code])).toEqual([
      ['Knee pain, left', 'M25.562'],
      ['pain in the left knee', 'M25.562'],
    ]);
    for (const m of mentions) {
      expect(text.slice(m.begin, m.end)).toBe(m.text);
    }
  });

  test('a header code is given with its billable codes as alternatives and a lower score', () => {
    const [m] = indexDocument(ref, 'knee pain', DATE);
    expect(m).toMatchObject({ code: 'M25.56', description: 'Pain in knee', alternatives: ['M25.561', 'M25.562'] });
    const [billable] = indexDocument(ref, 'left knee pain', DATE);
    expect(billable?.alternatives).toEqual([]);
    expect(m?.score ?? 1).toBeLessThan(billable?.score ?? 0);
  });

  test('Index main-term forms, nonessential modifiers, parentheses and "unspecified" left out of titles', () => {
    expect(found('type 2 diabetes')).toEqual([['type 2 diabetes', 'E11.9']]);
    // A main term's first segment stands alone when subterms follow, or when the rest is the same word's other form.
    expect(found('fracture of femur')).toEqual([['fracture of femur', 'S72.90']]);
    expect(found('tenderness')).toEqual([]);
    expect(found('abdominal tenderness')).toEqual([['abdominal tenderness', 'R10.819']]);
    expect(found('urinary tract infection')).toEqual([['urinary tract infection', 'N39.0']]);
    expect(found('urinary infection')).toEqual([['urinary infection', 'N39.0']]);
    expect(found('essential hypertension')).toEqual([['essential hypertension', 'I10']]);
    expect(found('pneumonia')).toEqual([['pneumonia', 'J18.9']]);
    // Only a segment that says nothing but "unspecified" is left out.
    expect(found('alcohol use')).toEqual([]);
    expect(found('alcohol use with intoxication delirium')).toEqual([['alcohol use with intoxication delirium', 'F10.921']]);
    expect(found('closed fracture of right clavicle, initial encounter')).toEqual([
      ['closed fracture of right clavicle, initial encounter', 'S42.001A'],
    ]);
  });

  test('abbreviations: the reviewed list (htn) and a title acronym (PTSD)', () => {
    expect(found('htn and PTSD')).toEqual([
      ['htn', 'I10'],
      ['PTSD', 'F43.1'],
    ]);
  });

  test('a conjunction ends a window; a trigger starts no mention but a name may run through one', () => {
    expect(found('asthma and pneumonia')).toEqual([
      ['asthma', 'J45.909'],
      ['pneumonia', 'J18.9'],
    ]);
    expect(found('no asthma')).toEqual([['asthma', 'J45.909']]);
    // A word said twice adds nothing to a window's bag (as in the titles' bags), and ends no hit.
    expect(found('knee pain knee left')).toEqual([['knee pain knee left', 'M25.562']]);
    expect(found('Type 2 diabetes mellitus with diabetic neuropathy')).toEqual([
      ['Type 2 diabetes mellitus with diabetic neuropathy', 'E11.40'],
    ]);
    expect(found('Hypertensive heart disease with heart failure')).toEqual([['Hypertensive heart disease with heart failure', 'I11.0']]);
    expect(found('chest pain, chest wall pain')[0]).toEqual(['chest pain', 'R07.9']);
    // A hyphen put in or left out: "post traumatic" meets the title's "Post-traumatic", "type-2" the Index's "type 2".
    expect(found('post traumatic stress disorder')).toEqual([['post traumatic stress disorder', 'F43.10']]);
    expect(found('type-2 diabetes')).toEqual([['type-2 diabetes', 'E11.9']]);
    // A side named says "unilateral".
    expect(found('Primary osteoarthritis of right hip')).toEqual([['Primary osteoarthritis of right hip', 'M16.11']]);
    const [migraine] = indexDocument(ref, 'Migraine without aura.', DATE);
    expect(migraine).toMatchObject({ text: 'Migraine without aura', code: 'G43.009', negated: 'false' });
    expect(found('cough/asthma/pneumonia')).toEqual([
      ['asthma', 'J45.909'],
      ['pneumonia', 'J18.9'],
    ]);
  });

  test('a main term\'s first word alone names the main term with the most subterms ("fracture" is traumatic)', () => {
    expect(found('fracture of femur')).toEqual([['fracture of femur', 'S72.90']]);
    expect(found('pathological fracture of femur')).toEqual([['pathological fracture of femur', 'M84.45']]);
    // Where the main term of most subterms has no such name, the other's word-alone form still names it.
    expect(found('fracture of vertebra')).toEqual([['fracture of vertebra', 'M84.48']]);
  });

  test('a side named with an Index path to a category whose codes differ by side gives that side\'s code', () => {
    expect(found('Osteoarthritis of left hip')).toEqual([['Osteoarthritis of left hip', 'M16.12']]);
    expect(found('right hip osteoarthritis')).toEqual([['right hip osteoarthritis', 'M16.11']]);
    // A hit does not end on the side word: the side may belong to what follows or be compared with the other.
    expect(found('osteoarthritis of hip, right worse than left')).toEqual([['osteoarthritis of hip', 'M16.1']]);
    expect(found('hip osteoarthritis, left knee replaced')).toEqual([['hip osteoarthritis', 'M16.1']]);
    // No side: the category, with its codes as alternatives.
    const [hip] = indexDocument(ref, 'osteoarthritis of hip', DATE);
    expect(hip).toMatchObject({ code: 'M16.1', alternatives: ['M16.10', 'M16.11', 'M16.12'] });
  });

  test('drugs are medications without a code; assertions a medication does not take are not-assessed', () => {
    const [m] = indexDocument(ref, 'Medications: metformin', DATE);
    expect(m).toMatchObject({ text: 'metformin', category: 'medication', code: '', uncertain: 'not-assessed', family: 'not-assessed', section: 'Medications' });
  });

  test('empty and blank text give nothing', () => {
    expect(indexDocument(ref, '', DATE)).toEqual([]);
    expect(indexDocument(ref, ' \n\t', DATE)).toEqual([]);
  });
});
