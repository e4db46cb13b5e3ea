// The NLP dictionary (issue 14 §1): every name the code sets give a condition, procedure or drug, as a bag of content
// words, so a window of text meets an entry whatever the word order ("fracture of femur neck", "femur neck fracture").
// Read from the same bulk rows as the search index (Reference.search): ICD-10-CM titles and inclusion terms, the
// Alphabetic Index term paths (main term and subterms, each nonessential modifier as an optional word), the Neoplasm
// table's cells (site path + column), the PCS index (procedures) and the Drug table's drugs (medications: the terms
// with an adverse-effect code, so chemicals and gases are left out).
//
//   "Pain in left knee" (title, M25.562)       → {pain, left, knee}       key = Σ r1(w) mod 2^32 · 2^21 + Σ r2(w) mod 2^21
//   "Diabetes, diabetic > type 2" (index, E11.9) → {diabet, type, 2} and {diabet, diabetic, type, 2}
//
// A key is a sum of per-word random numbers (53 bits), so the matcher extends a window one word at a time at O(1)
// and probes a typed-array hash table (no allocation per probe).
// Among entries with the same bag the most direct wins (a billable code's title, then an inclusion term, then the
// Index, then a header's title; conditions before procedures before drugs). Built once per reference and date.
import type { Reference } from '../../reference/index.js';
import { CodeSystem } from '../../schemas/code-systems.js';
import type { MentionCategory } from '../../schemas/nlp.js';
import { foldText } from '../../schemas/search-text.js';
import { SYNONYMS } from '../search/index.js';
import { inForce, type Validity } from '../../schemas/validity.js';
import { contentWords, DROP_WORDS } from './tokenize.js';

/**
 * Index main terms too general to be a mention alone ("Encounter", "Symptoms", "History"): kept inside longer bags.
 * Stemmed forms.
 */
const NOT_ALONE: ReadonlySet<string> = new Set(
  [
    'encounter', 'symptom', 'function', 'status', 'history', 'problem', 'examination', 'exam', 'admission',
    'observation', 'finding', 'complication', 'disease', 'disorder', 'syndrome', 'condition', 'abnormal',
    'abnormality', 'care', 'counseling', 'screening', 'test', 'visit', 'followup', 'change', 'state', 'use',
    'effect', 'reaction', 'family', 'personal', 'patient', 'present', 'presence', 'positive', 'negative', 'result',
    // Words a note uses far more often in another sense than the code set's entry of that one word: "follow up
    // with PCP" (primary care, not phencyclidine, F16), "cold to touch" (not J00), "blood culture" and "sulfa drugs"
    // (not the Drug table's "Blood" and "Drug NEC").
    'pcp', 'cold', 'blood', 'drug',
  ].map((w) => contentWords(w)[0] ?? w),
);

/**
 * One word a note writes for another (the search engine's reviewed synonyms of one word for one word: hypertensive →
 * hypertension, diabetic → diabetes), as the matcher reads the note's tokens: the titles' words are read the same way,
 * so "Hypertensive heart disease with heart failure" (I11.0's title) and the note's words make the same bag.
 */
const SAME_WORD = new Map<string, string>(
  SYNONYMS.flatMap((s) => {
    const term = contentWords(s.term);
    const phrase = contentWords(s.phrases[0] ?? '');
    return term.length === 1 && phrase.length === 1 && term[0] !== phrase[0] ? [[term[0] as string, phrase[0] as string] as const] : [];
  }),
);

/** Where an entry's words come from, most direct first (the order is the tie-break between entries). */
export const EntryKind = { title: 0, inclusion: 1, index: 2, header: 3, procedure: 4, drug: 5 } as const;
export type EntryKind = (typeof EntryKind)[keyof typeof EntryKind];

/** What a bag of words names. */
export interface DictEntry {
  readonly category: MentionCategory;
  readonly kind: EntryKind;
  /** Undotted code (ICD-10-CM, maybe a category or 6 characters of 7; a PCS table prefix); empty for a drug. */
  readonly code: string;
  /** The words as the code set writes them (a title, an index path, a drug name). */
  readonly name: string;
  /** How many content words the bag holds. */
  readonly size: number;
  /**
   * The side word of an entry made from an Index path and a side its category's codes name (`left` for "Osteoarthritis,
   * hip" + left → M16.12): such a hit must not end on that word ("DVT of right arm", "hip, right worse than left").
   */
  readonly side?: string;
}

