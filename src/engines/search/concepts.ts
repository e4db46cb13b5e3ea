// Concepts of a search's codes (issue 13 §1; operations.md "Search"): facets over the result set, by type, with
// ids derived from the code set so they are the same on every rebuild of the same data.
//
//   typeID 1 chapter   id 1,000,000 + chapter number            (ICD-10-CM, from the tabular)
//   typeID 2 block     id 2,000,000 + base-37 of its first code's 3 characters
//   typeID 3 category  id 3,000,000 + code set's place (CM 0, PCS 1, ICD-9 DX 2, PROC 3) × 37^3 + base-37 of the 3 characters
//   typeID 4 laterality id 4,000,00n: 1 right, 2 left, 3 bilateral, 4 unspecified side   (from the title)
//   typeID 5 encounter  id 5,000,00n: 1 initial, 2 subsequent, 3 sequela                  (from the title)
import type { Reference } from '../../reference/index.js';
import { CodeSystem, dottedCode } from '../../schemas/code-systems.js';
import type { ConceptType, InfoNode } from '../../schemas/search.js';
import { memoryPerOwner } from '../answer-memory.js';
import { SEARCH_SYSTEMS, type SearchIndex } from './search-index.js';

/** One concept a code carries. */
export interface CodeConcept {
  readonly typeID: number;
  readonly id: number;
  readonly desc: string;
  /** An "unspecified …" concept (hidden when includeUnspecifiedConcepts is false). */
  readonly unspecified: boolean;
  /** For chapters, blocks and categories: the code range and title an info node shows. */
  readonly info?: { readonly label: string; readonly title: string } | undefined;
}

export const CONCEPT_TYPES: Readonly<Record<number, string>> = {
  1: 'chapter',
  2: 'block',
  3: 'category',
  4: 'laterality',
  5: 'encounter',
};

/** Base-37 of up to 3 characters (0-9 → 1-10, A-Z → 11-36): below 37^3 = 50,653. */
export function key3(text: string): number {
  let n = 0;
  for (const ch of text.slice(0, 3).toUpperCase()) {
    const c = ch.charCodeAt(0);
    n = n * 37 + (c >= 48 && c <= 57 ? c - 47 : c >= 65 && c <= 90 ? c - 54 : 0);
  }
  return n;
}

/** Base-37 keys of 3 characters stay below this. */
export const KEY3_LIMIT = 37 ** 3;

/**
 * The concept id of a category: 3,000,000 + (its system's place in SEARCH_SYSTEMS × 37^3) + base-37 of its 3
 * characters (a category's id names its code set: B02 is in ICD-10-CM and in ICD-10-PCS).
 */
export function categoryConceptId(system: CodeSystem, category: string): number {
  return 3_000_000 + Math.max(0, SEARCH_SYSTEMS.indexOf(system)) * KEY3_LIMIT + key3(category);
}

/** The system and category of a category concept number (the id less 3,000,000), if it is one. */
export function categoryOfConcept(n: number): { readonly system: CodeSystem; readonly category: string } | undefined {
  const system = SEARCH_SYSTEMS[Math.floor(n / KEY3_LIMIT)];
  const key = n % KEY3_LIMIT;
  const category = decodeKey3(key);
  return system === undefined || category.length !== 3 || key3(category) !== key ? undefined : { system, category };
}

/** The 3 characters of a base-37 key (see key3). */
export function decodeKey3(n: number): string {
  let out = '';
  let rest = n;
  while (rest > 0) {
    const d = rest % 37;
    out = (d >= 1 && d <= 10 ? String.fromCharCode(d + 47) : d >= 11 ? String.fromCharCode(d + 54) : '') + out;
    rest = Math.floor(rest / 37);
  }
  return out;
}

