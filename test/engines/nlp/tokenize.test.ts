// Tokens of clinical text: offsets into the text as given, folded raw forms, content words stemmed as the search
// engine's documents are, and the sentence and clause boundaries matching and assertion scopes rely on.
import { describe, expect, test } from 'vitest';
import { contentWords, tokenize } from '../../../src/engines/nlp/tokenize.js';
import { foldText } from '../../../src/schemas/search-text.js';

describe('tokenize', () => {
  test('offsets slice the token out of the original text, accents and case included', () => {
    const text = 'Pt denies Chest-Pain; réfers to Crohn’s disease.';
    for (const t of tokenize(text).toArray()) {
      expect(foldText(text.slice(t.begin, t.end)).replace(/’/g, "'")).toBe(t.raw);
    }
    const raws = tokenize(text).toArray().map((t) => [text.slice(t.begin, t.end), t.raw]);
    expect(raws).toEqual([
      ['Pt', 'pt'],
      ['denies', 'denies'],
      ['Chest-Pain', 'chest-pain'],
      ['réfers', 'refers'],
      ['to', 'to'],
      ['Crohn’s', "crohn's"],
      ['disease', 'disease'],
    ]);
  });

  test('content words: stop words out, stems, hyphen and apostrophe joined, slash split, w/o and left-sided', () => {
    expect(contentWords('fractures of the femurs')).toEqual(['fracture', 'femur']);
    expect(contentWords('gastro-esophageal reflux')).toEqual(['gastroesophageal', 'reflux']);
    expect(contentWords("crohn's")).toEqual(['crohn']);
    expect(contentWords('nausea/vomiting')).toEqual(['nausea', 'vomit']);
    expect(contentWords('w/o')).toEqual(['without']);
    expect(contentWords('left-sided sciatica')).toEqual(['left', 'side', 'sciatica']);
    expect(contentWords('asthma, unspecified')).toEqual(['asthma']);
  });

  test('sentences end at . ! ? and a semicolon, and at a line break before a new item; clauses at : ( )', () => {
    const text = 'No fever. Cough; wheeze\n- rash\nthen itch: mild (old)';
    const at = (w: string): { sentence: number; clause: number } => {
      const t = tokenize(text).toArray().find((x) => x.raw === w);
      return { sentence: t?.sentence ?? -1, clause: t?.clause ?? -1 };
    };
    expect(at('no').sentence).toBe(at('fever').sentence);
    expect(at('cough').sentence).toBe(at('fever').sentence + 1);
    expect(at('wheeze').sentence).toBe(at('cough').sentence + 1);
    expect(at('rash').sentence).toBe(at('wheeze').sentence + 1);
    // A line break before a lower-case word continues the sentence.
    expect(at('then').sentence).toBe(at('rash').sentence);
    expect(at('mild').sentence).toBe(at('itch').sentence);
    expect(at('mild').clause).toBe(at('itch').clause + 1);
    expect(at('old').clause).toBe(at('mild').clause + 1);
    // A comma does not end a clause (titles have commas).
    const list = tokenize('fracture of clavicle, initial encounter').toArray();
    expect(new Set(list.map((t) => t.clause)).size).toBe(1);
  });

  test('a numbered item and a full stop before a closing mark end a sentence too', () => {
    const sentences = (text: string): number[] => tokenize(text).toArray().map((t) => t.sentence);
    expect(sentences('Denies fever\n2) cough')).toEqual([0, 0, 1, 1]);
    // ("3." is a sentence of its own: the full stop before a space ends it.)
    expect(sentences('Denies fever\n3. cough')).toEqual([0, 0, 1, 2]);
    expect(sentences('No fever.) Asthma')).toEqual([0, 0, 1]);
    expect(sentences('said "no fever." Asthma')).toEqual([0, 0, 0, 1]);
    // A decimal is no sentence end.
    expect(sentences('temp 38.2 today')).toEqual([0, 0, 0, 0]);
  });

  test('a slash parts a list into tokens, except between single letters (r/o, s/p, w/o)', () => {
    const text = 'cough/fever, HTN/DM2; r/o MI, s/p CABG';
    expect(tokenize(text).toArray().map((t) => [text.slice(t.begin, t.end), t.raw])).toEqual([
      ['cough', 'cough'],
      ['fever', 'fever'],
      ['HTN', 'htn'],
      ['DM2', 'dm2'],
      ['r/o', 'r/o'],
      ['MI', 'mi'],
      ['s/p', 's/p'],
      ['CABG', 'cabg'],
    ]);
  });

  test('skipped ranges (headings) are left out and end the sentence', () => {
    const text = 'HPI: cough\nPMH: asthma';
    const tokens = tokenize(text, [
      { begin: 0, end: 4 },
      { begin: 11, end: 15 },
    ]).toArray();
    expect(tokens.map((t) => t.raw)).toEqual(['cough', 'asthma']);
    expect(tokens[1]?.sentence).toBeGreaterThan(tokens[0]?.sentence ?? 0);
  });

  test('a text with more tokens than the first guess keeps every token and offset', () => {
    // One-letter words: far more tokens than one per four characters, so the columns grow several times.
    const text = Array.from({ length: 3000 }, (_, i) => String.fromCharCode(97 + (i % 26))).join(' ');
    const tokens = tokenize(text);
    expect(tokens.length).toBe(3000);
    const all = tokens.toArray();
    expect(all.every((t, i) => t.begin === i * 2 && t.end === i * 2 + 1 && t.raw === text[i * 2])).toBe(true);
    expect(new Set(all.map((t) => t.sentence))).toEqual(new Set([0]));
  });

  test('past the remembered forms (50,000) the memory is emptied and every token still gets its own form', () => {
    // 60,000 distinct words, then the first ones again: read after the table was emptied and refilled.
    const words = Array.from({ length: 60_000 }, (_, i) => `Word${i.toString(36)}`);
    const text = [...words, ...words.slice(0, 10)].join(' ');
    const tokens = tokenize(text);
    expect(tokens.length).toBe(60_010);
    for (const i of [0, 1, 49_999, 50_000, 59_999, 60_000, 60_009]) {
      expect(tokens.raw(i)).toBe((words[i % 60_000] as string).toLowerCase());
    }
    expect(tokens.form[60_000]?.raw).toBe(tokens.form[0]?.raw);
  });
});
