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
import type { Reference } from '../../reference/index.js';
import { CodeSystem, fitsShape, parseCode, parseCodeSet } from '../../schemas/code-systems.js';
import { editDistance, stem, STOP_WORDS, textWords } from '../../schemas/search-text.js';
import type { SearchParam, SearchRequest, SearchResult } from '../../schemas/search.js';
import { dayKey, inForceByKey } from '../../schemas/validity.js';
import { orderByKey } from '../packed-order.js';
import { TABULAR_NOTE_TYPES } from '../../schemas/tabular.js';
import { memoryPerOwner } from '../answer-memory.js';
import { conceptIdsAt, conceptTableOf, tableListsOf } from './concepts.js';
import { searchResultOf } from './result.js';
import { billableUnder, buildSearchIndex, docHas, DocKind, prefixRange, SEARCH_SYSTEMS, versionOn, wordId, type SearchIndex, type WordRange } from './search-index.js';
import { SYNONYMS } from './synonyms.js';

const indexes = new WeakMap<object, SearchIndex>();

/** The search index of a reference, built on first use (a few seconds) and kept with it. */
export function searchIndexOf(ref: Reference): SearchIndex {
  let index = indexes.get(ref.search);
  if (index === undefined) {
    index = buildSearchIndex(ref.search);
    indexes.set(ref.search, index);
    // What the first searches would otherwise build: the concepts of every code, the spelling corrections' index and
    // the tabular's notes.
    conceptTableOf(ref, index);
    deletionIndexOf(index);
    for (const type of TABULAR_NOTE_TYPES) {
      ref.tabular.noteIndex(type);
    }
    // And what they would otherwise pay in compiling: a few searches down each path, results dropped.
    for (const search of WARM_UP) {
      lookupSearch(ref, { ...search, dateOfService: WARM_UP_DATE });
    }
  }
  return index;
}

/**
 * Searches run once when the index is built, one down each path of the engine (words, a synonym, a misspelling, a
 * code and a header typed, the Index, a broad prefix, ICD-10-PCS, ICD-9-CM), so the first searches of a server do
 * not run in V8's interpreter. Their date is one no caller would send by default (a date's answers are remembered
 * per date), so they warm the code, not the answers.
 */
const WARM_UP: readonly Omit<SearchRequest, 'dateOfService'>[] = [
  { search: 'gout' },
  { search: 'sepsis vertigo' },
  { search: 'ami' },
  { search: 'gastrtis' },
  { search: 'I25.10' },
  { search: 'M54' },
  { search: 'bursitis', includeIndex: true },
  { search: 'bur', includeIndex: true, includeUnspecifiedConcepts: false },
  { search: 'colectomy', codeSet: 'ICD-10 PCS', includeIndex: true },
  { search: 'epistaxis', codeSet: 'ICD-9 CM' },
];
const WARM_UP_DATE = '2024-01-15';

/** One alternative of a query word: every one of its words must be in the document. */
type Alternative = readonly WordRange[];

/** A query word: its alternatives (the word itself, synonyms), and how it was read. */
interface Group {
  readonly alternatives: readonly Alternative[];
  readonly param: SearchParam;
}

/**
 * The codes a search found: code versions (search-index.ts) with what ranks each, packed in one integer by
 * {@link rankOf}, smaller better. Typed arrays per index, reused by every search, an epoch marking this search's.
 */
interface Hits {
  /** Per document: the epoch of the last search that took it as a candidate. */
  readonly docStamp: Int32Array;
  /** The candidate documents of the search running (`candidates` fills the first ones). */
  readonly docs: Int32Array;
  readonly stamp: Int32Array;
  readonly rank: Int32Array;
  /** Per Index target (the code an Index document leads to): the epoch of the last search that reached it. */
  readonly targetStamp: Int32Array;
  /** Per vocabulary word: the epoch of the last search that named it (a word of one of its groups' alternatives). */
  readonly named: Int32Array;
  epoch: number;
}

/**
 * What ranks a text a code was found by: its tier, then the words of the text (title or inclusion term) the search
 * did not name, neutral words aside, then its kind (title before inclusion term before index).
 */
const rankOf = (tier: number, extra: number, kind: DocKind): number => tier * 2 ** 20 + Math.min(extra, 2 ** 18 - 1) * 4 + kind;

