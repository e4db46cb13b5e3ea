// Clinical text → coded mentions (issue 14): sections, tokens, assertion triggers, then dictionary windows.
//
//   text ─► findSections ─► tokenize (headings left out) ─► findTriggers (their tokens are not concept words)
//        ─► per start token, extend a window word by word inside its clause, probing the dictionary at each length
//           (stop words skipped, an unknown word ends the window) ─► longest hits first, no overlap
//        ─► code (billable, or the category with its billable codes as alternatives) ─► assertions per mention
//
// Linear in the text: at most `maxWords` probes per token, each a sum and a map lookup.
import { memoryPerOwner } from '../answer-memory.js';
import type { Reference } from '../../reference/index.js';
import { CodeSystem, codeTypeOf, displayCode } from '../../schemas/code-systems.js';
import type { AssertionValue, Mention } from '../../schemas/nlp.js';
import { SYNONYMS } from '../search/index.js';
import { assertionsOf, findTriggers, type Assertion } from './context.js';
import { bagKey, buildDictionary, type DictEntry, type EntryKind, type NlpDictionary } from './dictionary.js';
import { findSections, sectionAt } from './sections.js';
import { contentWords, tokenize, type Token } from './text.js';

/** Billable codes listed under a category the text does not make specific. */
const MAX_ALTERNATIVES = 5;

/** Abbreviations a note writes for a phrase (the search engine's reviewed list): `htn` → hypertension. */
const ABBREVIATIONS = new Map<string, readonly string[]>(
  SYNONYMS.map((s) => [s.term, contentWords(s.phrases[0] ?? '')] as const),
);

/** The dictionary of the latest date asked, per reference (a date change rebuilds it). */
const dictionaries = memoryPerOwner<NlpDictionary>(1);

/**
 * The dictionary a reference and date use (built on first use: a few seconds, see docs/nlp.md).
 * @param ref - the reference port
 * @param date - ISO date of the code sets
 */
export function nlpDictionaryOf(ref: Pick<Reference, 'search' | 'codes'>, date: string): NlpDictionary {
  return dictionaries(ref.search).recall('', date, () => buildDictionary(ref, date));
}

/** Words that join two mentions far more often than they stand inside one name: a window ends at them. */
const CONJUNCTIONS: ReadonlySet<string> = new Set(['and', 'or', 'nor', '&', 'plus']);

/** A dictionary hit: tokens [first, last] and the entry. */
interface Hit {
  readonly first: number;
  readonly last: number;
  readonly entry: DictEntry;
}

/** The words a token gives the matcher: an abbreviation's phrase, else its own content words. */
function wordsOf(t: Token): readonly string[] {
  return ABBREVIATIONS.get(t.raw) ?? t.words;
}

/** Every longest hit starting at each token, then the longest first without overlap, in text order. */
function matchTokens(dict: NlpDictionary, tokens: readonly Token[], taken: Uint8Array): Hit[] {
  const hits: Hit[] = [];
  const ids: Int32Array[] = tokens.map((t) => {
    const ws = wordsOf(t);
    const out = new Int32Array(ws.length);
    for (let k = 0; k < ws.length; k++) {
      out[k] = dict.words.get(ws[k] as string) ?? -1;
    }
    return out;
  });
  for (let i = 0; i < tokens.length; i++) {
    const start = tokens[i] as Token;
    if (taken[i] === 1 || (ids[i] as Int32Array).length === 0) {
      continue;
    }
    let s1 = 0;
    let s2 = 0;
    let count = 0;
    let best: Hit | undefined;
    const seen = new Set<number>();
    for (let j = i; j < tokens.length; j++) {
      const t = tokens[j] as Token;
      if (t.clause !== start.clause || taken[j] === 1 || CONJUNCTIONS.has(t.raw)) {
        break;
      }
      const tokenIds = ids[j] as Int32Array;
      // An unknown word ends the window, and so does a word said twice (a bag holds each word once: "disease and
      // chronic obstructive pulmonary disease" is not one mention).
      let stop = false;
      for (const id of tokenIds) {
        if (id < 0 || seen.has(id)) {
          stop = true;
          break;
        }
        seen.add(id);
        s1 = (s1 + (dict.r1[id] as number)) >>> 0;
        s2 = (s2 + (dict.r2[id] as number)) & 0x1fffff;
        count++;
      }
      if (stop || count > dict.maxWords) {
        break;
      }
      if (tokenIds.length === 0) {
        continue;
      }
      const entry = dict.entries.get(bagKey(s1, s2));
      if (entry !== undefined && entry.size === count) {
        best = { first: i, last: j, entry };
      }
    }
    if (best !== undefined) {
      hits.push(best);
    }
  }
  // Longest first (in tokens), then the more direct entry, then the earlier.
  hits.sort((a, b) => b.last - b.first - (a.last - a.first) || a.entry.kind - b.entry.kind || a.first - b.first);
  const used = new Uint8Array(tokens.length);
  const kept: Hit[] = [];
  for (const h of hits) {
    let free = true;
    for (let k = h.first; k <= h.last && free; k++) {
      free = used[k] === 0;
    }
    if (free) {
      used.fill(1, h.first, h.last + 1);
      kept.push(h);
    }
  }
  return kept.sort((a, b) => a.first - b.first);
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
  const { triggers, taken } = findTriggers(tokens);
  const mentions: Mention[] = [];
  for (const hit of matchTokens(dict, tokens, taken)) {
    const first = tokens[hit.first] as Token;
    const last = tokens[hit.last] as Token;
    const section = sections.length > 0 ? sectionAt(sections, first.begin) : undefined;
    const said: Set<Assertion> = assertionsOf(tokens, triggers, hit.first, hit.last);
    const { entry } = hit;
    const coded = codeOf(ref, entry, date);
    const condition = entry.category === 'condition';
    const family = said.has('family') || section?.family === true;
    mentions.push({
      text: text.slice(first.begin, last.end),
      begin: first.begin,
      end: last.end,
      category: entry.category,
      ...coded,
      score: scoreOf(entry, coded.alternatives.length > 0),
      negated: yesNo(said.has('negated')),
      uncertain: entry.category === 'medication' ? 'not-assessed' : yesNo(said.has('uncertain')),
      historical: yesNo(!family && (said.has('historical') || section?.historical === true)),
      family: condition ? yesNo(family) : 'not-assessed',
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

/** The code, code set, description and alternatives of an entry on a date. */
function codeOf(
  ref: Pick<Reference, 'codes'>,
  entry: DictEntry,
  date: string,
): Pick<Mention, 'code' | 'codeSet' | 'description' | 'alternatives'> {
  if (entry.category === 'medication') {
    return { code: '', codeSet: 'ICD-10-CM Table of Drugs', description: entry.name, alternatives: [] };
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
  };
}