/** The dictionary of one date. */
export interface NlpDictionary {
  /** A number no other dictionary built by this process has (what a token's kept word ids name, not the object). */
  readonly serial: number;
  readonly date: string;
  /** Per word, its two random numbers (r1 in the high part, r2 in the low 21 bits of a pair of slots). */
  readonly words: ReadonlyMap<string, number>;
  readonly r1: Uint32Array;
  readonly r2: Uint32Array;
  /** How many word bags the dictionary holds. */
  readonly bags: number;
  /** Open-addressing table of the bags (see {@link lookupBag}): each slot's two key sums and entry number + 1. */
  readonly slotS1: Uint32Array;
  readonly slotS2: Uint32Array;
  readonly slotEntry: Int32Array;
  readonly entries: readonly DictEntry[];
  /**
   * Bits of word pairs that stand in one bag together (a Bloom-style filter, see {@link mayPair}): a window with a
   * word that never meets the next one in any bag cannot grow into a hit, so the matcher stops extending it.
   */
  readonly pairs: Uint32Array;
  /** The most content words any entry holds (a window never grows past it). */
  readonly maxWords: number;
  readonly buildMs: number;
  /** The dates whose rows in force are the build date's (see {@link dictionaryCovers}). */
  readonly sameRows: { covers(date: string): boolean };
}

const TWO21 = 2 ** 21;

/** The key of a bag from its running sums (while building). */
const bagKey = (s1: number, s2: number): number => (s1 >>> 0) * TWO21 + (s2 & (TWO21 - 1));

/** Bits of the pair filter (8 MiB): about 5 million pairs fill under a tenth of it. */
const PAIR_BITS = 26;

const pairBit = (a: number, b: number): number => (Math.imul(a + 1, 0x9e3779b1) ^ Math.imul(b + 1, 0x85ebca6b)) >>> (32 - PAIR_BITS);

/** False when no bag holds both words (true may be a false positive). */
export function mayPair(dict: NlpDictionary, a: number, b: number): boolean {
  const bit = pairBit(a, b);
  return ((dict.pairs[bit >>> 5] as number) & (1 << (bit & 31))) !== 0;
}

/** The first slot a bag probes. */
const slotOf = (s1: number, s2: number, mask: number): number => (Math.imul(s1 ^ s2, 0x9e3779b1) >>> 0) & mask;

/**
 * The entry of a bag given its running sums (r1 sum mod 2^32, r2 sum mod 2^21), if any: a probe of typed arrays, so
 * a window's lookup allocates nothing (a Map keyed by 53-bit numbers would box each key).
 */
export function lookupBag(dict: NlpDictionary, s1: number, s2: number): DictEntry | undefined {
  const mask = dict.slotEntry.length - 1;
  for (let slot = slotOf(s1, s2, mask); ; slot = (slot + 1) & mask) {
    const e = dict.slotEntry[slot] as number;
    if (e === 0) {
      return undefined;
    }
    if (dict.slotS1[slot] === s1 >>> 0 && dict.slotS2[slot] === s2) {
      return dict.entries[e - 1];
    }
  }
}

/** A small deterministic generator (mulberry32): the same dictionary keys on every run. */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  };
}

/**
 * An acronym a title spells out for its whole name, `Post-traumatic stress disorder (PTSD)`: the letters in the
 * parentheses at its end are the initials of every word before them (the code set's own abbreviation).
 */
function titleAcronym(title: string): string | undefined {
  const m = /^(.*?)\s*\(([A-Z]{3,6})\)$/.exec(title);
  if (m === null) {
    return undefined;
  }
  const initials = (m[1] ?? '')
    .split(/[\s-]+/)
    .filter((w) => w !== '' && !DROP_WORDS.has(w.toLowerCase()))
    .map((w) => w[0]?.toUpperCase())
    .join('');
  return initials === m[2] ? m[2] : undefined;
}

const UNSPECIFIED_SEGMENT =
  /^(?:(?:site|organism|type|part|side|laterality|cause)\s+)?(?:unspecified|not specified|not elsewhere classified|NOS|NEC)(?:\s+(?:site|organism|type|part|side|laterality|cause))?$/i;

