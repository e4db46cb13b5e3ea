// LookupSearch (issue 13 §2; operations.md "Search"): the words a coder types → the codes of a code set, ranked.
//
//   search ──code-shaped?──> the code and its billable descendants (tier 0)
//          ──textWords, stop words off──> one group per word: the word as a prefix, its synonyms (synonyms.ts), PCS
//            index "see" phrases; a word no document has is corrected within one edit, else left out (messages)
//          ──documents holding every group (rarest group's postings, then binary searches)──> per code, its best tier:
//            1 title phrase · 2 every word in the title · 3 inclusion term · 4 Alphabetic Index (includeIndex)
//          ──valid on dateOfService──> ranked: tier, billable before header, "unspecified" last when
//            includeUnspecifiedConcepts=false, fewer title words the search did not name, code order
//          ──facets (concepts.ts), conceptIdList, page, instructions of the page's codes──> the search result object
import type { CodeVersion, Reference } from '../../reference/index.js';
import { CodeSystem, fitsShape, parseCode, parseCodeSet } from '../../schemas/code-systems.js';
import { editDistance, stem, STOP_WORDS, textWords } from '../../schemas/search-text.js';
import type { SearchParam, SearchRequest, SearchResult } from '../../schemas/search.js';
import { TABULAR_NOTE_TYPES } from '../../schemas/tabular.js';
import { AnswerMemory, memoryPerOwner } from '../answer-memory.js';
import { conceptsOf, type CodeConcepts } from './concepts.js';
import { searchResultOf } from './result.js';
import { buildSearchIndex, docHas, DocKind, prefixRange, SEARCH_SYSTEMS, wordId, type SearchIndex, type WordRange } from './search-index.js';
import { SYNONYMS } from './synonyms.js';

const indexes = new WeakMap<object, SearchIndex>();

/** The search index of a reference, built on first use (a few seconds) and kept with it. */
export function searchIndexOf(ref: Pick<Reference, 'search' | 'tabular'>): SearchIndex {
  let index = indexes.get(ref.search);
  if (index === undefined) {
    index = buildSearchIndex(ref.search);
    indexes.set(ref.search, index);
    // What the first searches would otherwise build: the spelling corrections' index and the tabular's notes.
    deletionIndexOf(index);
    for (const type of TABULAR_NOTE_TYPES) {
      ref.tabular.noteIndex(type);
    }
  }
  return index;
}

/** One alternative of a query word: every one of its words must be in the document. */
type Alternative = readonly WordRange[];

/** A query word: its alternatives (the word itself, synonyms), and how it was read. */
interface Group {
  readonly alternatives: readonly Alternative[];
  readonly param: SearchParam;
}

/** A code found, with what ranks it. */
interface Hit {
  readonly system: CodeSystem;
  readonly code: string;
  tier: number;
  billable: boolean;
  title: string;
  /** Words of the best matching text (title or inclusion term) the search did not name, neutral words aside. */
  extra: number;
  /** The best matching text's kind (title before inclusion term before index). */
  kind: DocKind;
}

/**
 * Tiers, best first: the code typed, its descendants, a phrase (the words in order, one after the other, in a title
 * or an inclusion term; for a one-word search, a text of that word and only neutral words), every word in a title,
 * every word in an inclusion term, the Alphabetic Index.
 */
const TIER = { code: 0, codePrefix: 1, phrase: 2, title: 3, inclusion: 4, index: 5 } as const;

/**
 * Words that do not count as unnamed in a text: the defaults and qualifiers of the code sets' wording ("NOS",
 * "unspecified", "site not specified", "without complications", "closed" fracture, the encounter of a 7th character)
 * and function words, stemmed as the index stores them.
 */
const NEUTRAL = new Set(
  [
    'nos', 'unspecified', 'specified', 'not', 'site', 'initial', 'subsequent', 'encounter', 'sequela', 'closed', 'mellitus',
    'without', 'complications', 'of', 'the', 'and', 'with', 'a', 'an', 'in', 'to', 'for', 'by', 'or', 'as', 'at', 'on',
  ].map(stem),
);

/** The last day ICD-9-CM codes were valid (ICD-10 took over on 2015-10-01). */
const ICD9_LAST_DAY = '2015-09-30';

/** Codes an index term's category leads to, at most (its billable descendants). */
const MAX_EXPANSION = 60;
/** Distinct words a search uses, at most. */
const MAX_WORDS = 16;
/** Codes ranked and faceted per search, at most (the total still counts every code found). */
const MAX_RANKED = 5000;

const SYNONYM_BY_TERM = new Map(SYNONYMS.map((s) => [s.term, s]));

