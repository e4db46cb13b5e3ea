// How clinical text becomes tokens (issue 14 §1): each run of letters and digits (with its hyphen or slash parts) is
// one token with its character offsets in the original text, its folded form (for assertion triggers) and its
// content words, folded and stemmed exactly as the search engine's documents (src/schemas/search-text.ts), so the
// dictionary built from titles and index paths meets the text on the same forms.
//
//   "Denies chest-pain; r/o MI."  → denies | chest-pain (words: chestpain) | r/o | mi
//                                    sentence 0 ───────── sentence 1 ───
//
// Boundaries: a sentence ends at . ! ? followed by a space or the end, at a semicolon, and at a line break that starts
// a new item (blank line, bullet, numbered item, a capital letter); a clause also ends at : ( ) [ ]. Dictionary
// matches stay inside a clause (a comma does not end one: titles have commas, "fracture of clavicle, initial
// encounter"); assertion scopes stay inside a sentence. A slash parts a list into tokens (`cough/fever`) except
// between single letters (`r/o`, `s/p`, `w/o`: one token).
import { foldText, stem, STOP_WORDS } from '../../schemas/search-text.js';

/** One token of a text, as an object ({@link Tokens.at}: tests and debugging; the engine reads the columns). */
export interface Token {
  readonly begin: number;
  readonly end: number;
  /** Folded (lower-case, unaccented) as written: `r/o`, `chest-pain`, `denies`. */
  readonly raw: string;
  /** Content words, stemmed (stop words left out): `chest-pain` → [`chestpain`], `w/o` → [`without`]. */
  readonly words: readonly string[];
  readonly sentence: number;
  readonly clause: number;
}

/**
 * The tokens of a text as columns: offsets, sentence and clause numbers in typed arrays and the remembered form of
 * each, so a note of a thousand tokens makes a handful of objects, not a thousand (they were a fifth of an NLP
 * request's garbage).
 */
export class Tokens {
  /** How many tokens there are. */
  length = 0;
  begin: Int32Array;
  end: Int32Array;
  sentence: Int32Array;
  clause: Int32Array;
  /** Each token's form (shared with every other token written the same way). */
  readonly form: Form[] = [];

  constructor(capacity: number) {
    const n = Math.max(capacity, 16);
    this.begin = new Int32Array(n);
    this.end = new Int32Array(n);
    this.sentence = new Int32Array(n);
    this.clause = new Int32Array(n);
  }

  /** Folded as written: `r/o`, `chest-pain`, `denies`. */
  raw(i: number): string {
    return (this.form[i] as Form).raw;
  }

  /** Content words, stemmed. */
  words(i: number): readonly string[] {
    return (this.form[i] as Form).words;
  }

  /** Token `i` as an object. */
  at(i: number): Token {
    const { raw, words } = this.form[i] as Form;
    return {
      begin: this.begin[i] as number,
      end: this.end[i] as number,
      raw,
      words,
      sentence: this.sentence[i] as number,
      clause: this.clause[i] as number,
    };
  }

  /** Every token as an object, in order. */
  toArray(): Token[] {
    const out: Token[] = [];
    for (let i = 0; i < this.length; i++) {
      out.push(this.at(i));
    }
    return out;
  }

  /** Adds the token text[begin, end). */
  push(text: string, begin: number, end: number, sentence: number, clause: number): void {
    const i = this.length;
    if (i === this.begin.length) {
      this.begin = grown(this.begin);
      this.end = grown(this.end);
      this.sentence = grown(this.sentence);
      this.clause = grown(this.clause);
    }
    this.begin[i] = begin;
    this.end[i] = end;
    this.sentence[i] = sentence;
    this.clause[i] = clause;
    this.form.push(formAt(text, begin, end));
    this.length = i + 1;
  }
}

/** A column twice as long, with the same first values. */
function grown(column: Int32Array): Int32Array {
  const next = new Int32Array(column.length * 2);
  next.set(column);
  return next;
}

/** Words a dictionary entry and a text window both leave out (besides the search stop words): no meaning of their own. */
export const DROP_WORDS: ReadonlySet<string> = new Set([...STOP_WORDS, 'unspecified', 'nos', 'nec', 'with', 'w']);