const scratch = new WeakMap<SearchIndex, Hits>();

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
  const versions = index.versions;
  const systems = parseCodeSet(request.codeSet ?? 'ICD-10 CM') ?? [CodeSystem.ICD10CM];
  const date = request.dateOfService;
  const messages: string[] = [];
  const params: SearchParam[] = [];
  let hits = scratch.get(index);
  if (hits === undefined) {
    hits = { docStamp: new Int32Array(index.docs), docs: new Int32Array(index.docs), stamp: new Int32Array(versions.count), rank: new Int32Array(versions.count), targetStamp: new Int32Array(index.targetCode.length), named: new Int32Array(index.vocabulary.length), epoch: 0 };
    scratch.set(index, hits);
  }
  const { stamp, rank, targetStamp, named } = hits;
  const epoch = ++hits.epoch;
  const day = dayKey(date);
  /** The versions found, in the order found (each once). */
  const found: number[] = [];
  const keep = (e: number, tier: number, extra: number, kind: DocKind): void => {
    const r = rankOf(tier, extra, kind);
    if (stamp[e] !== epoch) {
      stamp[e] = epoch;
      rank[e] = r;
      found.push(e);
    } else if (r < (rank[e] as number)) {
      rank[e] = r;
    }
  };
  const query = request.search.trim();

  // Step 1: a code typed as the search (`E11.9`, `e119`, `E11`): it, then its billable descendants.
  const parsed = parseCode(query);
  // Every code has a digit but some ICD-10-PCS codes (GZHZZZZ): a word like "chf" is not tried as a code.
  const codeShaped = !/\s/.test(query) && (/\d/.test(query) || parsed.code.length === 7);
  const codeSystems = codeShaped ? systems.filter((s) => fitsShape(s, parsed)) : [];
  for (const system of codeSystems) {
    const own = versionOn(index, system, parsed.code, day);
    const under = billableUnder(index, system, parsed.code, day, MAX_RANKED);
    if (own >= 0) {
      keep(own, TIER.code, 0, DocKind.title);
    }
    for (const e of under) {
      keep(e, TIER.codePrefix, 0, DocKind.title);
    }
    if (own >= 0 || under.length > 0) {
      params.push({ type: 'code', value: query, hasInfo: false, isAlias: false, isDIndex: false, position: 0 });
    }
  }

  // Step 2: the words, each a group of alternatives.
  const groups: Group[] = [];
  if (found.length === 0) {
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
    for (const g of groups) {
      for (const alt of g.alternatives) {
        for (const r of alt) {
          named.fill(epoch, r.lo, r.hi);
        }
      }
    }
    const allowed = new Uint8Array(SEARCH_SYSTEMS.length);
    for (const s of systems) {
      allowed[SEARCH_SYSTEMS.indexOf(s)] = 1;
    }
    const kinds = request.includeIndex === true ? 3 : 2;
    const targets: number[] = [];
    const candidateCount = candidates(index, groups, kinds === 3 ? index.docs : index.textDocs, hits, epoch);
    for (let c = 0; c < candidateCount; c++) {
      const d = hits.docs[c] as number;
      const kind = index.kind[d] as DocKind;
      if (kind >= kinds || allowed[index.system[d] as number] !== 1 || !inForceByKey(index.fromKey, index.toKey, d, day)) {
        continue;
      }
      if (!holdsEveryGroup(index, d, groups)) {
        continue;
      }
      if (kind === DocKind.index) {
        const t = index.target[d] as number;
        if (targetStamp[t] !== epoch) {
          targetStamp[t] = epoch;
          targets.push(t);
        }
        continue;
      }
      // A title document is its code's version (in force, as the document is); an inclusion term's code has one.
      const e = kind === DocKind.title ? (index.version[d] as number) : versionOn(index, SEARCH_SYSTEMS[index.system[d] as number] as CodeSystem, index.code[d] as string, day);
      if (e < 0) {
        continue;
      }
      const extra = unnamedWords(index, index.start[d] as number, index.start[d + 1] as number, named, epoch);
      const phrase = (groups.length > 1 || extra === 0) && isPhrase(index, d, groups);
      keep(e, phrase ? TIER.phrase : kind === DocKind.title ? TIER.title : TIER.inclusion, extra, kind);
    }
    // Index terms lead to a code, a category (its billable descendants) or six characters of a seven; codes reached
    // so rank by how much of their own title the search named.
    const expand = expansionsOn(index, date, day);
    for (const t of targets) {
      for (const e of expand(t)) {
        if (stamp[e] === epoch) {
          // Found already: by a text (a better tier) or by another Index term (the same rank).
          continue;
        }
        const from = versions.titleStart[e] as number;
        keep(e, TIER.index, unnamedWords(index, from, from + (versions.titleLength[e] as number), named, epoch), DocKind.index);
      }
    }
    if (targets.length > 0) {
      for (const p of params) {
        (p as { isDIndex: boolean }).isDIndex = true;
      }
    }
  }

  // Step 4: ranked by one number per code (orderByKey): each key packs, most significant first, the code tier (the
  // code typed, its descendants, words), billable before header (a header's title is often the plain phrase,
  // "Benign prostatic hyperplasia" for N40, while the code a coder bills says more: N40.0 "… without lower urinary
  // tract symptoms"), the tier, "unspecified" last when includeUnspecifiedConcepts=false, unnamed words, a title starting with the
  // first word searched, the kind of text, then the version's number (code order).
  const demoteUnspecified = request.includeUnspecifiedConcepts === false;
  // The first word's ranges (the first word of each of its alternatives) a title may start with.
  const firstRanges = (groups[0]?.alternatives ?? []).filter((alt) => alt.length > 0).map((alt) => alt[0] as WordRange);
  const keyOf = (e: number): number => {
    const r = rank[e] as number;
    const tier = Math.floor(r / 2 ** 20);
    const extra = Math.min((r >> 2) & (2 ** 18 - 1), 127);
    const kind = r & 3;
    const codeTier = tier <= TIER.codePrefix ? tier : 2;
    const header = versions.billable[e] === 1 ? 0 : 1;
    const unspecified = demoteUnspecified && versions.unspecified[e] === 1 ? 1 : 0;
    const w = (versions.titleLength[e] as number) > 0 ? (index.words[versions.titleStart[e] as number] as number) : -1;
    let starts = false;
    for (let k = 0; k < firstRanges.length && w >= 0 && !starts; k++) {
      const r = firstRanges[k] as WordRange;
      starts = w >= r.lo && w < r.hi;
    }
    return (((((codeTier * 2 + header) * 8 + tier) * 2 + unspecified) * 128 + extra) * 2 + (starts ? 0 : 1)) * 4 + kind;
  };
  // Past MAX_RANKED codes, only the best are kept (ranked, faceted and paged), in order; otherwise every code found
  // is, and only the page is put in order (a bounded selection, not a sort of thousands of codes).
  const ordered = found.length > MAX_RANKED;
  const kept = ordered ? orderByKey(found, keyOf, versions.count, MAX_RANKED) : found;

  // Step 5: concepts over the result set, the conceptIdList filter, the page.
  const table = conceptTableOf(ref, index);
  let selected = kept;
  const asked = request.conceptIdList ?? [];
  const present = new Set<number>();
  if (asked.length > 0) {
    for (const e of kept) {
      for (const id of conceptIdsAt(table, e)) {
        present.add(id);
      }
    }
  }
  const wanted = asked.filter((id) => {
    const known = present.has(id);
    if (!known) {
      messages.push(`Concept ${String(id)} is not among the concepts of this search; it was ignored.`);
    }
    return known;
  });
  if (wanted.length > 0) {
    selected = kept.filter((e) => {
      const ids = conceptIdsAt(table, e);
      return wanted.every((id) => ids.includes(id));
    });
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
  // Only the page's codes are made into result codes; the facets read every code's ids from the concept table.
  const startRow = request.startRow ?? 1;
  const pageSize = request.endRow ?? 10;
  const firstRows = startRow - 1 + pageSize;
  const page = (ordered ? selected.slice(0, firstRows) : orderByKey(selected, keyOf, versions.count, firstRows)).slice(startRow - 1);
  return searchResultOf(ref, {
    params,
    messages,
    codes: page.map((e) => ({
      system: SEARCH_SYSTEMS[versions.system[e] as number] as CodeSystem,
      code: versions.code[e] as string,
      title: versions.title[e] as string,
      conceptIds: conceptIdsAt(table, e),
    })),
    facets: tableListsOf(table, selected),
    total,
    startRow: 1,
    pageSize,
    includeUnspecified: request.includeUnspecifiedConcepts !== false,
    date,
  });
}