/**
 * Runs one search.
 * @param ref - the reference (codes, tabular notes, search rows)
 * @param request - the bound request; `dateOfService` is required here (the caller supplies today)
 * @returns the search result object
 */
export function lookupSearch(ref: Reference, request: SearchRequest): SearchResult {
  const index = searchIndexOf(ref);
  const systems = parseCodeSet(request.codeSet ?? 'ICD-10 CM') ?? [CodeSystem.ICD10CM];
  const date = request.dateOfService;
  const messages: string[] = [];
  const params: SearchParam[] = [];
  const hits = new Map<string, Hit>();
  const key = (system: CodeSystem, code: string): string => `${system}|${code}`;
  const keep = (h: Hit): void => {
    const k = key(h.system, h.code);
    const had = hits.get(k);
    if (had === undefined || h.tier < had.tier || (h.tier === had.tier && (h.extra < had.extra || (h.extra === had.extra && h.kind < had.kind)))) {
      hits.set(k, h);
    }
  };
  const query = request.search.trim();

  // Step 1: a code typed as the search (`E11.9`, `e119`, `E11`): it, then its billable descendants.
  const parsed = parseCode(query);
  // Every code has a digit but some ICD-10-PCS codes (GZHZZZZ): a word like "chf" is not tried as a code.
  const codeShaped = !/\s/.test(query) && (/\d/.test(query) || parsed.code.length === 7);
  const codeSystems = codeShaped ? systems.filter((s) => fitsShape(s, parsed)) : [];
  for (const system of codeSystems) {
    const own = ref.codes.onDate(system, parsed.code, date);
    const under = ref.codes.billableDescendants(system, parsed.code, date, MAX_RANKED);
    for (const v of own === undefined ? under : [own, ...under.filter((u) => u.code !== own.code)]) {
      const tier = v.code === parsed.code ? TIER.code : TIER.codePrefix;
      keep({ system, code: v.code, tier, billable: v.billable, title: v.longTitle ?? '', extra: 0, kind: DocKind.title });
    }
    if (own !== undefined || under.length > 0) {
      params.push({ type: 'code', value: query, hasInfo: false, isAlias: false, isDIndex: false, position: 0 });
    }
  }

  // Step 2: the words, each a group of alternatives.
  const groups: Group[] = [];
  if (hits.size === 0) {
    const all = textWords(query);
    const meaningful = all.filter((w) => !STOP_WORDS.has(w.raw));
    // A word said twice counts once; past MAX_WORDS the rest is left out (a search is a phrase, not a document).
    const seen = new Set<string>();
    const words = (meaningful.length > 0 ? meaningful : all).filter((w) => !seen.has(w.word) && (seen.add(w.word), true));
    if (words.length > MAX_WORDS) {
      messages.push(`Only the first ${String(MAX_WORDS)} words were searched.`);
    }
    for (const w of words.slice(0, MAX_WORDS)) {
      const group = groupOf(index, w.word, w.raw, w.position, systems, messages);
      if (group !== undefined) {
        groups.push(group);
        params.push(group.param);
      }
    }
  }

  // Step 3: documents holding every group → codes with their best tier.
  if (groups.length > 0) {
    const allowed = new Set(systems.map((s) => SEARCH_SYSTEMS.indexOf(s)));
    const kinds = request.includeIndex === true ? 3 : 2;
    const indexCodes = new Map<string, { system: CodeSystem; code: string }>();
    for (const d of candidates(index, groups)) {
      const kind = index.kind[d] as DocKind;
      if (kind >= kinds || !allowed.has(index.system[d] as number)) {
        continue;
      }
      if ((index.validFrom[d] as string) > date || (index.validTo[d] !== '' && (index.validTo[d] as string) < date)) {
        continue;
      }
      if (!groups.every((g) => g.alternatives.some((alt) => alt.every((r) => docHas(index, d, r))))) {
        continue;
      }
      const system = SEARCH_SYSTEMS[index.system[d] as number] as CodeSystem;
      const code = index.code[d] as string;
      if (kind === DocKind.title || kind === DocKind.inclusion) {
        const extra = unnamedWords(index, d, groups);
        const phrase = isPhrase(index, d, groups) && (groups.length > 1 || extra === 0);
        keep({
          system,
          code,
          tier: phrase ? TIER.phrase : kind === DocKind.title ? TIER.title : TIER.inclusion,
          billable: index.billable[d] === 1,
          title: '',
          extra,
          kind,
        });
      } else {
        indexCodes.set(key(system, code), { system, code });
      }
    }
    // Index terms lead to a code, a category (its billable descendants) or six characters of a seven.
    for (const { system, code } of indexCodes.values()) {
      for (const v of expansionOf(ref, system, code, date)) {
        keep({ system, code: v.code, tier: TIER.index, billable: v.billable, title: v.longTitle ?? '', extra: 0, kind: DocKind.index });
      }
    }
    if (indexCodes.size > 0) {
      for (const p of params) {
        (p as { isDIndex: boolean }).isDIndex = true;
      }
    }
  }

  // Step 4: every code valid on the date, with its title; ranked.
  const found = completeHits(ref, [...hits.values()], date, groups, index);
  const demoteUnspecified = request.includeUnspecifiedConcepts === false;
  const first = groups[0];
  const starts = new Map<Hit, number>();
  for (const h of found) {
    const w = titleWords(h.title)[0];
    starts.set(h, w !== undefined && first !== undefined && first.alternatives.some((alt) => alt.length > 0 && inRange(index, w, alt[0] as WordRange)) ? 0 : 1);
  }
  const startsWithFirst = (h: Hit): number => starts.get(h) ?? 1;
  // Billable codes before headers across the word tiers too: a header's title is often the plain phrase ("Benign
  // prostatic hyperplasia" for N40) while the code a coder bills says more (N40.0 "… without lower urinary tract
  // symptoms"). The code typed, and its descendants, stay first.
  const codeTier = (h: Hit): number => (h.tier <= TIER.codePrefix ? h.tier : 2);
  found.sort(
    (a, b) =>
      codeTier(a) - codeTier(b) ||
      Number(b.billable) - Number(a.billable) ||
      a.tier - b.tier ||
      (demoteUnspecified ? Number(isUnspecified(a.title)) - Number(isUnspecified(b.title)) : 0) ||
      a.extra - b.extra ||
      startsWithFirst(a) - startsWithFirst(b) ||
      a.kind - b.kind ||
      (a.code < b.code ? -1 : a.code > b.code ? 1 : 0),
  );

  // Step 5: concepts over the result set, the conceptIdList filter, the page.
  const ranked = found.slice(0, MAX_RANKED);
  const concepts = new Map<Hit, CodeConcepts>(ranked.map((h) => [h, conceptsOf(ref, h.system, h.code, h.title, date)]));
  let selected = ranked;
  const wanted = (request.conceptIdList ?? []).filter((id) => {
    const known = [...concepts.values()].some((c) => c.ids.includes(id));
    if (!known) {
      messages.push(`Concept ${String(id)} is not among the concepts of this search; it was ignored.`);
    }
    return known;
  });
  if (wanted.length > 0) {
    selected = ranked.filter((h) => wanted.every((id) => concepts.get(h)?.ids.includes(id) === true));
    for (const id of wanted) {
      params.push({ type: 'concept', value: String(id), hasInfo: true, isAlias: false, isDIndex: false, position: params.length });
    }
  }
  const total = wanted.length > 0 ? selected.length : found.length;
  if (found.length > MAX_RANKED) {
    messages.push(`${String(found.length)} codes match: the first ${String(MAX_RANKED)} are ranked, paged and counted in the concepts; add words to narrow the search.`);
  }
  if (total === 0) {
    messages.push(`No ${systems.map((s) => s.replace('_', ' ')).join('/')} code valid on ${date} matches "${query}".`);
    if (systems.includes(CodeSystem.ICD9CM_DX) && date > ICD9_LAST_DAY) {
      messages.push(`ICD-9-CM codes are valid until ${ICD9_LAST_DAY} (ICD-10 replaced them): give a dateOfService before then.`);
    }
  }
  return searchResultOf(ref, {
    params,
    messages,
    codes: selected.map((h) => ({ system: h.system, code: h.code, title: h.title, concepts: concepts.get(h) as CodeConcepts })),
    total,
    startRow: request.startRow ?? 1,
    pageSize: request.endRow ?? 10,
    includeUnspecified: request.includeUnspecifiedConcepts !== false,
    date,
  });
}