/** Slash abbreviations that stand for one word in a phrase (the rest are triggers: `r/o`, `s/p`, `h/o`). */
const SLASH_WORDS: Readonly<Record<string, string>> = { 'w/o': 'without' };

/**
 * The content words of a piece of text (a token, a title, a path part), stemmed, stop words left out. A hyphenated
 * compound gives its joined form (`gastro-esophageal` → `gastroesophageal`); a slashed one its parts.
 */
export function contentWords(folded: string): string[] {
  const out: string[] = [];
  for (const m of folded.matchAll(/[a-z0-9]+(?:[-/'’][a-z0-9]+)*/g)) {
    const whole = m[0];
    const slash = SLASH_WORDS[whole];
    if (slash !== undefined) {
      out.push(slash);
      continue;
    }
    for (const piece of whole.split('/')) {
      // `left-sided` is the titles' `left side`.
      const sided = /^(left|right)-sided$/.exec(piece);
      if (sided !== null) {
        out.push(sided[1] as string, 'side');
        continue;
      }
      // An apostrophe joins (`crohn's` → `crohns`, stemmed `crohn`), as a hyphen does: the forms both sides write meet.
      const joined = piece.replace(/[-'’]/g, '');
      if (joined !== '' && !DROP_WORDS.has(joined)) {
        out.push(stem(joined));
      }
    }
  }
  return out;
}

/** A token as written, folded, and its content words. */
export interface Form {
  readonly raw: string;
  readonly words: readonly string[];
  /**
   * What the matcher made of this form for one dictionary (src/engines/nlp/index-document.ts): kept here, so a token
   * costs no probe of a memory of its own.
   */
  matched: FormMatch | undefined;
}

/**
 * A form's dictionary word ids (-1: a word no entry has) in the dictionary numbered `dict` (its serial: a number
 * keeps no replaced dictionary alive), and whether it stops a window (a conjunction).
 */
export interface FormMatch {
  readonly dict: number;
  readonly ids: Int32Array;
  readonly stop: boolean;
}

/**
 * Forms per token as written, remembered: a note repeats its words, and a remembered form skips the folding and the
 * stemming. An open-addressing table probed with the text's own characters, so a token costs no slice of the text
 * and no string hash (a Map keyed by the written string cost both, per token). At most MAX_FORMS forms: past that
 * the table is emptied and refilled.
 */
class FormTable {
  /** Per slot, its key's hash and length (0: an empty slot), side by side: a probe reads them before any string. */
  private meta: Int32Array;
  private keys: (string | undefined)[];
  private forms: (Form | undefined)[];
  private mask: number;
  private count = 0;

  /**
   * @param max - forms kept before the table is emptied. The table starts small and doubles while at most half full,
   *   so the slots a note's tokens probe stay in the processor's caches.
   */
  constructor(private readonly max: number) {
    this.meta = new Int32Array(0);
    this.keys = [];
    this.forms = [];
    this.mask = 0;
    this.allocate(1024);
  }

  /** The form of the characters [begin, end) of `text`, whose hashOf is `hash`; `undefined` when not remembered. */
  find(text: string, begin: number, end: number, hash: number): Form | undefined {
    const length = end - begin;
    const meta = this.meta;
    for (let slot = (hash ^ (hash >>> 15)) & this.mask; ; slot = (slot + 1) & this.mask) {
      const keyLength = meta[2 * slot + 1];
      if (keyLength === 0) {
        return undefined;
      }
      if (keyLength === length && meta[2 * slot] === hash && sameChars(this.keys[slot] as string, text, begin)) {
        return this.forms[slot];
      }
    }
  }

  /** Remembers a form not yet remembered (after find). */
  add(written: string, hash: number, form: Form): void {
    if (this.count >= this.max) {
      this.allocate(this.keys.length);
    } else if (2 * (this.count + 1) > this.keys.length) {
      this.grow();
    }
    this.place(written, hash, form);
    this.count++;
  }

  private place(written: string, hash: number, form: Form): void {
    let slot = (hash ^ (hash >>> 15)) & this.mask;
    while (this.meta[2 * slot + 1] !== 0) {
      slot = (slot + 1) & this.mask;
    }
    this.meta[2 * slot] = hash;
    this.meta[2 * slot + 1] = written.length;
    this.keys[slot] = written;
    this.forms[slot] = form;
  }

  /** Empty slots, `size` of them. */
  private allocate(size: number): void {
    this.meta = new Int32Array(2 * size);
    this.keys = new Array<string | undefined>(size).fill(undefined);
    this.forms = new Array<Form | undefined>(size).fill(undefined);
    this.mask = size - 1;
    this.count = 0;
  }

  /** Twice the slots, every form placed again. */
  private grow(): void {
    const { meta, keys, forms } = this;
    this.allocate(keys.length * 2);
    for (let slot = 0; slot < keys.length; slot++) {
      const key = keys[slot];
      if (key !== undefined) {
        this.place(key, meta[2 * slot] as number, forms[slot] as Form);
        this.count++;
      }
    }
  }
}

/** FNV-1a over the UTF-16 units of text[begin, end). */
function hashOf(text: string, begin: number, end: number): number {
  let h = 0x811c9dc5 | 0;
  for (let i = begin; i < end; i++) {
    h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  }
  return h;
}

/** Whether `key` is written at `at` in `text` (the lengths are known equal). */
function sameChars(key: string, text: string, at: number): boolean {
  for (let i = 0; i < key.length; i++) {
    if (key.charCodeAt(i) !== text.charCodeAt(at + i)) {
      return false;
    }
  }
  return true;
}

const forms = new FormTable(50_000);
/** Longer tokens are not remembered (no word of the code sets is this long; the memory stays small). */
const MAX_REMEMBERED_LENGTH = 40;

/** The form of the token text[begin, end). */
function formAt(text: string, begin: number, end: number): Form {
  if (end - begin > MAX_REMEMBERED_LENGTH) {
    return readForm(text.slice(begin, end));
  }
  const hash = hashOf(text, begin, end);
  let form = forms.find(text, begin, end, hash);
  if (form === undefined) {
    const written = text.slice(begin, end);
    form = readForm(written);
    forms.add(written, hash, form);
  }
  return form;
}

function readForm(written: string): Form {
  const raw = /^[a-z0-9]+$/.test(written) ? written : foldText(written).replace(/’/g, "'");
  return { raw, words: contentWords(raw), matched: undefined };
}

const NON_ASCII_WORD = /[\p{L}\p{N}]/u;
const NON_ASCII_UPPER = /\p{Lu}/u;

/** A letter or digit (what the token pattern's `[\p{L}\p{N}]` matches), ASCII first. */
function isWordChar(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c < 128) {
    return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57);
  }
  return NON_ASCII_WORD.test(text[i] as string);
}

/** A character the token pattern lets join two runs of letters and digits: - / ' ’ */
const isJoiner = (c: number): boolean => c === 45 || c === 47 || c === 39 || c === 0x2019;

/**
 * Whether a token is written in capitals: "VS" (vital signs) and "DR" (diabetic retinopathy) are other words than
 * "vs." (versus) and "Dr." (doctor).
 */
export function inCapitals(text: string, begin: number, end: number): boolean {
  const written = text.slice(begin, end);
  return written === written.toUpperCase();
}

/** Abbreviations written with a full stop inside a sentence: "atelectasis vs. pneumonia", "seen by Dr. Lee". */
const STOPPED_ABBREVIATIONS = new Set(['vs', 'dr']);

/** Marks that may close a sentence after its full stop: ) ] " ' ’ ” */
const isCloser = (c: number): boolean => c === 41 || c === 93 || c === 34 || c === 39 || c === 0x2019 || c === 0x201d;

const isSpace = (c: number): boolean => c === 32 || (c >= 9 && c <= 13) || c === 160 || c === 0x2028 || c === 0x2029;

/**
 * The tokens of a text, in order, with sentence and clause numbers: one pass over the characters (the gaps between
 * tokens decide the boundaries as they are read).
 * @param text - the text as received (offsets refer to it)
 * @param skip - character ranges to leave out (section headings), sorted
 */
export function tokenize(text: string, skip: readonly { begin: number; end: number }[] = []): Tokens {
  // About one token per six characters in clinical text; the columns grow when a text has more.
  const tokens = new Tokens((text.length >>> 2) + 8);
  const n = text.length;
  let sentence = 0;
  let clause = 0;
  let s = 0;
  // What the gap since the last token held.
  let endsSentence = false;
  let endsClause = false;
  let newline = false;
  let itemLine = false;
  let i = 0;
  while (i < n) {
    if (!isWordChar(text, i)) {
      const c = text.charCodeAt(i);
      if (c === 46 || c === 33 || c === 63) {
        // `fever.)` and `"no fever."` end their sentence too: closing marks are passed over before the space.
        let k = i + 1;
        while (k < n && isCloser(text.charCodeAt(k))) {
          k++;
        }
        // The full stop of an abbreviation ("vs.", "Dr.") right after it ends nothing; in capitals they are others
        // ("VS." vital signs, "DR." diabetic retinopathy) and end their sentence.
        const last = tokens.length - 1;
        const abbreviation =
          last >= 0 &&
          tokens.end[last] === i &&
          STOPPED_ABBREVIATIONS.has(tokens.raw(last)) &&
          !inCapitals(text, tokens.begin[last] as number, i);
        endsSentence ||= !abbreviation && (k >= n || isSpace(text.charCodeAt(k)));
      } else if (c === 59) {
        endsSentence = true;
      } else if (c === 58 || c === 40 || c === 41 || c === 91 || c === 93) {
        endsClause = true;
      } else if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) {
        // A line break: LF, CRLF (counted at its LF) or a bare CR (HL7 v2 text, old Mac files).
        itemLine ||= newline;
        newline = true;
      } else if (newline && (c === 45 || c === 42 || c === 0x2022)) {
        itemLine = true;
      }
      i++;
      continue;
    }
    const begin = i;
    i++;
    while (i < n) {
      if (isWordChar(text, i)) {
        i++;
      } else if (isJoiner(text.charCodeAt(i)) && i + 1 < n && isWordChar(text, i + 1)) {
        i += 2;
      } else {
        break;
      }
    }
    const end = i;
    if (tokens.length > 0) {
      const first = text.charCodeAt(begin);
      const upper = first < 128 ? first >= 65 && first <= 90 : NON_ASCII_UPPER.test(text[begin] as string);
      // `2) cough` or `2. cough` at the start of a line: a numbered item.
      const numbered = newline && (text[end] === ')' || text[end] === '.') && /^\d+$/.test(text.slice(begin, end));
      if (endsSentence || (newline && (itemLine || upper || numbered))) {
        sentence++;
        clause++;
      } else if (endsClause) {
        clause++;
      }
    }
    endsSentence = false;
    endsClause = false;
    newline = false;
    itemLine = false;
    while (s < skip.length && (skip[s] as { end: number }).end <= begin) {
      s++;
    }
    if (s < skip.length && (skip[s] as { begin: number }).begin <= begin) {
      // A heading ends the sentence and clause before it and after it.
      sentence++;
      clause++;
      continue;
    }
    if (end - begin > 2 && hasSlash(text, begin, end) && !SLASH_ABBREVIATION.test(text.slice(begin, end))) {
      // `cough/fever`, `HTN/DM2`: each part is a token of its own (a list, not one name).
      let from = begin;
      for (let slash = text.indexOf('/', begin); from <= end; slash = text.indexOf('/', from)) {
        const to = slash === -1 || slash > end ? end : slash;
        tokens.push(text, from, to, sentence, clause);
        from = to + 1;
      }
      continue;
    }
    tokens.push(text, begin, end, sentence, clause);
  }
  return tokens;
}

/** Whether text[begin, end) holds a slash. */
function hasSlash(text: string, begin: number, end: number): boolean {
  for (let i = begin; i < end; i++) {
    if (text.charCodeAt(i) === 47) {
      return true;
    }
  }
  return false;
}

/** `r/o`, `s/p`, `h/o`, `w/o`, `c/o`, `n/v`: one letter each side of the slash, one token (triggers and abbreviations). */
const SLASH_ABBREVIATION = /^\p{L}\/\p{L}$/u;
