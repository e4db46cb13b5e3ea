// The in-memory search index (issue 13 §1): every code title, ICD-10-CM inclusion term and index term that leads to
// a code, as documents of word ids in flat typed arrays, with a posting list per word. Words are numbered in sorted
// order, so the words a prefix matches are one contiguous id range: a query word is an id range, and "document has
// the word" is a binary search of that range in the document's sorted ids.
//
//   rows (src/reference/queries/search-docs.ts) ──textWords──> vocabulary (sorted) ──> docs (CSR of word ids, in text
//   order and sorted) + postings (CSR of doc ids per word)
//   title rows ──> code versions (one per code and interval, in code order): what a hit is, with its title, billable
//   flag and title words, so a search ranks integers and reads no code table
import type { SearchDocQueries } from '../../reference/queries/search-docs.js';
import { CodeSystem } from '../../schemas/code-systems.js';
import { textWords } from '../../schemas/search-text.js';
import { dayKey, inForceByKey, OPEN_END_KEY } from '../../schemas/validity.js';
import { orderByKey } from '../packed-order.js';

/** What a document is. */
export const DocKind = { title: 0, inclusion: 1, index: 2 } as const;
export type DocKind = (typeof DocKind)[keyof typeof DocKind];

/** The systems a search covers, in a fixed order (their index in this list is stored per document). */
export const SEARCH_SYSTEMS: readonly CodeSystem[] = [CodeSystem.ICD10CM, CodeSystem.ICD10PCS, CodeSystem.ICD9CM_DX, CodeSystem.ICD9CM_PROC];

/** A word-id range `[lo, hi)`: the vocabulary words a query word matches. */
export interface WordRange {
  readonly lo: number;
  readonly hi: number;
}

/**
 * The code versions of the index: one per title row (a code in force over an interval), in code order (then system,
 * then first day), so a version's number is its rank among codes. A search's hits are version numbers.
 */
export interface SearchVersions {
  readonly count: number;
  /** Place in SEARCH_SYSTEMS. */
  readonly system: Uint8Array;
  readonly code: readonly string[];
  /** The interval it is in force, as day keys (schemas/validity `dayKey`; an open end is OPEN_END_KEY). */
  readonly fromKey: Int32Array;
  readonly toKey: Int32Array;
  readonly billable: Uint8Array;
  readonly title: readonly string[];
  /** Tabular order (the order file's; -1 where there is none): how a header's descendants are listed. */
  readonly ord: Int32Array;
  /** Whether the title says "unspecified". */
  readonly unspecified: Uint8Array;
  /** The title's words: `words[titleStart[v] .. titleStart[v] + titleLength[v])` of the index (none: length 0). */
  readonly titleStart: Int32Array;
  readonly titleLength: Int32Array;
}

/** The built index. */
export interface SearchIndex {
  /** Sorted vocabulary; a word's id is its position. */
  readonly vocabulary: readonly string[];
  /** Documents per word (how common it is), by word id. */
  readonly frequency: Int32Array;
  readonly docs: number;
  /**
   * Documents are numbered titles first, then inclusion terms, then Alphabetic Index terms: those below this number
   * are texts, the rest Index terms (a search without the Index stops each word's postings here).
   */
  readonly textDocs: number;
  readonly kind: Uint8Array;
  readonly system: Uint8Array;
  readonly billable: Uint8Array;
  readonly code: readonly string[];
  /** The interval a document is in force, as day keys (schemas/validity `dayKey`; an open end is OPEN_END_KEY). */
  readonly fromKey: Int32Array;
  readonly toKey: Int32Array;
  /**
   * For an Alphabetic Index document, the code it leads to as a number (`targetSystem`/`targetCode` name it), so a
   * search collects each code once; -1 for other documents.
   */
  readonly target: Int32Array;
  readonly targetSystem: Uint8Array;
  readonly targetCode: readonly string[];
  /** Word ids of document d in text order: `words[start[d] .. start[d+1])`; `sorted` holds the same ids sorted. */
  readonly start: Int32Array;
  readonly words: Int32Array;
  readonly sorted: Int32Array;
  /** Documents of word w: `postings[postStart[w] .. postStart[w+1])`, ascending. */
  readonly postStart: Int32Array;
  readonly postings: Int32Array;
  /** The code versions; `version[d]` is the version a title document d belongs to (-1 for other documents). */
  readonly versions: SearchVersions;
  readonly version: Int32Array;
  /** PCS index main terms that say "see" another term, by folded title: the phrases (`appendectomy` → …). */
  readonly pcsSee: ReadonlyMap<string, readonly string[]>;
  readonly buildMs: number;
}

/**
 * The ids of the vocabulary words starting with `prefix`.
 * @returns an empty range (`lo === hi`) when none does
 */