const expansions = memoryPerOwner<readonly number[]>(20_000);

/**
 * The code versions an Index target (the code an index term gives) leads to on a date: itself when billable, else
 * itself (a header) and its first billable descendants; remembered per index, system and date (index terms recur
 * across searches), at most 20,000 answers. The date's answer maps are looked up once per search, not per target.
 */
function expansionsOn(index: SearchIndex, date: string, day: number): (target: number) => readonly number[] {
  const memory = expansions(index);
  const answersOf = SEARCH_SYSTEMS.map((system) => memory.answersFor(`${system}|${date}`));
  return (t) => {
    const place = index.targetSystem[t] as number;
    const code = index.targetCode[t] as string;
    const answers = answersOf[place] as Map<string, readonly number[]>;
    let answer = answers.get(code);
    if (answer === undefined) {
      const system = SEARCH_SYSTEMS[place] as CodeSystem;
      const own = versionOn(index, system, code, day);
      const under = own >= 0 && index.versions.billable[own] === 1 ? [] : billableUnder(index, system, code, day, MAX_EXPANSION);
      answer = own >= 0 ? [own, ...under] : under;
      memory.add(answers, code, answer);
    }
    return answer;
  };
}

/** How a query word reads, whatever its place in the query: its alternatives, the value shown, what `messages` says. */
interface Reading {
  /** None when the word is left out. */
  readonly alternatives: readonly Alternative[];
  readonly value: string;
  readonly isAlias: boolean;
  readonly messages: readonly string[];
}