const expansions = memoryPerOwner<readonly CodeVersion[]>(20_000);

/**
 * The codes an index term's code leads to on a date: itself when billable, else itself (a header) and its first
 * billable descendants; remembered per reference (index terms recur across searches), at most 20,000 answers.
 */
function expansionOf(ref: Reference, system: CodeSystem, code: string, date: string): readonly CodeVersion[] {
  return expansions(ref.codes).recall(`${system}|${date}`, code, () => {
    const own = ref.codes.onDate(system, code, date);
    const targets = own?.billable === true ? [own] : ref.codes.billableDescendants(system, code, date, MAX_EXPANSION);
    return own !== undefined && !own.billable ? [own, ...targets] : targets;
  });
}

/**
 * One query word as a group: the word itself as a prefix, its synonyms' phrases and PCS "see" phrases; a word no
 * document has (and no synonym) is corrected to the most common word one edit away, else left out.
 */
function groupOf(
  index: SearchIndex,
  word: string,
  raw: string,
  position: number,
  systems: readonly CodeSystem[],
  messages: string[],
): Group | undefined {
  const phraseOf = (text: string): Alternative | undefined => {
    const ranges = textWords(text)
      .filter((w) => !STOP_WORDS.has(w.raw))
      .map((w) => prefixRange(index, w.word));
    return ranges.length > 0 && ranges.every((r) => r.lo < r.hi) ? ranges : undefined;
  };
  const alternatives: Alternative[] = [];
  const synonym = SYNONYM_BY_TERM.get(raw);
  // An abbreviation matches itself as a whole word only (`uti` is not `utilities`); other words are prefixes.
  const own = synonym === undefined ? prefixRange(index, word) : exactRange(index, word);
  if (own.lo < own.hi) {
    alternatives.push([own]);
  }
  let isAlias = false;
  for (const phrase of synonym?.phrases ?? []) {
    const alt = phraseOf(phrase);
    if (alt !== undefined) {
      alternatives.push(alt);
      isAlias = true;
    }
  }
  if (systems.includes(CodeSystem.ICD10PCS)) {
    for (const see of index.pcsSee.get(word) ?? []) {
      const alt = phraseOf(see);
      if (alt !== undefined) {
        alternatives.push(alt);
        isAlias = true;
      }
    }
  }
  let value = raw;
  if (alternatives.length === 0) {
    const fixed = correction(index, word);
    if (fixed === undefined) {
      messages.push(`No code uses the word "${raw}": it was left out of the search.`);
      return undefined;
    }
    messages.push(`"${raw}" was read as "${fixed}".`);
    // The corrected word is read as if typed (its synonyms too: "diabetis" → "diabetic" → diabetes).
    const corrected = groupOf(index, fixed, fixed, position, systems, []);
    alternatives.push(...(corrected?.alternatives ?? [[prefixRange(index, fixed)]]));
    value = fixed;
    isAlias = true;
  }
  return { alternatives, param: { type: 'word', value, hasInfo: false, isAlias, isDIndex: false, position } };
}

