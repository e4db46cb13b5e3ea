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
// encounter"); assertion scopes stay inside a sentence.
import { foldText, stem, STOP_WORDS } from '../../schemas/search-text.js';

/** One token of a text. */
export interface Token {
  readonly begin: number;
  readonly end: number;
  /** Folded (lower-case, unaccented) as written: `r/o`, `chest-pain`, `denies`. */
  readonly raw: string;
  /** Content words, stemmed (stop words left out): `chest-pain` → [`chestpain`], `nausea/vomiting` → 2 words. */
  readonly words: readonly string[];
  readonly sentence: number;
  readonly clause: number;
}

/** Words a dictionary entry and a text window both leave out (besides the search stop words): no meaning of their own. */
export const DROP_WORDS: ReadonlySet<string> = new Set([...STOP_WORDS, 'unspecified', 'nos', 'nec', 'with', 'w']);

/** Slash abbreviations that stand for one word in a phrase (the rest are triggers: `r/o`, `s/p`, `h/o`). */
const SLASH_WORDS: Readonly<Record<string, string>> = { 'w/o': 'without' };

const TOKEN = /[\p{L}\p{N}]+(?:[-/'’][\p{L}\p{N}]+)*/gu;

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

/** Content words per folded token, remembered: a note repeats its words (bounded; emptied when full). */
const rawWords = new Map<string, readonly string[]>();
const MAX_RAW_WORDS = 50_000;

function wordsOfRaw(raw: string): readonly string[] {
  let words = rawWords.get(raw);
  if (words === undefined) {
    words = contentWords(raw);
    if (rawWords.size >= MAX_RAW_WORDS) {
      rawWords.clear();
    }
    rawWords.set(raw, words);
  }
  return words;
}

/** True when the gap between two tokens ends a sentence (a semicolon ends one too: it parts two statements). */
function endsSentence(gap: string, next: string | undefined): boolean {
  if (/[.!?](?:\s|$)|;/.test(gap)) {
    return true;
  }
  const nl = gap.indexOf('\n');
  if (nl < 0) {
    return false;
  }
  const after = gap.slice(nl + 1);
  return /\n/.test(after) || /[-*•]|\d[.)]/.test(after) || (next !== undefined && /^\p{Lu}/u.test(next));
}

/**
 * The tokens of a text, in order, with sentence and clause numbers.
 * @param text - the text as received (offsets refer to it)
 * @param skip - character ranges to leave out (section headings), sorted
 */
export function tokenize(text: string, skip: readonly { begin: number; end: number }[] = []): Token[] {
  const tokens: Token[] = [];
  let sentence = 0;
  let clause = 0;
  let last = 0;
  let s = 0;
  for (const m of text.matchAll(TOKEN)) {
    const begin = m.index;
    const end = begin + m[0].length;
    while (s < skip.length && (skip[s] as { end: number }).end <= begin) {
      s++;
    }
    const gap = text.slice(last, begin);
    if (tokens.length > 0) {
      if (endsSentence(gap, m[0])) {
        sentence++;
        clause++;
      } else if (/[:()[\]]/.test(gap)) {
        clause++;
      }
    }
    last = end;
    const inSkip = s < skip.length && (skip[s] as { begin: number }).begin <= begin;
    if (inSkip) {
      // A heading ends the sentence and clause before it and after it.
      sentence++;
      clause++;
      continue;
    }
    const raw = /^[a-z0-9]+$/.test(m[0]) ? m[0] : foldText(m[0]).replace(/’/g, "'");
    tokens.push({ begin, end, raw, words: wordsOfRaw(raw), sentence, clause });
  }
  return tokens;
}