export function prefixRange(index: SearchIndex, prefix: string): WordRange {
  const v = index.vocabulary;
  let lo = 0;
  let hi = v.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((v[mid] as string) < prefix) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  let end = lo;
  let top = v.length;
  while (end < top) {
    const mid = (end + top) >> 1;
    if ((v[mid] as string).startsWith(prefix)) {
      end = mid + 1;
    } else {
      top = mid;
    }
  }
  return { lo, hi: end };
}

/** The id of exactly `word`, or -1. */
export function wordId(index: SearchIndex, word: string): number {
  const r = prefixRange(index, word);
  return r.lo < r.hi && index.vocabulary[r.lo] === word ? r.lo : -1;
}

/** Whether document `d` holds a word of range `r` (binary search of its sorted ids). */
export function docHas(index: SearchIndex, d: number, r: WordRange): boolean {
  let lo = index.start[d] as number;
  let hi = index.start[d + 1] as number;
  const s = index.sorted;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((s[mid] as number) < r.lo) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo < (index.start[d + 1] as number) && (s[lo] as number) < r.hi;
}

/**
 * The version of a code in force on a day (a day key: schemas/validity `dayKey`).
 * @returns its number, or -1 when the index has no version of the code on that day
 */
export function versionOn(index: SearchIndex, system: CodeSystem, code: string, day: number): number {
  const v = index.versions;
  const place = SEARCH_SYSTEMS.indexOf(system);
  // Versions are in code order: the first of the code, then its versions in every system.
  for (let e = firstVersionFrom(v, code); e < v.count && v.code[e] === code; e++) {
    if (v.system[e] === place && inForceByKey(v.fromKey, v.toKey, e, day)) {
      return e;
    }
  }
  return -1;
}

/**
 * The billable descendants of a code in force on a day (a day key), codes that start with it, itself aside: the
 * first `limit` in tabular order then code order, as the code table lists a header's codes.
 * @returns version numbers, in no particular order
 */
export function billableUnder(index: SearchIndex, system: CodeSystem, code: string, day: number, limit: number): number[] {
  const v = index.versions;
  const place = SEARCH_SYSTEMS.indexOf(system);
  const out: number[] = [];
  // Every code is [0-9A-Z]: those that start with `code` sort before `code` followed by `~`.
  const end = firstVersionFrom(v, `${code}~`);
  for (let e = firstVersionFrom(v, code); e < end; e++) {
    if (v.billable[e] === 1 && v.system[e] === place && v.code[e] !== code && inForceByKey(v.fromKey, v.toKey, e, day)) {
      out.push(e);
    }
  }
  // Tabular order, then code order (the version's number).
  return out.length <= limit ? out : orderByKey(out, (e) => (v.ord[e] as number) + 1, v.count, limit);
}

