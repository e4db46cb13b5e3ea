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
import { SEARCH_SYSTEMS } from './search-index.js';

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

/** The concepts of one code, and their ids. */
export interface CodeConcepts {
  readonly concepts: readonly CodeConcept[];
  readonly ids: readonly number[];
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

/** Chapter and block of an ICD-10-CM category, from the tabular (remembered per reference and category). */
function placementConcepts(ref: Reference, category: string): CodeConcept[] {
  let memo = placements.get(ref.tabular);
  if (memo === undefined) {
    memo = new Map();
    placements.set(ref.tabular, memo);
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
    memo.set(category, found);
  }
  return found;
}

/**
 * The concepts a code carries.
 * @param ref - the reference (tabular placement, category titles)
 */
export function conceptsOf(ref: Reference, system: CodeSystem, code: string, title: string, date: string): CodeConcepts {
  return conceptMemory(ref.codes).recall(`${system}|${date}`, `${code}|${title}`, () => computeConcepts(ref, system, code, title, date));
}

/** Concepts of a code, remembered per reference, date, code and title (at most 100,000). */
const conceptMemory = memoryPerOwner<CodeConcepts>(100_000);

function computeConcepts(ref: Reference, system: CodeSystem, code: string, title: string, date: string): CodeConcepts {
  const concepts: CodeConcept[] = [];
  const category = code.slice(0, 3);
  if (system === CodeSystem.ICD10CM) {
    concepts.push(...placementConcepts(ref, category));
  }
  const categoryTitle = ref.codes.onDate(system, category, date)?.longTitle;
  if (categoryTitle !== undefined && categoryTitle !== null) {
    concepts.push({
      typeID: 3,
      id: categoryConceptId(system, category),
      desc: categoryTitle,
      unspecified: false,
      info: { label: dottedCode(system, category), title: categoryTitle },
    });
  }
  for (const [re, n, desc] of LATERALITY) {
    if (re.test(title)) {
      concepts.push({ typeID: 4, id: 4_000_000 + n, desc, unspecified: n === 4 });
      break;
    }
  }
  for (const [re, n, desc] of ENCOUNTER) {
    if (re.test(title)) {
      concepts.push({ typeID: 5, id: 5_000_000 + n, desc, unspecified: false });
      break;
    }
  }
  return { concepts, ids: concepts.map((c) => c.id) };
}

/** Facet counts over the result set, by concept type, most common concept first. */
export function facetsOf(codes: readonly CodeConcepts[], includeUnspecified: boolean): ConceptType[] {
  const byType = new Map<number, Map<number, { concept: CodeConcept; count: number }>>();
  const codesOfType = new Map<number, number>();
  for (const c of codes) {
    const types = new Set<number>();
    for (const concept of c.concepts) {
      if (concept.unspecified && !includeUnspecified) {
        continue;
      }
      const m = byType.get(concept.typeID) ?? new Map<number, { concept: CodeConcept; count: number }>();
      byType.set(concept.typeID, m);
      const had = m.get(concept.id);
      if (had === undefined) {
        m.set(concept.id, { concept, count: 1 });
      } else {
        had.count++;
      }
      types.add(concept.typeID);
    }
    for (const t of types) {
      codesOfType.set(t, (codesOfType.get(t) ?? 0) + 1);
    }
  }
  return [...byType.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([typeID, m]) => ({
      type: CONCEPT_TYPES[typeID] ?? 'concept',
      typeID,
      count: codesOfType.get(typeID) ?? 0,
      concepts: {
        concept: [...m.values()]
          .sort((a, b) => b.count - a.count || a.concept.id - b.concept.id)
          .map(({ concept, count }) => ({ id: concept.id, desc: concept.desc, count, hasInfo: concept.info !== undefined })),
      },
    }));
}

/** Info nodes of the page's chapters, blocks and categories (once each, in page order). */
export function infoNodesOf(_ref: Reference, page: readonly CodeConcepts[], _date: string): InfoNode[] {
  const seen = new Set<number>();
  const out: InfoNode[] = [];
  for (const c of page) {
    for (const concept of c.concepts) {
      if (concept.info !== undefined && !seen.has(concept.id)) {
        seen.add(concept.id);
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