const deletionIndexes = new WeakMap<SearchIndex, Map<string, number[]>>();

/** Every vocabulary word (3 letters or more, no digit) and its one-letter deletions → the word ids (symmetric delete). */
function deletionIndexOf(index: SearchIndex): Map<string, number[]> {
  let map = deletionIndexes.get(index);
  if (map === undefined) {
    map = new Map();
    const m = map;
    const put = (key: string, id: number): void => {
      const list = m.get(key);
      if (list === undefined) {
        m.set(key, [id]);
      } else if (list[list.length - 1] !== id) {
        list.push(id);
      }
    };
    index.vocabulary.forEach((w, id) => {
      if (w.length >= 3 && !/\d/.test(w)) {
        put(w, id);
        for (let i = 0; i < w.length; i++) {
          put(w.slice(0, i) + w.slice(i + 1), id);
        }
      }
    });
    deletionIndexes.set(index, m);
  }
  return map;
}

/**
 * The most common vocabulary word one edit (OSA: a transposition counts one) from `word` (4 letters or more), if
 * any. Candidates share the word or one of its one-letter deletions (symmetric delete), then the distance decides.
 */
function correction(index: SearchIndex, word: string): string | undefined {
  if (word.length < 4 || /\d/.test(word)) {
    return undefined;
  }
  const deletions = deletionIndexOf(index);
  const keys = [word, ...Array.from({ length: word.length }, (_, i) => word.slice(0, i) + word.slice(i + 1))];
  let best: string | undefined;
  let bestCount = 0;
  for (const key of keys) {
    for (const id of deletions.get(key) ?? []) {
      const w = index.vocabulary[id] as string;
      const count = index.frequency[id] as number;
      if (count > bestCount && editDistance(word, w, 1) <= 1) {
        best = w;
        bestCount = count;
      }
    }
  }
  return best;
}

const stamps = new WeakMap<SearchIndex, { mark: Int32Array; epoch: number }>();

/**
 * Candidate documents: those of the group whose alternatives have the fewest postings, each alternative by its
 * rarest word (deduplicated with an epoch stamp per document; the order does not matter).
 */
