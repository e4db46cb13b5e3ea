// Clinical text → coded mentions (issue 14): sections, tokens, assertion triggers, then dictionary windows.
//
//   text ─► findSections ─► tokenize (headings left out) ─► findTriggers (their tokens are not concept words)
//        ─► per start token, extend a window word by word inside its clause, probing the dictionary at each length
//           (stop words skipped, an unknown word ends the window) ─► longest hits first, no overlap
//        ─► code (billable, or the category with its billable codes as alternatives) ─► assertions per mention
//
// Linear in the text: at most `maxWords` probes per token, each a sum and a probe of the bag table.
import type { Reference } from '../../reference/index.js';
import { CodeSystem, codeTypeOf, displayCode } from '../../schemas/code-systems.js';
import type { AssertionValue, Mention } from '../../schemas/nlp.js';
import { orderByKey } from '../packed-order.js';
import { SYNONYMS } from '../search/index.js';
import { assertionsOf, findTriggers, type Assertion } from './assertions.js';
import { buildDictionary, dictionaryCovers, lookupBag, mayPair, type DictEntry, type EntryKind, type NlpDictionary } from './dictionary.js';
import { findSections, type Section } from './sections.js';
import { contentWords, tokenize, type Form, type FormMatch, type Tokens } from './tokenize.js';

/** Billable codes listed under a category the text does not make specific. */
const MAX_ALTERNATIVES = 5;

/** Abbreviations a note writes for a phrase (the search engine's reviewed list): `htn` → hypertension. */
const ABBREVIATIONS = new Map<string, readonly string[]>(
  SYNONYMS.map((s) => [s.term, contentWords(s.phrases[0] ?? '')] as const),
);

/** The dictionary last built, per reference: kept while the dates asked have the same rows in force. */
const dictionaries = new WeakMap<object, NlpDictionary>();

/**
 * The dictionary a reference and date use (built on first use: a few seconds, see docs/nlp.md; built again only
 * when the date falls where another release is in force).
 * @param ref - the reference port
 * @param date - ISO date of the code sets
 */
export function nlpDictionaryOf(ref: Pick<Reference, 'search' | 'codes'>, date: string): NlpDictionary {
  let dict = dictionaries.get(ref.search);
  if (dict === undefined || !dictionaryCovers(dict, date)) {
    dict = buildDictionary(ref, date);
    dictionaries.set(ref.search, dict);
  }
  return dict;
}

/** Words that join two mentions far more often than they stand inside one name: a window ends at them. */
const CONJUNCTIONS: ReadonlySet<string> = new Set(['and', 'or', 'nor', 'plus']);

/** A dictionary hit: tokens [first, last] and the entry. */
interface Hit {
  readonly first: number;
  readonly last: number;
  readonly entry: DictEntry;
}

/** The words a token gives the matcher: an abbreviation's phrase, else its own content words. */
function wordsOf(form: Form): readonly string[] {
  return ABBREVIATIONS.get(form.raw) ?? form.words;
}

/** A form's word ids and stop flag in a dictionary, made on first use and kept on the form. */
function matchOf(dict: NlpDictionary, form: Form): FormMatch {
  const kept = form.matched;
  if (kept !== undefined && kept.dict === dict.serial) {
    return kept;
  }
  // A hyphenated token is its joined word when the dictionary knows it ("left-sided", "covid-19", "b-12"), else its
  // parts when the dictionary knows them all ("Non-ST-elevation", "café-au-lait": titles with hyphens are in it
  // without them too); a type, stage or grade number is always a word of its own ("type-2", "stage-3").
  let words = wordsOf(form);
  if (form.raw.includes('-')) {
    const parts = contentWords(form.raw.replaceAll('-', ' '));
    const numbered = /^(?:type|stage|grade|class)-\d+[a-z]?$/.test(form.raw);
    if (parts.length > 0 && (numbered || words.some((w) => !dict.words.has(w))) && parts.every((w) => dict.words.has(w))) {
      words = parts;
    }
  }
  // A loop, not Int32Array.from: that reads its source through an iterator object per element.
  const ids = new Int32Array(words.length);
  for (let w = 0; w < words.length; w++) {
    ids[w] = dict.words.get(words[w] as string) ?? -1;
  }
  const made: FormMatch = { dict: dict.serial, ids, stop: CONJUNCTIONS.has(form.raw) };
  form.matched = made;
  return made;
}