/**
 * Parts of a title to try without: parentheticals, comma segments that only say "unspecified", and "unspecified part
 * of" phrases (`Fracture of unspecified part of right clavicle` is what a note calls a fracture of the right clavicle).
 */
function titleVariants(title: string): string[] {
  const noParens = title.replace(/\s*\([^)]*\)/g, '').replace(/\bunspecified (?:part|parts|site|ligament|region|portion) of /gi, '');
  // Only a segment that says nothing but "unspecified" goes ("unspecified organism", "site not specified"); one that
  // says more ("unspecified with intoxication delirium") stays.
  const noUnspec = (t: string): string =>
    t
      .split(', ')
      .filter((seg, i) => i === 0 || !UNSPECIFIED_SEGMENT.test(seg))
      .join(', ');
  const acronym = titleAcronym(title);
  // A side named says "unilateral": "Unilateral primary osteoarthritis, right hip" is what a note calls primary
  // osteoarthritis of the right hip.
  const sided = /\b(?:right|left)\b/i.test(title) ? [title, noParens].map((t) => t.replace(/\bunilateral\s+/gi, '')) : [];
  const variants = [title, noParens, noUnspec(title), noUnspec(noParens), ...sided];
  // A hyphen a note may leave out or put in ("ST elevation" / "ST-elevation"): the words apart too (the matcher reads
  // a hyphenated word of a note as its parts when the dictionary knows them all).
  const unhyphenated = title.includes('-') ? variants.map((t) => t.replace(/(?<=\w)-(?=\w)/g, ' ')) : [];
  return [...new Set([...variants, ...unhyphenated, ...(acronym === undefined ? [] : [acronym])])];
}

/**
 * Word lists an index path stands for: each part as written and, when it has a comma, its first segment alone where
 * the rest is another form of the same word (`Diabetes, diabetic`) or where subterms follow (`Fracture, traumatic >
 * femur`: a note says "fracture of femur"); a term that is only `Tenderness, abdominal` keeps both words. The last
 * part's nonessential modifiers each count as an optional word.
 */
function pathVariants(path: string, nemod: string | null): string[][] {
  return pathForms(path, nemod).map((f) => f.words);
}

/** A word list of an index path, and whether it takes the main term's first word alone (`Fracture` of `Fracture, pathological`). */
interface PathForm {
  readonly words: string[];
  readonly mainAlone: boolean;
}

/** {@link pathVariants}, each list saying whether it takes the main term's first word alone. */
function pathForms(path: string, nemod: string | null): PathForm[] {
  let lists: PathForm[] = [{ words: [], mainAlone: false }];
  const parts = path.split(' > ');
  for (const [i, part] of parts.entries()) {
    const comma = part.indexOf(', ');
    const head = comma < 0 ? part : part.slice(0, comma);
    const forms = comma >= 0 && (isSameWordTerm(part) || i < parts.length - 1) ? [part, head] : [part];
    const next: PathForm[] = [];
    for (const list of lists) {
      for (const f of forms) {
        if (next.length < 8) {
          next.push({ words: [...list.words, ...contentWords(foldText(f))], mainAlone: list.mainAlone || (i === 0 && f === head && f !== part) });
        }
      }
    }
    lists = next;
  }
  const groups = nemod === null ? [] : [...nemod.matchAll(/\(([^)]*)\)/g)].map((m) => contentWords(foldText(m[1] ?? '')));
  const withGroups = lists.flatMap((l) =>
    groups.filter((g) => g.length > 0 && g.length <= 3).map((g) => ({ words: [...l.words, ...g], mainAlone: l.mainAlone })),
  );
  return [...lists, ...withGroups.slice(0, 16)];
}

/** Whether a term's words after its comma are another form of its first word (`Diabetes, diabetic`, `Gout, gouty`). */
function isSameWordTerm(term: string): boolean {
  const comma = term.indexOf(', ');
  return comma >= 0 && term.slice(comma + 2, comma + 6).toLowerCase() === term.slice(0, Math.min(4, comma)).toLowerCase();
}