function candidates(index: SearchIndex, groups: readonly Group[]): number[] {
  const postingsOf = (r: WordRange): number => (index.postStart[r.hi] as number) - (index.postStart[r.lo] as number);
  const rarestOf = (alt: Alternative): WordRange => alt.reduce((a, b) => (postingsOf(b) < postingsOf(a) ? b : a));
  const sizeOf = (g: Group): number => g.alternatives.reduce((n, alt) => n + postingsOf(rarestOf(alt)), 0);
  const rarest = groups.reduce((a, b) => (sizeOf(b) < sizeOf(a) ? b : a));
  let stamp = stamps.get(index);
  if (stamp === undefined) {
    stamp = { mark: new Int32Array(index.docs), epoch: 0 };
    stamps.set(index, stamp);
  }
  const epoch = ++stamp.epoch;
  const mark = stamp.mark;
  const out: number[] = [];
  for (const alt of rarest.alternatives) {
    const r = rarestOf(alt);
    for (let k = index.postStart[r.lo] as number; k < (index.postStart[r.hi] as number); k++) {
      const d = index.postings[k] as number;
      if (mark[d] !== epoch) {
        mark[d] = epoch;
        out.push(d);
      }
    }
  }
  return out;
}

/** Whether a text holds the query's words in order, one after the other (an alternative's words count in order). */
function isPhrase(index: SearchIndex, d: number, groups: readonly Group[]): boolean {
  const from = index.start[d] as number;
  const to = index.start[d + 1] as number;
  const matchAt = (g: number, at: number): boolean => {
    if (g === groups.length) {
      return true;
    }
    return (groups[g] as Group).alternatives.some((alt) => {
      if (at + alt.length > to) {
        return false;
      }
      for (let k = 0; k < alt.length; k++) {
        const id = index.words[at + k] as number;
        const r = alt[k] as WordRange;
        if (id < r.lo || id >= r.hi) {
          return false;
        }
      }
      return matchAt(g + 1, at + alt.length);
    });
  };
  for (let s = from; s < to; s++) {
    if (matchAt(0, s)) {
      return true;
    }
  }
  return false;
}

/** Words of a document no query word names, neutral words (NEUTRAL) aside. */
function unnamedWords(index: SearchIndex, d: number, groups: readonly Group[]): number {
  let n = 0;
  for (let k = index.start[d] as number; k < (index.start[d + 1] as number); k++) {
    const id = index.words[k] as number;
    if (NEUTRAL.has(index.vocabulary[id] as string)) {
      continue;
    }
    if (!groups.some((g) => g.alternatives.some((alt) => alt.some((r) => id >= r.lo && id < r.hi)))) {
      n++;
    }
  }
  return n;
}

/** The hits valid on the date, with titles and billable flags from the code table; the rest dropped. */
function completeHits(ref: Reference, hits: readonly Hit[], date: string, groups: readonly Group[], index: SearchIndex): Hit[] {
  const out: Hit[] = [];
  const bySystem = new Map<CodeSystem, Hit[]>();
  for (const h of hits) {
    const list = bySystem.get(h.system) ?? [];
    list.push(h);
    bySystem.set(h.system, list);
  }
  for (const [system, list] of bySystem) {
    const versions: Map<string, CodeVersion> = ref.codes.manyOnDate(system, list.map((h) => h.code), date);
    for (const h of list) {
      const v = versions.get(h.code);
      if (v === undefined) {
        continue;
      }
      h.billable = v.billable;
      h.title = v.longTitle ?? h.title;
      if (h.kind === DocKind.index) {
        // Codes reached through the index rank by how much of their own title the search named.
        h.extra = titleWords(h.title).filter(
          (w) => !NEUTRAL.has(w) && !groups.some((g) => g.alternatives.some((alt) => alt.some((r) => inRange(index, w, r)))),
        ).length;
      }
      out.push(h);
    }
  }
  return out;
}

function exactRange(index: SearchIndex, word: string): WordRange {
  const id = wordId(index, word);
  return id < 0 ? { lo: 0, hi: 0 } : { lo: id, hi: id + 1 };
}

function inRange(index: SearchIndex, word: string, r: WordRange): boolean {
  return r.lo < r.hi && word >= (index.vocabulary[r.lo] as string) && word <= (index.vocabulary[r.hi - 1] as string);
}

const titleWordMemory = new AnswerMemory<readonly string[]>(50_000);

/** The stemmed words of a code title, remembered (at most 50,000 titles): ranking reads them on every search. */
function titleWords(title: string): readonly string[] {
  return titleWordMemory.recall('', title, () => textWords(title).map((w) => w.word));
}

const isUnspecified = (title: string): boolean => /\bunspecified\b/i.test(title);