/** The first version whose code is not below `code` (binary search of the code order). */
function firstVersionFrom(v: SearchVersions, code: string): number {
  let lo = 0;
  let hi = v.count;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((v.code[mid] as string) < code) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

interface Pending {
  kind: DocKind;
  system: number;
  billable: number;
  code: string;
  from: string;
  to: string;
  words: string[];
  /** Words of the text itself (the rest are the numbers of a range, "1 through 4"). */
  plain: number;
  /** The code version of a title document, else -1. */
  version: number;
}

/**
 * Builds the index from the reference's search rows.
 * @param rows - the bulk reads of the reference
 */
export function buildSearchIndex(rows: SearchDocQueries): SearchIndex {
  const t0 = performance.now();
  const intern = new Map<string, string>();
  const same = (s: string): string => {
    const had = intern.get(s);
    if (had !== undefined) {
      return had;
    }
    intern.set(s, s);
    return s;
  };
  const pending: Pending[] = [];
  const add = (kind: DocKind, system: CodeSystem, billable: number, code: string, from: string, to: string | null, text: string, version = -1): void => {
    const words = textWords(text).map((w) => w.word);
    const plain = words.length;
    // "stage 1 through stage 4", "1-4": the numbers between count as written (a search for "stage 3" finds it).
    for (const m of text.matchAll(/\b(\d{1,2})\s*(?:through|thru|-|to)\s*(?:[a-z]+\s+)?(\d{1,2})\b/gi)) {
      for (let k = Number(m[1]) + 1; k < Number(m[2]) && k - Number(m[1]) < 10; k++) {
        words.push(String(k));
      }
    }
    if (words.length === 0) {
      return;
    }
    pending.push({ kind, system: SEARCH_SYSTEMS.indexOf(system), billable, code: same(code), from, to: to ?? '', words, plain, version });
  };
  // Step 1: documents.
  // A title or inclusion term with nonessential words in parentheses ("Essential (primary) hypertension") is also
  // indexed without them, so the words around them read as a phrase.
  const core = (text: string): string | undefined => {
    const without = text.replace(/\s*\([^)]*\)/g, '');
    return without !== text && without.trim() !== '' ? without : undefined;
  };
  const titleRows = rows
    .titles(SEARCH_SYSTEMS)
    .map((r) => ({ ...r, place: SEARCH_SYSTEMS.indexOf(r.system) }))
    .sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : a.place - b.place || (a.validFrom < b.validFrom ? -1 : a.validFrom > b.validFrom ? 1 : 0)));
  const titleDoc = new Int32Array(titleRows.length).fill(-1);
  titleRows.forEach((r, version) => {
    const before = pending.length;
    add(DocKind.title, r.system, r.billable, r.code, r.validFrom, r.validTo, r.title, version);
    if (pending.length > before) {
      titleDoc[version] = before;
    }
    const c = core(r.title);
    if (c !== undefined) {
      add(DocKind.title, r.system, r.billable, r.code, r.validFrom, r.validTo, c, version);
    }
  });
  for (const r of rows.inclusionTerms()) {
    add(DocKind.inclusion, CodeSystem.ICD10CM, 0, r.code, r.validFrom, r.validTo, r.text);
    const c = core(r.text);
    if (c !== undefined) {
      add(DocKind.inclusion, CodeSystem.ICD10CM, 0, r.code, r.validFrom, r.validTo, c);
    }
  }
  for (const r of rows.indexRows()) {
    const code = r.code.replace(/[.-]/g, '').toUpperCase();
    add(DocKind.index, r.kind === 'pcs' ? CodeSystem.ICD10PCS : CodeSystem.ICD10CM, 0, code, r.validFrom, r.validTo, r.path.replaceAll(' > ', ', '));
  }
  // "See" references of the disease and External Cause indexes, followed to the term they name (its comma-separated
  // parts matched as title prefixes from a main term down, within the same index release): the referring term's
  // words then lead to that term's code.
  for (const r of resolveSeeTerms(rows)) {
    add(DocKind.index, CodeSystem.ICD10CM, 0, r.code, r.validFrom, r.validTo, r.path.replaceAll(' > ', ', '));
  }
  const pcsSee = new Map<string, string[]>();
  for (const r of rows.seeRows()) {
    const key = textWords(r.title).map((w) => w.word).join(' ');
    const list = pcsSee.get(key) ?? [];
    list.push(r.see);
    pcsSee.set(key, list);
  }
  // Step 2: the vocabulary, sorted, and each document's word ids.
  const vocab = new Set<string>();
  for (const p of pending) {
    for (const w of p.words) {
      vocab.add(w);
    }
  }
  const vocabulary = [...vocab].sort();
  const idOf = new Map(vocabulary.map((w, i) => [w, i]));
  const n = pending.length;
  const start = new Int32Array(n + 1);
  for (let d = 0; d < n; d++) {
    start[d + 1] = (start[d] as number) + (pending[d] as Pending).words.length;
  }
  const total = start[n] as number;
  const words = new Int32Array(total);
  const sorted = new Int32Array(total);
  const frequency = new Int32Array(vocabulary.length);
  const kind = new Uint8Array(n);
  const system = new Uint8Array(n);
  const billable = new Uint8Array(n);
  const code: string[] = new Array<string>(n);
  const version = new Int32Array(n);
  const fromKey = new Int32Array(n);
  const toKey = new Int32Array(n);
  const target = new Int32Array(n).fill(-1);
  const targetOf = new Map<string, number>();
  const targetSystem: number[] = [];
  const targetCode: string[] = [];
  for (let d = 0; d < n; d++) {
    const p = pending[d] as Pending;
    const at = start[d] as number;
    const ids = p.words.map((w) => idOf.get(w) as number);
    words.set(ids, at);
    const uniq = [...new Set(ids)].sort((a, b) => a - b);
    sorted.set(uniq, at);
    // Duplicate ids are dropped from the sorted copy; the rest of its slot repeats the largest id (still sorted).
    for (let k = uniq.length; k < ids.length; k++) {
      sorted[at + k] = uniq[uniq.length - 1] as number;
    }
    for (const id of uniq) {
      frequency[id] = (frequency[id] as number) + 1;
    }
    kind[d] = p.kind;
    system[d] = p.system;
    billable[d] = p.billable;
    code[d] = p.code;
    version[d] = p.version;
    fromKey[d] = dayKey(p.from);
    toKey[d] = p.to === '' ? OPEN_END_KEY : dayKey(p.to);
    if (p.kind === DocKind.index) {
      const key = `${String(p.system)}|${p.code}`;
      let t = targetOf.get(key);
      if (t === undefined) {
        t = targetCode.length;
        targetOf.set(key, t);
        targetSystem.push(p.system);
        targetCode.push(p.code);
      }
      target[d] = t;
    }
  }
  // Step 3: postings.
  const postStart = new Int32Array(vocabulary.length + 1);
  for (let w = 0; w < vocabulary.length; w++) {
    postStart[w + 1] = (postStart[w] as number) + (frequency[w] as number);
  }
  const postings = new Int32Array(postStart[vocabulary.length] as number);
  const fill = postStart.slice(0, vocabulary.length);
  for (let d = 0; d < n; d++) {
    let last = -1;
    for (let k = start[d] as number; k < (start[d + 1] as number); k++) {
      const w = sorted[k] as number;
      if (w !== last) {
        postings[fill[w] as number] = d;
        fill[w] = (fill[w] as number) + 1;
        last = w;
      }
    }
  }
  const firstIndexDoc = pending.findIndex((p) => p.kind === DocKind.index);
  if (firstIndexDoc !== -1 && pending.some((p, d) => d > firstIndexDoc && p.kind !== DocKind.index)) {
    throw new Error('search index: a title or inclusion document after the first Index document');
  }
  // Step 4: the code versions.
  const vn = titleRows.length;
  const titleStart = new Int32Array(vn);
  const titleLength = new Int32Array(vn);
  titleRows.forEach((_r, e) => {
    const d = titleDoc[e] as number;
    if (d >= 0) {
      titleStart[e] = start[d] as number;
      titleLength[e] = (pending[d] as Pending).plain;
    }
  });
  const versions: SearchVersions = {
    count: vn,
    system: Uint8Array.from(titleRows, (r) => r.place),
    code: titleRows.map((r) => same(r.code)),
    fromKey: Int32Array.from(titleRows, (r) => dayKey(r.validFrom)),
    toKey: Int32Array.from(titleRows, (r) => (r.validTo === null ? OPEN_END_KEY : dayKey(r.validTo))),
    billable: Uint8Array.from(titleRows, (r) => r.billable),
    title: titleRows.map((r) => r.title),
    ord: Int32Array.from(titleRows, (r) => r.ord ?? -1),
    unspecified: Uint8Array.from(titleRows, (r) => (/\bunspecified\b/i.test(r.title) ? 1 : 0)),
    titleStart,
    titleLength,
  };
  return {
    vocabulary,
    frequency,
    docs: n,
    textDocs: firstIndexDoc === -1 ? n : firstIndexDoc,
    kind,
    system,
    billable,
    code,
    fromKey,
    toKey,
    target,
    targetSystem: Uint8Array.from(targetSystem),
    targetCode,
    start,
    words,
    sorted,
    postStart,
    postings,
    versions,
    version,
    pcsSee,
    buildMs: performance.now() - t0,
  };
}