/**
 * The main term that a word standing alone names first, for each first word several main terms share (`Fracture,
 * traumatic`, `Fracture, pathological`, `Fracture, nontraumatic, NEC`): the one written with another form of the
 * word (`Gout, gouty` before `Gout, chronic`), else the one with the most subterms in force on the date (the
 * traumatic fracture: a note's "fracture of radius" is not a pathological one). The others' word-alone forms only
 * take bags no other name holds. Main terms whose word no other shares are not listed.
 */
function defaultMainTerms(rows: Iterable<{ readonly kind: string; readonly path: string } & Validity>, date: string): Map<string, string> {
  const counts = new Map<string, Map<string, number>>();
  for (const r of rows) {
    if (r.kind !== 'disease' || !inForce(r, date)) {
      continue;
    }
    const main = r.path.slice(0, (r.path.indexOf(' > ') + 1 || r.path.length + 1) - 1);
    const comma = main.indexOf(', ');
    if (comma < 0) {
      continue;
    }
    const terms = counts.get(main.slice(0, comma)) ?? new Map<string, number>();
    terms.set(main, (terms.get(main) ?? 0) + 1);
    counts.set(main.slice(0, comma), terms);
  }
  const chosen = new Map<string, string>();
  for (const [head, terms] of counts) {
    if (terms.size > 1) {
      const ranked = [...terms].sort((a, b) => Number(isSameWordTerm(b[0])) - Number(isSameWordTerm(a[0])) || b[1] - a[1]);
      chosen.set(head, (ranked[0] as [string, number])[0]);
    }
  }
  return chosen;
}

/** Neoplasm table columns as a note words them. */
const NEOPLASM_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  'Malignant Primary': ['malignant', 'malignant primary', 'primary malignant'],
  'Malignant Secondary': ['secondary malignant', 'metastatic'],
  'Ca in situ': ['carcinoma in situ'],
  Benign: ['benign'],
};

/**
 * The dates over which every row read so far is in force or not exactly as on the build date: the dictionary of any
 * of them is the same one (the rows change only at release boundaries), so a server does not rebuild it each day.
 */
class SameRows {
  /** d' >= lowIncl, d' > lowExcl, d' < highExcl, d' <= highIncl ('' and '~' stand for no bound). */
  lowIncl = '';
  lowExcl = '';
  highExcl = '~';
  highIncl = '~';

  constructor(private readonly date: string) {}

  /** Whether a row is in force on the date (schemas/validity.ts); narrows the dates where that answer holds. */
  inForce(row: Validity): boolean {
    const { date } = this;
    const { validFrom: from, validTo: to } = row;
    if (from > date) {
      this.highExcl = from < this.highExcl ? from : this.highExcl;
    } else if (to !== null && to < date) {
      this.lowIncl = from > this.lowIncl ? from : this.lowIncl;
      this.lowExcl = to > this.lowExcl ? to : this.lowExcl;
    } else {
      this.lowIncl = from > this.lowIncl ? from : this.lowIncl;
      if (to !== null) {
        this.highIncl = to < this.highIncl ? to : this.highIncl;
      }
    }
    return inForce(row, date);
  }

  covers(d: string): boolean {
    return d >= this.lowIncl && d > this.lowExcl && d < this.highExcl && d <= this.highIncl;
  }
}

/** Whether a dictionary holds for a date (the rows in force on it are those of its build date). */
export function dictionaryCovers(dict: NlpDictionary, date: string): boolean {
  return dict.date === date || dict.sameRows.covers(date);
}

/** How many dictionaries this process has built (each one's serial). */
let dictionariesBuilt = 0;

/**
 * Builds the dictionary of the code sets in force on a date.
 * @param ref - the reference port (its bulk search rows and the code tables)
 * @param date - ISO date; rows not in force on it are left out
 */
