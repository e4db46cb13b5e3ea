// Search suggestions, code instruction and concept information (operations.md "Search suggestions, code
// instruction, concept information"; issue 13 §2), over the same index and concepts as LookupSearch.
//
//   searchSuggestions("diab")  → categories whose title has words starting with the typed ones, the category with
//                                the most codes first: { concept: "Type 2 diabetes mellitus", conceptBaseId }
//   codeInstruction("E11.9")   → the search result object of that code: its instructions, own and inherited
//   conceptInformation(id)     → the search result object of a concept: its info node and the codes carrying it
import type { Reference } from '../../reference/index.js';
import { CodeSystem, parseCode } from '../../schemas/code-systems.js';
import { STOP_WORDS, textWords } from '../../schemas/search-text.js';
import type { SearchResult } from '../../schemas/search.js';
import { dayKey, inForceByKey } from '../../schemas/validity.js';
import { categoryConceptId, categoryOfConcept, CONCEPT_TYPES, conceptIdsAt, conceptIdsOf, conceptTableOf, describeConcept, key3, KEY3_LIMIT } from './concepts.js';
import { searchIndexOf } from './lookup-search.js';
import { searchResultOf, type ResultCode } from './result.js';
import { docHas, DocKind, prefixRange, SEARCH_SYSTEMS, type SearchIndex } from './search-index.js';

/** A suggestion: a concept's name and id (for ConceptInformation). */
export interface Suggestion {
  readonly concept: string;
  readonly conceptBaseId: number;
}

/** Suggestions per call at most. */
export const MAX_SUGGESTIONS = 50;

const categoryCounts = new WeakMap<SearchIndex, Map<string, number>>();

/** Codes per ICD-10-CM category over every loaded release (how common a category is). */
function countsOf(index: SearchIndex): Map<string, number> {
  let counts = categoryCounts.get(index);
  if (counts === undefined) {
    counts = new Map();
    const cm = SEARCH_SYSTEMS.indexOf(CodeSystem.ICD10CM);
    for (let d = 0; d < index.docs; d++) {
      if (index.kind[d] === DocKind.title && index.system[d] === cm) {
        const category = (index.code[d] as string).slice(0, 3);
        counts.set(category, (counts.get(category) ?? 0) + 1);
      }
    }
    categoryCounts.set(index, counts);
  }
  return counts;
}

/**
 * Categories whose title has words starting with every typed word, most codes first.
 * @param word - partial word(s); empty gives no suggestion
 * @param limit - at most this many (1 to MAX_SUGGESTIONS)
 * @param date - categories in force on this date
 */
export function searchSuggestions(ref: Reference, word: string, limit: number, date: string): Suggestion[] {
  const index = searchIndexOf(ref);
  const words = textWords(word).filter((w) => !STOP_WORDS.has(w.raw));
  if (words.length === 0) {
    return [];
  }
  const ranges = words.map((w) => prefixRange(index, w.word));
  if (ranges.some((r) => r.lo === r.hi)) {
    return [];
  }
  const cm = SEARCH_SYSTEMS.indexOf(CodeSystem.ICD10CM);
  const counts = countsOf(index);
  const day = dayKey(date);
  const first = ranges[0] as { lo: number; hi: number };
  const found = new Map<string, Suggestion & { count: number }>();
  for (let k = index.postStart[first.lo] as number; k < (index.postStart[first.hi] as number); k++) {
    const d = index.postings[k] as number;
    const code = index.code[d] as string;
    if (index.kind[d] !== DocKind.title || index.system[d] !== cm || code.length !== 3 || found.has(code)) {
      continue;
    }
    if (!inForceByKey(index.fromKey, index.toKey, d, day)) {
      continue;
    }
    if (!ranges.every((r) => docHas(index, d, r))) {
      continue;
    }
    const title = ref.codes.onDate(CodeSystem.ICD10CM, code, date)?.longTitle;
    if (title !== undefined && title !== null) {
      found.set(code, { concept: title, conceptBaseId: categoryConceptId(CodeSystem.ICD10CM, code), count: counts.get(code) ?? 0 });
    }
  }
  return [...found.values()]
    .sort((a, b) => b.count - a.count || (a.concept < b.concept ? -1 : 1))
    .slice(0, Math.max(1, Math.min(limit, MAX_SUGGESTIONS)))
    .map(({ concept, conceptBaseId }) => ({ concept, conceptBaseId }));
}

/**
 * The search result object of one code: the code, its concepts and info nodes, and its instructions (own and
 * inherited, ICD-10-CM).
 * @returns `undefined` for a code no code set has on the date
 */
export function codeInstruction(ref: Reference, code: string, date: string): SearchResult | undefined {
  const parsed = parseCode(code);
  for (const system of SEARCH_SYSTEMS) {
    const v = ref.codes.onDate(system, parsed.code, date);
    if (v !== undefined) {
      const title = v.longTitle ?? '';
      return searchResultOf(ref, {
        params: [{ type: 'code', value: code, hasInfo: true, isAlias: false, isDIndex: false, position: 0 }],
        messages: [],
        codes: [{ system, code: v.code, title, conceptIds: conceptIdsOf(ref, system, v.code, title) }],
        total: 1,
        startRow: 1,
        pageSize: 1,
        includeUnspecified: true,
        date,
      });
    }
  }
  return undefined;
}