const LATERALITY: readonly [RegExp, number, string][] = [
  [/\bbilateral\b/i, 3, 'Bilateral'],
  [/\bright\b/i, 1, 'Right'],
  [/\bleft\b/i, 2, 'Left'],
  [/\bunspecified (?:side|laterality|(?:upper |lower )?(?:limb|arm|leg|hand|foot|wrist|ankle|knee|hip|shoulder|elbow|eye|ear|femur|humerus|thigh|finger|toe|breast|kidney|lung|ovary))\b/i, 4, 'Unspecified side'],
];
const ENCOUNTER: readonly [RegExp, number, string][] = [
  [/\binitial encounter\b/i, 1, 'Initial encounter'],
  [/\bsubsequent encounter\b/i, 2, 'Subsequent encounter'],
  [/\bsequela\b/i, 3, 'Sequela'],
];

const placements = new WeakMap<object, Map<string, CodeConcept[]>>();
/** Chapters and blocks met so far, by id (their description does not depend on the date). */
const placed = new WeakMap<object, Map<number, CodeConcept>>();

/** Chapter and block of an ICD-10-CM category, from the tabular (remembered per reference and category). */
function placementConcepts(ref: Pick<Reference, 'tabular'>, category: string): CodeConcept[] {
  let memo = placements.get(ref.tabular);
  let byId = placed.get(ref.tabular);
  if (memo === undefined || byId === undefined) {
    memo = new Map();
    byId = new Map();
    placements.set(ref.tabular, memo);
    placed.set(ref.tabular, byId);
  }
  let found = memo.get(category);
  if (found === undefined) {
    found = [];
    const p = ref.tabular.placement(category);
    if (p !== undefined) {
      const chapter = Number.parseInt(p.chapter.chapter, 10);
      if (Number.isInteger(chapter)) {
        const range = p.chapter.firstCode !== null && p.chapter.lastCode !== null ? `${p.chapter.firstCode}-${p.chapter.lastCode}` : `Chapter ${p.chapter.chapter}`;
        found.push({ typeID: 1, id: 1_000_000 + chapter, desc: p.chapter.description, unspecified: false, info: { label: range, title: p.chapter.description } });
      }
      found.push({
        typeID: 2,
        id: 2_000_000 + key3(p.section.firstCode),
        desc: p.section.description,
        unspecified: false,
        info: { label: p.section.section, title: p.section.description },
      });
    }
    for (const c of found) {
      byId.set(c.id, c);
    }
    memo.set(category, found);
  }
  return found;
}

/**
 * The concept ids a code carries, in order: chapter and block (ICD-10-CM), category, laterality, encounter. The ids
 * do not depend on the date: a category not in force on a date has no description then ({@link describeConcept}),
 * and counts nowhere.
 * @param ref - the reference (tabular placement)
 */
export function conceptIdsOf(ref: Pick<Reference, 'tabular'>, system: CodeSystem, code: string, title: string): number[] {
  const ids: number[] = [];
  const category = code.slice(0, 3);
  if (system === CodeSystem.ICD10CM) {
    for (const c of placementConcepts(ref, category)) {
      ids.push(c.id);
    }
  }
  ids.push(categoryConceptId(system, category));
  for (const [re, n] of LATERALITY) {
    if (re.test(title)) {
      ids.push(4_000_000 + n);
      break;
    }
  }
  for (const [re, n] of ENCOUNTER) {
    if (re.test(title)) {
      ids.push(5_000_000 + n);
      break;
    }
  }
  return ids;
}

/**
 * The concept ids of every code version of a search index: `ids[start[v] .. start[v+1])` for version v; `slot`,
 * parallel to `ids`, numbers the distinct ids densely (`slotIds[slot[k]] === ids[k]`) so facets count in an array.
 */
export interface ConceptTable {
  readonly start: Int32Array;
  readonly ids: Int32Array;
  readonly slot: Int32Array;
  readonly slotIds: Int32Array;
}

const tables = new WeakMap<SearchIndex, ConceptTable>();

/** The dense slot of a concept id, numbered in order of first sight (`slots` keeps the numbering). */
function slotOf(slots: Map<number, number>, id: number): number {
  let s = slots.get(id);
  if (s === undefined) {
    s = slots.size;
    slots.set(id, s);
  }
  return s;
}