export function buildDictionary(ref: Pick<Reference, 'search' | 'codes'>, date: string): NlpDictionary {
  const started = performance.now();
  const words = new Map<string, number>();
  const r1: number[] = [];
  const r2: number[] = [];
  const random = generator(0x4e4c50);
  const entries = new Map<number, DictEntry>();
  const pairs = new Uint32Array(2 ** (PAIR_BITS - 5));
  let maxWords = 0;
  const billable = (code: string): boolean | undefined => ref.codes.onDate(CodeSystem.ICD10CM, code, date)?.billable;
  const sameRows = new SameRows(date);
  const sided = new Map<string, readonly { side: string; code: string }[]>();
  /**
   * The codes one character under a category that each name one side its title does not (kept per code): `M161` →
   * right M16.11, left M16.12; `S7200` → right S72.001, left S72.002 (a 7th character still to choose); none where no
   * single code names a side. The children are read through the category's billable descendants.
   */
  const sidedChildren = (category: string): readonly { side: string; code: string }[] => {
    let found = sided.get(category);
    if (found === undefined) {
      const sideOf = (title: string): string[] => [...new Set(title.toLowerCase().match(/\b(?:right|left|bilateral)\b/g) ?? [])];
      const own = new Set(sideOf(ref.codes.onDate(CodeSystem.ICD10CM, category, date)?.longTitle ?? ''));
      const under = ref.codes.manyBillableDescendants(CodeSystem.ICD10CM, [category], date, 400).get(category)?.codes ?? [];
      const children = new Set(under.map((c) => c.slice(0, category.length + 1)));
      const bySide = new Map<string, string[]>();
      for (const code of children) {
        const sides = code.length === category.length + 1 ? sideOf(ref.codes.onDate(CodeSystem.ICD10CM, code, date)?.longTitle ?? '') : [];
        const side = sides.length === 1 ? (sides[0] as string) : undefined;
        if (side !== undefined && !own.has(side)) {
          bySide.set(side, [...(bySide.get(side) ?? []), code]);
        }
      }
      found = [...bySide].flatMap(([side, codes]) => (codes.length === 1 ? [{ side, code: codes[0] as string }] : []));
      sided.set(category, found);
    }
    return found;
  };

  /** Adds a name's bag; with `onlyIfNew`, only when no other name holds that bag (a main term's word alone). */
  const add = (list: readonly string[], entry: Omit<DictEntry, 'size'>, onlyIfNew = false): void => {
    const bag = [...new Set(list.map((w) => SAME_WORD.get(w) ?? w))];
    if (bag.length === 0 || (bag.length === 1 && ((bag[0] as string).length < 3 || NOT_ALONE.has(bag[0] as string)))) {
      return;
    }
    let s1 = 0;
    let s2 = 0;
    const ids: number[] = [];
    for (const w of bag) {
      let id = words.get(w);
      if (id === undefined) {
        id = r1.length;
        words.set(w, id);
        r1.push(random());
        r2.push(random() & (TWO21 - 1));
      }
      ids.push(id);
      s1 = (s1 + (r1[id] as number)) >>> 0;
      s2 = (s2 + (r2[id] as number)) & (TWO21 - 1);
    }
    const key = bagKey(s1, s2);
    const held = entries.get(key);
    if (onlyIfNew && held !== undefined) {
      return;
    }
    for (const a of ids) {
      for (const b of ids) {
        if (a !== b) {
          const bit = pairBit(a, b);
          pairs[bit >>> 5] = (pairs[bit >>> 5] as number) | (1 << (bit & 31));
        }
      }
    }
    if (held === undefined || entry.kind < held.kind) {
      entries.set(key, { ...entry, size: bag.length });
      maxWords = Math.max(maxWords, bag.length);
    }
  };

  for (const t of ref.search.titles([CodeSystem.ICD10CM])) {
    if (sameRows.inForce(t)) {
      const kind = t.billable === 1 ? EntryKind.title : EntryKind.header;
      for (const v of titleVariants(t.title)) {
        add(contentWords(foldText(v)), { category: 'condition', kind, code: t.code, name: t.title });
      }
    }
  }
  for (const r of ref.search.inclusionTerms()) {
    if (sameRows.inForce(r)) {
      const kind = billable(r.code) === true ? EntryKind.inclusion : EntryKind.header;
      for (const v of titleVariants(r.text)) {
        add(contentWords(foldText(v)), { category: 'condition', kind, code: r.code, name: r.text });
      }
    }
  }
  const mainTerms = defaultMainTerms(ref.search.indexRows(), date);
  const headStandsFor = (mainTerm: string): boolean => {
    const chosen = mainTerms.get(mainTerm.slice(0, mainTerm.indexOf(', ')));
    return chosen === undefined || chosen === mainTerm;
  };
  // The word-alone forms of the other main terms ("fracture" of "Fracture, pathological > vertebra"): added after the
  // Index, where no other name has the bag ("compression fracture" is still M48.50; "fracture of radius" traumatic).
  const laterForms: { readonly list: readonly string[]; readonly entry: Omit<DictEntry, 'size'> }[] = [];
  for (const r of ref.search.indexRows()) {
    if (!sameRows.inForce(r)) {
      continue;
    }
    const parts = r.path.split(' > ');
    const last = parts[parts.length - 1] ?? '';
    switch (r.kind) {
      case 'disease': {
        const own = billable(r.code);
        const kind = own === true ? EntryKind.index : EntryKind.header;
        const forms = pathForms(r.path, r.nemod);
        const variants = forms.map((f) => f.words);
        const name = r.path.replaceAll(' > ', ', ');
        const entry = { category: 'condition', kind, code: r.code, name } as const;
        const aloneLater = forms.some((f) => f.mainAlone) && !headStandsFor(parts[0] ?? '');
        for (const f of forms) {
          if (f.mainAlone && aloneLater) {
            laterForms.push({ list: f.words, entry });
          } else {
            add(f.words, entry);
          }
        }
        // A category the Index sends to whose codes differ by side ("Osteoarthritis, hip" M16.1-: M16.11 right hip,
        // M16.12 left hip): the path with the side named is that code ("osteoarthritis of left hip"). A side says
        // "unilateral", so a path's "unilateral" is not needed beside it.
        if (own === false) {
          for (const { side, code } of sidedChildren(r.code)) {
            const sidedEntry = {
              category: 'condition',
              kind: billable(code) === true ? EntryKind.index : EntryKind.header,
              code,
              name: `${name}, ${side}`,
              side,
            } as const;
            for (const v of variants) {
              add([...v.filter((w) => w !== 'unilateral'), side], sidedEntry);
            }
          }
        }
        break;
      }
      case 'neoplasm': {
        const phrases = NEOPLASM_COLUMNS[last];
        if (phrases === undefined) {
          break;
        }
        const site = parts.slice(0, -1).join(' > ');
        const kind = billable(r.code) === true ? EntryKind.index : EntryKind.header;
        for (const v of pathVariants(site, null)) {
          for (const p of phrases) {
            add([...v, ...contentWords(p)], { category: 'condition', kind, code: r.code, name: `${site.replaceAll(' > ', ', ')} (${last})` });
          }
        }
        break;
      }
      case 'pcs':
        for (const v of pathVariants(r.path, null)) {
          add(v, { category: 'procedure', kind: EntryKind.procedure, code: r.code, name: r.path.replaceAll(' > ', ', ') });
        }
        break;
      case 'drug':
        // A drug with an adverse-effect code is one given as a treatment; the name is the path without the column.
        if (last === 'Adverse effect' && parts.length === 2) {
          const name = parts[0] ?? '';
          add(contentWords(foldText(name)), { category: 'medication', kind: EntryKind.drug, code: '', name });
        }
        break;
      case 'external':
        break;
    }
  }
  for (const { list, entry } of laterForms) {
    add(list, entry, true);
  }
  // The bags into an open-addressing table at most half full.
  let size = 2;
  while (size < entries.size * 2) {
    size *= 2;
  }
  const slotS1 = new Uint32Array(size);
  const slotS2 = new Uint32Array(size);
  const slotEntry = new Int32Array(size);
  const list: DictEntry[] = [];
  for (const [key, entry] of entries) {
    const k1 = Math.floor(key / TWO21);
    const k2 = key % TWO21;
    let slot = slotOf(k1, k2, size - 1);
    while (slotEntry[slot] !== 0) {
      slot = (slot + 1) & (size - 1);
    }
    list.push(entry);
    slotS1[slot] = k1;
    slotS2[slot] = k2;
    slotEntry[slot] = list.length;
  }
  return {
    serial: ++dictionariesBuilt,
    date,
    words,
    r1: Uint32Array.from(r1),
    r2: Uint32Array.from(r2),
    bags: list.length,
    slotS1,
    slotS2,
    slotEntry,
    entries: list,
    pairs,
    maxWords: Math.min(maxWords, 12),
    buildMs: performance.now() - started,
    sameRows,
  };
}