/**
 * The codes "see" references lead to: `Fracture, femur, upper end, neck` is the main term whose title starts with
 * "fracture" (any of them: "Fracture, traumatic", "Fracture, pathological"), then a child starting with "femur",
 * then "upper end", then "neck", depth first; the first path that ends on a term with a code gives it.
 */
function resolveSeeTerms(rows: SearchDocQueries): { path: string; code: string; validFrom: string; validTo: string | null }[] {
  const see = rows.seeTerms();
  if (see.length === 0) {
    return [];
  }
  const children = new Map<number, SearchTreeRowLike[]>();
  const mains = new Map<number, SearchTreeRowLike[]>();
  for (const t of rows.indexTree()) {
    const list = t.parentId === null ? mains.get(t.sourceId) : children.get(t.parentId);
    if (list === undefined) {
      (t.parentId === null ? mains : children).set(t.parentId ?? t.sourceId, [t]);
    } else {
      list.push(t);
    }
  }
  const out: { path: string; code: string; validFrom: string; validTo: string | null }[] = [];
  const find = (terms: readonly SearchTreeRowLike[] | undefined, parts: readonly string[]): string | undefined => {
    const [part, ...rest] = parts;
    if (part === undefined) {
      return undefined;
    }
    for (const t of terms ?? []) {
      if (!t.titleKey.startsWith(part)) {
        continue;
      }
      if (rest.length === 0) {
        if (t.code !== null) {
          return t.code;
        }
        continue;
      }
      const deeper = find(children.get(t.id), rest);
      if (deeper !== undefined) {
        return deeper;
      }
    }
    return undefined;
  };
  for (const r of see) {
    const parts = r.see
      .toLowerCase()
      .split(',')
      .map((p) => p.replace(/\(.*?\)/g, '').trim())
      .filter((p) => p !== '');
    const code = find(mains.get(r.sourceId), parts);
    if (code !== undefined) {
      out.push({ path: r.path, code: code.replace(/[.-]/g, '').toUpperCase(), validFrom: r.validFrom, validTo: r.validTo });
    }
  }
  return out;
}

type SearchTreeRowLike = ReturnType<SearchDocQueries['indexTree']>[number];