/**
 * The search result object of a concept: its info node first and the codes carrying it (billable, code order).
 * @param id - a concept id of LookupSearch's facets or of a suggestion
 * @returns `undefined` for an id no concept has
 */
export function conceptInformation(ref: Reference, id: number, date: string, pageSize: number): SearchResult | undefined {
  const typeID = Math.floor(id / 1_000_000);
  const n = id % 1_000_000;
  const index = searchIndexOf(ref);
  let codes: ResultCode[] = [];
  let total = 0;
  const cm = SEARCH_SYSTEMS.indexOf(CodeSystem.ICD10CM);
  const day = dayKey(date);
  // Billable ICD-10-CM codes in force whose code or title the test accepts, in code order (a scan of the titles).
  const scan = (accept: (code: string, d: number) => boolean): void => {
    const seen = new Set<string>();
    const hits: string[] = [];
    for (let d = 0; d < index.docs; d++) {
      const code = index.code[d] as string;
      if (index.kind[d] !== DocKind.title || index.system[d] !== cm || index.billable[d] !== 1 || seen.has(code)) {
        continue;
      }
      if (!inForceByKey(index.fromKey, index.toKey, d, day)) {
        continue;
      }
      if (accept(code, d)) {
        seen.add(code);
        hits.push(code);
      }
    }
    hits.sort();
    total = hits.length;
    const versions = ref.codes.manyOnDate(CodeSystem.ICD10CM, hits.slice(0, pageSize), date);
    codes = hits.slice(0, pageSize).map((code) => {
      const title = versions.get(code)?.longTitle ?? '';
      return { system: CodeSystem.ICD10CM, code, title, conceptIds: conceptIdsOf(ref, CodeSystem.ICD10CM, code, title) };
    });
  };
  if (typeID === 3) {
    const found = categoryOfConcept(n);
    if (found === undefined || ref.codes.onDate(found.system, found.category, date) === undefined) {
      return undefined;
    }
    const { system, category } = found;
    const under = ref.codes.billableDescendants(system, category, date, 10_000);
    const own = ref.codes.onDate(system, category, date);
    const all = own?.billable === true ? [own, ...under] : under;
    total = all.length;
    codes = all.slice(0, pageSize).map((v) => ({ system, code: v.code, title: v.longTitle ?? '', conceptIds: conceptIdsOf(ref, system, v.code, v.longTitle ?? '') }));
  } else if ((typeID === 1 && n < 100) || (typeID === 2 && n < KEY3_LIMIT)) {
    const tabular = ref.tabular.noteIndex('includes');
    if (tabular === undefined) {
      return undefined;
    }
    const wanted = new Set<string>();
    for (const [category, at] of tabular.categories) {
      const key = typeID === 1 ? at.chapter : at.section;
      const match = typeID === 1 ? key === `chapter:${String(n)}` : key3(key.replace(/^section:/, '')) === n;
      if (match) {
        wanted.add(category);
      }
    }
    if (wanted.size === 0) {
      return undefined;
    }
    scan((code) => wanted.has(code.slice(0, 3)));
  } else if (typeID === 4 || typeID === 5) {
    const probe = conceptProbe(typeID, n);
    if (probe === undefined) {
      return undefined;
    }
    // A title document is the code's version in force on the date: its concept ids are that title's.
    const table = conceptTableOf(ref, index);
    scan((_code, d) => conceptIdsAt(table, index.version[d] as number).includes(id));
  } else {
    return undefined;
  }
  if (codes.length === 0) {
    return undefined;
  }
  const first = describeConcept(ref, id, date);
  const result = searchResultOf(ref, {
    params: [{ type: 'concept', value: String(id), hasInfo: true, isAlias: false, isDIndex: false, position: 0 }],
    messages: [],
    codes,
    total,
    startRow: 1,
    pageSize,
    includeUnspecified: true,
    date,
  });
  // The concept's own info node leads (a laterality or encounter has none in the page's nodes).
  const own = {
    typeID,
    type: CONCEPT_TYPES[typeID] ?? 'concept',
    label: first?.info?.label ?? first?.desc ?? String(id),
    title: first?.info?.title ?? first?.desc ?? '',
    description: `${String(total)} billable code${total === 1 ? '' : 's'} on ${date}`,
  };
  result.results.infoNodes.info = [own, ...result.results.infoNodes.info.filter((i) => !(i.typeID === own.typeID && i.label === own.label))];
  return result;
}

/** Whether a laterality or encounter concept number exists. */
function conceptProbe(typeID: number, n: number): number | undefined {
  return (typeID === 4 && n >= 1 && n <= 4) || (typeID === 5 && n >= 1 && n <= 3) ? n : undefined;
}