/** Every longest hit starting at each token, then the longest first without overlap, in text order. */
function matchTokens(dict: NlpDictionary, tokens: Tokens, taken: Uint8Array): Hit[] {
  // Each token's dictionary word ids and stop flag, kept on its (shared) form for the dictionary last asked.
  const n = tokens.length;
  const matches = new Array<FormMatch>(n);
  for (let i = 0; i < n; i++) {
    matches[i] = matchOf(dict, tokens.form[i] as Form);
  }
  const seen = new Int32Array(dict.maxWords + 1);
  const hits: Hit[] = [];
  for (let i = 0; i < tokens.length; i++) {
    // A trigger's words start no mention ("history", "without"), but a name may run through one ("migraine without
    // aura", "type 2 diabetes mellitus without complications"): the trigger inside a mention asserts nothing of it.
    const start = matches[i] as FormMatch;
    if (start.stop || taken[i] === 1 || start.ids.length === 0) {
      continue;
    }
    const clause = tokens.clause[i];
    let s1 = 0;
    let s2 = 0;
    let count = 0;
    let bestLast = -1;
    let bestEntry: DictEntry | undefined;
    window: for (let j = i; j < n; j++) {
      const at = matches[j] as FormMatch;
      if (at.stop || tokens.clause[j] !== clause) {
        break;
      }
      const own = at.ids;
      const countBefore = count;
      // An unknown word ends the window. A word said twice adds nothing (a bag holds each word once, as the titles'
      // do: "type 2 diabetes with diabetic neuropathy" is E11.40's bag, "hypertensive heart disease with heart
      // failure" I11.0's); a conjunction ends the window before a second name ("disease and chronic obstructive
      // pulmonary disease").
      own: for (let k = 0; k < own.length; k++) {
        const id = own[k] as number;
        if (id < 0 || count === dict.maxWords) {
          break window;
        }
        for (let q = 0; q < count; q++) {
          if (seen[q] === id) {
            continue own;
          }
        }
        // A word that stands in no bag with one of the window's words ends it (every pair of a bag's words is in the
        // pair filter, so no hit is lost).
        for (let q = 0; q < count; q++) {
          if (!mayPair(dict, seen[q] as number, id)) {
            break window;
          }
        }
        seen[count++] = id;
        s1 = (s1 + (dict.r1[id] as number)) >>> 0;
        s2 = (s2 + (dict.r2[id] as number)) & 0x1fffff;
      }
      // A token that added no word (none of its own, or only words said before) ends no hit: "chest pain, chest"
      // is "chest pain".
      if (own.length === 0 || count === countBefore) {
        continue;
      }
      const entry = lookupBag(dict, s1, s2);
      // A side word ends no sided hit: the side may belong to what follows ("DVT of right arm", "hip, right worse than
      // left"); the Index path's words must come after it or around it ("osteoarthritis of left hip").
      if (entry !== undefined && entry.size === count && (entry.side === undefined || (tokens.form[j] as Form).raw !== entry.side)) {
        bestLast = j;
        bestEntry = entry;
      }
    }
    if (bestEntry !== undefined) {
      hits.push({ first: i, last: bestLast, entry: bestEntry });
    }
  }
  // Longest first (in tokens), then the more direct entry, then the earlier (hits are in text order, so a hit's
  // number orders the earlier first).
  const longestFirst = (k: number): number => {
    const h = hits[k] as Hit;
    return (tokens.length - (h.last - h.first)) * 16 + Math.min(h.entry.kind, 15);
  };
  const used = new Uint8Array(tokens.length);
  const chosen = new Uint8Array(hits.length);
  const numbers = new Array<number>(hits.length);
  for (let n = 0; n < hits.length; n++) {
    numbers[n] = n;
  }
  for (const n of orderByKey(numbers, longestFirst, hits.length)) {
    const h = hits[n] as Hit;
    let free = true;
    for (let k = h.first; k <= h.last && free; k++) {
      free = used[k] === 0;
    }
    if (free) {
      used.fill(1, h.first, h.last + 1);
      chosen[n] = 1;
    }
  }
  return hits.filter((_h, n) => chosen[n] === 1);
}

const yesNo = (b: boolean): AssertionValue => (b ? 'true' : 'false');

/**
 * The mentions of a clinical text, in text order.
 * @param ref - the reference port
 * @param text - the note (offsets in the answer refer to it)
 * @param date - ISO date of the code sets to code with
 */
