// Assertion triggers and their scopes (NegEx/ConText): pre- and post-triggers, "versus" both ways, pseudo-triggers,
// terminations, sentence ends, and the longest trigger winning ("no history of" negates, it is not history).
import { describe, expect, test } from 'vitest';
import { assertionsOf, findTriggers } from '../../../src/engines/nlp/assertions.js';
import { tokenize } from '../../../src/engines/nlp/tokenize.js';

/** The assertions covering the word `target` (a single token) in `text`. */
function on(text: string, target: string): string[] {
  const tokens = tokenize(text);
  const { triggers } = findTriggers(tokens, text);
  const i = tokens.toArray().findIndex((t) => t.raw === target);
  expect(i, `${target} in "${text}"`).toBeGreaterThanOrEqual(0);
  return [...assertionsOf(tokens, triggers, i, i)].sort();
}

describe('assertions', () => {
  test('pre-triggers reach forward over a list to the end of the sentence', () => {
    expect(on('Denies fever, chills, or cough.', 'cough')).toEqual(['negated']);
    expect(on('No fever. Cough present.', 'cough')).toEqual([]);
    expect(on('Negative for hematuria.', 'hematuria')).toEqual(['negated']);
  });

  test('a termination ends the scope: "no fever but cough"', () => {
    expect(on('No fever but reports cough.', 'fever')).toEqual(['negated']);
    expect(on('No fever but reports cough.', 'cough')).toEqual([]);
    expect(on('Negative except for rash.', 'rash')).toEqual([]);
  });

  test('post-triggers reach back: "pneumonia was ruled out", "appendicitis is suspected"', () => {
    expect(on('Pneumonia was ruled out.', 'pneumonia')).toEqual(['negated']);
    expect(on('Appendicitis is suspected.', 'appendicitis')).toEqual(['uncertain']);
    expect(on('Ruled out pneumonia.', 'pneumonia')).toEqual(['negated']);
  });

  test('uncertain, historical and family triggers; versus covers both sides', () => {
    expect(on('Possible pneumonia.', 'pneumonia')).toEqual(['uncertain']);
    expect(on('R/O sepsis.', 'sepsis')).toEqual(['uncertain']);
    expect(on('Migraine vs tension headache.', 'migraine')).toEqual(['uncertain']);
    expect(on('Migraine vs tension headache.', 'headache')).toEqual(['uncertain']);
    expect(on('History of asthma.', 'asthma')).toEqual(['historical']);
    expect(on('S/p appendectomy.', 'appendectomy')).toEqual(['historical']);
    expect(on('Mother had breast cancer.', 'cancer')).toEqual(['family']);
    expect(on('Family history of diabetes.', 'diabetes')).toEqual(['family']);
  });

  test('the longest trigger wins, and pseudo-triggers mean nothing', () => {
    expect(on('No history of asthma.', 'asthma')).toEqual(['negated']);
    expect(on('No change in her asthma.', 'asthma')).toEqual([]);
    expect(on('No increase in pain.', 'pain')).toEqual([]);
    // "falling asleep" is taken whole, so "falling" is no fall.
    const tokens = tokenize('Difficulty falling asleep.');
    expect(findTriggers(tokens).taken[1]).toBe(1);
  });

  test('a negation that opens its own clause ends the history and family scopes before it', () => {
    expect(on('Pt w/ hx of CHF, denies SOB.', 'sob')).toEqual(['negated']);
    expect(on('Pt w/ hx of CHF, denies SOB.', 'chf')).toEqual(['historical']);
    expect(on('History of MI and denies chest pain.', 'pain')).toEqual(['negated']);
    expect(on('Mother had breast cancer, no ovarian cancer.', 'ovarian')).toEqual(['negated']);
    // Within one clause both hold: the history is denied, a relative's condition is uncertain.
    expect(on('Denies history of MI.', 'mi')).toEqual(['historical', 'negated']);
    expect(on('Father with possible MI.', 'mi')).toEqual(['family', 'uncertain']);
    expect(on('History of possible TIA.', 'tia')).toEqual(['historical', 'uncertain']);
  });

  test('"unlikely" negates both ways (probable negation)', () => {
    expect(on('Unlikely pneumonia.', 'pneumonia')).toEqual(['negated']);
    expect(on('Pneumonia unlikely.', 'pneumonia')).toEqual(['negated']);
  });

  test('"resolved" negates what it follows, not what follows it', () => {
    expect(on('Pneumonia, now resolved.', 'pneumonia')).toEqual(['negated']);
    expect(on('The infection resolved with antibiotics.', 'antibiotics')).toEqual([]);
  });

  test('a scope reaches only so far: 14 tokens forward, 6 back', () => {
    expect(on(`No ${'mild '.repeat(13)}pain.`, 'pain')).toEqual(['negated']);
    expect(on(`No ${'mild '.repeat(14)}pain.`, 'pain')).toEqual([]);
    expect(on(`Pneumonia ${'very '.repeat(5)}unlikely.`, 'pneumonia')).toEqual(['negated']);
    expect(on(`Pneumonia ${'very '.repeat(6)}unlikely.`, 'pneumonia')).toEqual([]);
  });

  test('a test result: "negative for" reaches the finding after it, a trailing "negative" the one before', () => {
    expect(on('Chest x-ray is negative for pneumonia or pleural effusion.', 'effusion')).toEqual(['negated']);
    expect(on('Urinalysis was negative for urinary tract infection.', 'infection')).toEqual(['negated']);
    expect(on('CT was negative for pulmonary embolism.', 'embolism')).toEqual(['negated']);
    expect(on('HIV negative.', 'hiv')).toEqual(['negated']);
    expect(on('Influenza A negative, strep positive.', 'influenza')).toEqual(['negated']);
    expect(on('Gram negative rods.', 'rods')).toEqual([]);
  });

  test('ruled out, not ruled out, not found', () => {
    expect(on('MI has not been ruled out.', 'mi')).toEqual(['uncertain']);
    expect(on('Sepsis not yet ruled out.', 'sepsis')).toEqual(['uncertain']);
    expect(on('Evaluated for appendicitis, which was ruled out.', 'appendicitis')).toEqual(['negated']);
    expect(on('Appendicitis was not found.', 'appendicitis')).toEqual(['negated']);
    expect(on('Her symptoms may represent hypothyroidism.', 'hypothyroidism')).toEqual(['uncertain']);
  });

  test('"vs." with its full stop still covers both sides', () => {
    expect(on('Atelectasis vs. pneumonia.', 'atelectasis')).toEqual(['uncertain']);
    expect(on('Atelectasis vs. pneumonia.', 'pneumonia')).toEqual(['uncertain']);
    expect(on('Seen by Dr. Lee for asthma. No fever.', 'asthma')).toEqual([]);
  });

  test('today\'s problems end a history scope: "now with", "presents today with", "has had"', () => {
    expect(on('History of asthma, presents today with acute bronchitis.', 'bronchitis')).toEqual([]);
    expect(on('S/p cholecystectomy, now with abdominal pain.', 'pain')).toEqual([]);
    expect(on('Denies chest pain, has had a productive cough for a week.', 'cough')).toEqual([]);
    expect(on('Remote MI, no stents placed.', 'mi')).toEqual(['historical']);
  });

  test('a relative is a family trigger when the note says what they had, not when they are only there', () => {
    expect(on("Patient's mother brought him in for a rash on his arm.", 'rash')).toEqual([]);
    expect(on('Mother was at bedside when the patient developed chest pain.', 'pain')).toEqual([]);
    expect(on('Patient lives with his mother and has asthma.', 'asthma')).toEqual([]);
    expect(on('Family history is significant for diabetes.', 'diabetes')).toEqual(['family']);
    expect(on('Father died of colon cancer.', 'colon')).toEqual(['family']);
    expect(on("Mother's history includes breast cancer.", 'breast')).toEqual(['family']);
  });

  test('a template answer after a colon covers the item before it; a phrase after a colon does not', () => {
    expect(on('Chest pain: denies.', 'chest')).toEqual(['negated']);
    expect(on('Fever: no.', 'fever')).toEqual(['negated']);
    expect(on('Allergies: none.', 'allergies')).toEqual(['negated']);
    expect(on('Pain: no radiation.', 'pain')).toEqual([]);
  });

  test('pseudo-triggers: "no improvement", "not relieved" negate nothing', () => {
    expect(on('No improvement in her cough after a week of antibiotics.', 'cough')).toEqual([]);
    expect(on('Pain not relieved by ibuprofen.', 'ibuprofen')).toEqual([]);
  });

  test('a result after its name covers that item only, never the finding before a comma', () => {
    expect(on('Patient with pneumonia, blood cultures negative.', 'pneumonia')).toEqual([]);
    expect(on('Bronchitis, strep negative.', 'bronchitis')).toEqual([]);
    expect(on('Anemia, source not identified.', 'anemia')).toEqual([]);
    expect(on('Chronic low back pain, none of the prior treatments helped.', 'pain')).toEqual([]);
    expect(on('Cough: yes, fever: no.', 'cough')).toEqual([]);
    expect(on('Cough: yes, fever: no.', 'fever')).toEqual(['negated']);
  });

  test('a termination of today\'s problems counts only where it opens a clause', () => {
    expect(on('Patient denies that she has had chest pain.', 'chest')).toEqual(['negated']);
    expect(on('No family member has had colon cancer.', 'colon')).toEqual(['negated']);
  });

  test('more ways a note says a relative had something; none across a comma', () => {
    expect(on('Her brother was diagnosed with leukemia.', 'leukemia')).toEqual(['family']);
    expect(on('Father developed colon cancer at 50.', 'colon')).toEqual(['family']);
    expect(on('Sister also has asthma.', 'asthma')).toEqual(['family']);
    expect(on('Lives with her daughter, has diabetes.', 'diabetes')).toEqual([]);
  });

  test('"VS." (vital signs) and "DR." (diabetic retinopathy) in capitals end their sentence and are no "versus"', () => {
    expect(on('Reviewed VS. Diabetes is stable.', 'diabetes')).toEqual([]);
    expect(on('Type 2 diabetes with DR. Pneumonia was ruled out.', 'diabetes')).toEqual([]);
  });

  test('a semicolon ends the scope', () => {
    expect(on('Brother has schizophrenia; patient denies hallucinations.', 'hallucinations')).toEqual(['negated']);
  });
});