/** Readings of words, remembered per index and for searches with or without ICD-10-PCS (at most 20,000). */
const readings = memoryPerOwner<Reading>(20_000);

/** One query word as a group (see {@link readingOf}), or `undefined` when it is left out; its messages are added. */
function groupOf(index: SearchIndex, word: string, raw: string, position: number, systems: readonly CodeSystem[], messages: string[]): Group | undefined {
  const pcs = systems.includes(CodeSystem.ICD10PCS);
  const reading = readings(index).recall(pcs ? 'pcs' : '', `${word} ${raw}`, () => readingOf(index, word, raw, pcs));
  messages.push(...reading.messages);
  if (reading.alternatives.length === 0) {
    return undefined;
  }
  return { alternatives: reading.alternatives, param: { type: 'word', value: reading.value, hasInfo: false, isAlias: reading.isAlias, isDIndex: false, position } };
}

/**
 * How a query word reads: the word itself as a prefix, its synonyms' phrases and (with ICD-10-PCS) PCS "see"
 * phrases; a word no document has (and no synonym) is corrected to the most common word one edit away, else left out.
 */
function readingOf(index: SearchIndex, word: string, raw: string, pcs: boolean): Reading {
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
  if (pcs) {
    for (const see of index.pcsSee.get(word) ?? []) {
      const alt = phraseOf(see);
      if (alt !== undefined) {
        alternatives.push(alt);
        isAlias = true;
      }
    }
  }
  if (alternatives.length > 0) {
    return { alternatives, value: raw, isAlias, messages: [] };
  }
  const fixed = correction(index, raw === word ? [word] : [word, raw]);
  if (fixed === undefined) {
    return { alternatives: [], value: raw, isAlias: false, messages: [`No code uses the word "${raw}": it was left out of the search.`] };
  }
  // The corrected word is read as if typed (its synonyms too: "diabetis" → "diabetic" → diabetes).
  const corrected = readingOf(index, fixed, fixed, pcs);
  return {
    alternatives: corrected.alternatives.length > 0 ? corrected.alternatives : [[prefixRange(index, fixed)]],
    value: fixed,
    isAlias: true,
    messages: [`"${raw}" was read as "${fixed}".`],
  };
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
 * The most common vocabulary word one edit (OSA: a transposition counts one) from one of `forms` (4 letters or
 * more), if any. The forms are the word as stemmed and as typed: the vocabulary keeps some words unstemmed
 * ("cellulitis"), so a misspelling the stemmer cut ("celluliits" → "celluliit") is still one edit from it as typed.
 * Candidates share the form or one of its one-letter deletions (symmetric delete), then the distance decides.
 */
function correction(index: SearchIndex, forms: readonly string[]): string | undefined {
  const deletions = deletionIndexOf(index);
  let best: string | undefined;
  let bestCount = 0;
  for (const word of forms) {
    if (word.length < 4 || /\d/.test(word)) {
      continue;
    }
    const keys = [word, ...Array.from({ length: word.length }, (_, i) => word.slice(0, i) + word.slice(i + 1))];
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
  }
  return best;
}

/**
 * Candidate documents below `limit`: those of the group whose alternatives have the fewest postings, each alternative
 * by its rarest word (deduplicated with an epoch stamp per document; the order does not matter), written to
 * `hits.docs`.
 * @returns how many
 */
function candidates(index: SearchIndex, groups: readonly Group[], limit: number, hits: Hits, epoch: number): number {
  const postingsOf = (r: WordRange): number => (index.postStart[r.hi] as number) - (index.postStart[r.lo] as number);
  const rarestOf = (alt: Alternative): WordRange => alt.reduce((a, b) => (postingsOf(b) < postingsOf(a) ? b : a));
  const sizeOf = (g: Group): number => g.alternatives.reduce((n, alt) => n + postingsOf(rarestOf(alt)), 0);
  const rarest = groups.reduce((a, b) => (sizeOf(b) < sizeOf(a) ? b : a));
  const { docStamp: mark, docs: out } = hits;
  let n = 0;
  for (const alt of rarest.alternatives) {
    const r = rarestOf(alt);
    // Each word's postings ascend: past `limit` (the Index's documents, when the search leaves the Index out) the
    // rest of that word's list is skipped.
    for (let w = r.lo; w < r.hi; w++) {
      for (let k = index.postStart[w] as number; k < (index.postStart[w + 1] as number); k++) {
        const d = index.postings[k] as number;
        if (d >= limit) {
          break;
        }
        if (mark[d] !== epoch) {
          mark[d] = epoch;
          out[n++] = d;
        }
      }
    }
  }
  return n;
}

/** Whether document d holds every group: one of its alternatives with each of that alternative's words. */
function holdsEveryGroup(index: SearchIndex, d: number, groups: readonly Group[]): boolean {
  for (const g of groups) {
    let some = false;
    for (const alt of g.alternatives) {
      let every = true;
      for (const r of alt) {
        if (!docHas(index, d, r)) {
          every = false;
          break;
        }
      }
      if (every) {
        some = true;
        break;
      }
    }
    if (!some) {
      return false;
    }
  }
  return true;
}

/** Whether a text holds the query's words in order, one after the other (an alternative's words count in order). */
function isPhrase(index: SearchIndex, d: number, groups: readonly Group[]): boolean {
  const from = index.start[d] as number;
  const to = index.start[d + 1] as number;
  for (let s = from; s < to; s++) {
    if (phraseAt(index, groups, 0, s, to)) {
      return true;
    }
  }
  return false;
}

/** Whether groups `g..` follow one another from word `at` of a text ending before `to` (no closure per call). */
function phraseAt(index: SearchIndex, groups: readonly Group[], g: number, at: number, to: number): boolean {
  if (g === groups.length) {
    return true;
  }
  for (const alt of (groups[g] as Group).alternatives) {
    if (at + alt.length > to) {
      continue;
    }
    let k = 0;
    while (k < alt.length) {
      const id = index.words[at + k] as number;
      const r = alt[k] as WordRange;
      if (id < r.lo || id >= r.hi) {
        break;
      }
      k++;
    }
    if (k === alt.length && phraseAt(index, groups, g + 1, at + alt.length, to)) {
      return true;
    }
  }
  return false;
}

const neutralWords = new WeakMap<SearchIndex, Uint8Array>();

/** Words `words[from .. to)` of the index no query word names (`named[id] === epoch`), neutral words (NEUTRAL) aside. */
function unnamedWords(index: SearchIndex, from: number, to: number, named: Int32Array, epoch: number): number {
  let neutral = neutralWords.get(index);
  if (neutral === undefined) {
    neutral = Uint8Array.from(index.vocabulary, (w) => (NEUTRAL.has(w) ? 1 : 0));
    neutralWords.set(index, neutral);
  }
  let n = 0;
  for (let k = from; k < to; k++) {
    const id = index.words[k] as number;
    if (neutral[id] !== 1 && named[id] !== epoch) {
      n++;
    }
  }
  return n;
}

function exactRange(index: SearchIndex, word: string): WordRange {
  const id = wordId(index, word);
  return id < 0 ? { lo: 0, hi: 0 } : { lo: id, hi: id + 1 };
}