export function indexDocument(ref: Pick<Reference, 'search' | 'codes'>, text: string, date: string): Mention[] {
  if (text.trim() === '') {
    return [];
  }
  const dict = nlpDictionaryOf(ref, date);
  const sections = findSections(text);
  const tokens = tokenize(
    text,
    sections.map((s) => ({ begin: s.headingBegin, end: s.headingEnd })),
  );
  const { triggers, taken } = findTriggers(tokens, text);
  const mentions: Mention[] = [];
  const codings = codedOn(ref, date);
  let s = 0;
  for (const hit of matchTokens(dict, tokens, taken)) {
    const begin = tokens.begin[hit.first] as number;
    const end = tokens.end[hit.last] as number;
    // Mentions come in text order: the section pointer only moves forward.
    while (s + 1 < sections.length && (sections[s + 1] as Section).headingBegin <= begin) {
      s++;
    }
    const section = sections[s] !== undefined && (sections[s] as Section).headingBegin <= begin ? sections[s] : undefined;
    const said: ReadonlySet<Assertion> = assertionsOf(tokens, triggers, hit.first, hit.last);
    const { entry } = hit;
    const coded = codeOf(ref, codings, entry, date);
    const family = said.has('family') || section?.family === true;
    mentions.push({
      text: text.slice(begin, end),
      begin,
      end,
      category: entry.category,
      code: coded.code,
      codeSet: coded.codeSet,
      description: coded.description,
      alternatives: coded.alternatives,
      score: coded.score,
      negated: yesNo(said.has('negated')),
      uncertain: entry.category === 'medication' ? 'not-assessed' : yesNo(said.has('uncertain')),
      historical: yesNo(!family && (said.has('historical') || section?.historical === true)),
      family: entry.category === 'condition' ? yesNo(family) : 'not-assessed',
      section: sections.length > 0 ? (section?.name ?? '') : undefined,
    });
  }
  return mentions;
}

/** Weight of each entry kind in a mention's score. */
const KIND_WEIGHT: Readonly<Record<EntryKind, number>> = { 0: 0.95, 1: 0.9, 2: 0.9, 3: 0.8, 4: 0.75, 5: 0.75 };

/** Score: how direct the entry is, less for a single word (more often ambiguous) and for a code left unspecific. */
function scoreOf(entry: DictEntry, unspecific: boolean): number {
  return KIND_WEIGHT[entry.kind] * (entry.size === 1 ? 0.9 : 1) * (unspecific ? 0.9 : 1);
}

/** What a mention takes from its dictionary entry. */
type Coded = Pick<Mention, 'code' | 'codeSet' | 'description' | 'alternatives' | 'score'>;

/**
 * Each entry's coding on the date last asked (a dictionary serves many dates, and a code's title, billable status and
 * children are read on the date): remembered per code table, emptied when the date changes.
 */
const codedEntries = new WeakMap<object, { date: string; coded: Map<DictEntry, Coded> }>();

/** The entries' codings remembered for a date (one lookup per document, not per mention). */
function codedOn(ref: Pick<Reference, 'codes'>, date: string): Map<DictEntry, Coded> {
  let memo = codedEntries.get(ref.codes);
  if (memo === undefined || memo.date !== date) {
    memo = { date, coded: new Map() };
    codedEntries.set(ref.codes, memo);
  }
  return memo.coded;
}

/** The code, code set, description, alternatives and score of an entry on a date. */
function codeOf(ref: Pick<Reference, 'codes'>, coded: Map<DictEntry, Coded>, entry: DictEntry, date: string): Coded {
  let answer = coded.get(entry);
  if (answer === undefined) {
    answer = computeCode(ref, entry, date);
    coded.set(entry, answer);
  }
  return answer;
}

function computeCode(ref: Pick<Reference, 'codes'>, entry: DictEntry, date: string): Coded {
  if (entry.category === 'medication') {
    return { code: '', codeSet: 'ICD-10-CM Table of Drugs', description: entry.name, alternatives: [], score: scoreOf(entry, false) };
  }
  const system = entry.category === 'procedure' ? CodeSystem.ICD10PCS : CodeSystem.ICD10CM;
  const own = ref.codes.onDate(system, entry.code, date);
  const alternatives =
    own?.billable === true
      ? []
      : (ref.codes.manyBillableDescendants(system, [entry.code], date, MAX_ALTERNATIVES).get(entry.code)?.codes ?? []).map((c) =>
          displayCode(system, c),
        );
  return {
    code: displayCode(system, entry.code),
    codeSet: codeTypeOf(system),
    description: own?.longTitle ?? entry.name,
    alternatives,
    score: scoreOf(entry, alternatives.length > 0),
  };
}