/**
 * The concept ids of every code version of the index, computed once per index (issue 13 §1: concepts precomputed
 * per code; facets are counted over them at query time).
 */
export function conceptTableOf(ref: Pick<Reference, 'tabular'>, index: SearchIndex): ConceptTable {
  let table = tables.get(index);
  if (table === undefined) {
    const v = index.versions;
    const start = new Int32Array(v.count + 1);
    const all: number[] = [];
    for (let e = 0; e < v.count; e++) {
      const system = SEARCH_SYSTEMS[v.system[e] as number] as CodeSystem;
      for (const id of conceptIdsOf(ref, system, v.code[e] as string, v.title[e] as string)) {
        all.push(id);
      }
      start[e + 1] = all.length;
    }
    const slots = new Map<number, number>();
    const slot = Int32Array.from(all, (id) => slotOf(slots, id));
    table = { start, ids: Int32Array.from(all), slot, slotIds: Int32Array.from(slots.keys()) };
    tables.set(index, table);
  }
  return table;
}

/** The concept ids of code version `e`. */
export function conceptIdsAt(table: ConceptTable, e: number): Int32Array {
  return table.ids.subarray(table.start[e], table.start[e + 1]);
}

/** Concepts described, remembered per reference and date (at most 20,000). */
const descriptions = memoryPerOwner<CodeConcept | null>(20_000);

/**
 * A concept on a date: chapters and blocks from the tabular, a category with its title on the date, laterality and
 * encounter by number.
 * @returns `undefined` for an id no concept has on the date (a category not in force)
 */
export function describeConcept(ref: Reference, id: number, date: string): CodeConcept | undefined {
  return descriptions(ref.codes).recall(date, String(id), () => computeDescription(ref, id, date) ?? null) ?? undefined;
}

function computeDescription(ref: Reference, id: number, date: string): CodeConcept | undefined {
  const typeID = Math.floor(id / 1_000_000);
  const n = id % 1_000_000;
  switch (typeID) {
    case 1:
    case 2:
      return placed.get(ref.tabular)?.get(id);
    case 3: {
      const found = categoryOfConcept(n);
      const title = found === undefined ? undefined : ref.codes.onDate(found.system, found.category, date)?.longTitle;
      return found === undefined || title === undefined || title === null
        ? undefined
        : { typeID, id, desc: title, unspecified: false, info: { label: dottedCode(found.system, found.category), title } };
    }
    case 4: {
      const desc = LATERALITY.find(([, k]) => k === n)?.[2];
      return desc === undefined ? undefined : { typeID, id, desc, unspecified: n === 4 };
    }
    case 5: {
      const desc = ENCOUNTER.find(([, k]) => k === n)?.[2];
      return desc === undefined ? undefined : { typeID, id, desc, unspecified: false };
    }
    default:
      return undefined;
  }
}

/**
 * The concept ids of every code of a result set: `each` hands `visit` one code at a time as `slots[from .. to)`,
 * numbers into `slotIds` (the distinct ids). A search's thousands of codes are read straight from the concept table,
 * with no array per code.
 */
export interface ConceptIdLists {
  readonly slotIds: ArrayLike<number>;
  readonly each: (visit: (slots: ArrayLike<number>, from: number, to: number) => void) => void;
}

/** The id lists of a few codes, each given whole. */
export function idListsOf(lists: readonly ArrayLike<number>[]): ConceptIdLists {
  const slots = new Map<number, number>();
  const slotLists = lists.map((ids) => Array.from(ids, (id) => slotOf(slots, id)));
  return {
    slotIds: [...slots.keys()],
    each: (visit) => {
      for (const l of slotLists) {
        visit(l, 0, l.length);
      }
    },
  };
}

/** The concept ids of some code versions of a table (a search's codes), read from the table as they are. */
export function tableListsOf(table: ConceptTable, versions: readonly number[]): ConceptIdLists {
  return {
    slotIds: table.slotIds,
    each: (visit) => {
      for (const e of versions) {
        visit(table.slot, table.start[e] as number, table.start[e + 1] as number);
      }
    },
  };
}

/**
 * Per slot list (a concept table's, reused by every search): the count of each slot seen by the search of `epoch`,
 * and each slot's concept on `date`, read once per slot while the searches keep to that date.
 */
interface FacetScratch {
  readonly stamp: Int32Array;
  readonly count: Int32Array;
  /** Per slot: the `dateEpoch` at which `concept` was read. */
  readonly read: Int32Array;
  readonly concept: (CodeConcept | undefined)[];
  epoch: number;
  date: string;
  dateEpoch: number;
}

const facetScratch = new WeakMap<object, FacetScratch>();

/**
 * Facet counts over the result set, by concept type, most common concept first.
 * @param codes - the concept ids of every code of the result set
 */
export function facetsOf(ref: Reference, codes: ConceptIdLists, includeUnspecified: boolean, date: string): ConceptType[] {
  // A count per slot; each slot seen is described once per date (undefined: no concept on the date). Hidden
  // (unspecified) concepts are described but not counted.
  const n = codes.slotIds.length;
  let scratch = facetScratch.get(codes.slotIds);
  if (scratch === undefined) {
    scratch = { stamp: new Int32Array(n), count: new Int32Array(n), read: new Int32Array(n), concept: new Array<CodeConcept | undefined>(n).fill(undefined), epoch: 0, date: '', dateEpoch: 0 };
    facetScratch.set(codes.slotIds, scratch);
  }
  if (scratch.date !== date) {
    scratch.date = date;
    scratch.dateEpoch++;
  }
  const { stamp, count, read, concept, dateEpoch } = scratch;
  const epoch = ++scratch.epoch;
  const seen: number[] = [];
  const codesOfType = new Int32Array(32);
  codes.each((slots, from, to) => {
    let types = 0;
    for (let k = from; k < to; k++) {
      const s = slots[k] as number;
      if (stamp[s] !== epoch) {
        stamp[s] = epoch;
        count[s] = 0;
        seen.push(s);
        if (read[s] !== dateEpoch) {
          read[s] = dateEpoch;
          concept[s] = describeConcept(ref, codes.slotIds[s] as number, date);
        }
      }
      const c = concept[s];
      if (c !== undefined && (includeUnspecified || !c.unspecified)) {
        count[s] = (count[s] as number) + 1;
        types |= 1 << c.typeID;
      }
    }
    for (let t = 1; types >> t !== 0; t++) {
      codesOfType[t] = (codesOfType[t] as number) + ((types >> t) & 1);
    }
  });
  const byType = new Map<number, { concept: CodeConcept; count: number }[]>();
  for (const s of seen) {
    const c = concept[s];
    if (c !== undefined && (count[s] as number) > 0) {
      const list = byType.get(c.typeID) ?? [];
      list.push({ concept: c, count: count[s] as number });
      byType.set(c.typeID, list);
    }
  }
  return [...byType.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([typeID, list]) => ({
      type: CONCEPT_TYPES[typeID] ?? 'concept',
      typeID,
      count: codesOfType[typeID] ?? 0,
      concepts: {
        concept: list
          .sort((a, b) => b.count - a.count || a.concept.id - b.concept.id)
          .map(({ concept, count }) => ({ id: concept.id, desc: concept.desc, count, hasInfo: concept.info !== undefined })),
      },
    }));
}

/** Info nodes of the page's chapters, blocks and categories (once each, in page order). */
export function infoNodesOf(ref: Reference, page: readonly ArrayLike<number>[], date: string): InfoNode[] {
  const seen = new Set<number>();
  const out: InfoNode[] = [];
  for (const ids of page) {
    for (let k = 0; k < ids.length; k++) {
      const id = ids[k] as number;
      if (seen.has(id)) {
        continue;
      }
      seen.add(id);
      const concept = describeConcept(ref, id, date);
      if (concept?.info !== undefined) {
        out.push({
          typeID: concept.typeID,
          type: CONCEPT_TYPES[concept.typeID] ?? 'concept',
          label: concept.info.label,
          title: concept.info.title,
          description: '',
        });
      }
    }
  }
  return out;
}
