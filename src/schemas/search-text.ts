// How search text becomes words (issue 13 §1): one tokeniser for the documents the search index holds (code titles,
// inclusion terms, index paths) and for the words a coder types, so both sides meet on the same forms.
//
//   "Gastro-esophageal reflux, w/o esophagitis"  → gastro, esophageal, gastroesophageal, reflux, w, o, esophagitis
//   "Fractures of femurs"                         → fracture, of, femur   (then the query drops the stop word "of")
//
// Steps: accents removed and lower-cased (as titleKey), split on anything but letters and digits (hyphens and
// slashes split, the joined form of a hyphenated word is kept too), numbers kept as words, a light stemmer.

/** Words a query drops: they carry no meaning in a code title. `with`, `without`, `due`, `nos` are kept. */
export const STOP_WORDS: ReadonlySet<string> = new Set(['of', 'the', 'a', 'an', 'and', 'in', 'on', 'to', 'for', 'by', 'at', 'or', 'as', 'is']);

/** Lower-case, accents removed: `Schönlein` → `schonlein`. */
export function foldText(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
}

/**
 * The light stemmer, the same on both sides: plurals (`-s`, `-es` after ch/sh/x/z/ss, `-ies` → `-y`) and the `-ed`
 * and `-ing` endings of longer words come off, so `fractures`/`fracture`, `injuries`/`injury`, `bleeding`/`bleed`
 * meet, and `fractured` (→ `fractur`) is a prefix of `fracture`. Prefix matching does the rest (`hypertens` finds
 * `hypertension` and `hypertensive`). Words of 3 letters or fewer and words with digits are kept as they are.
 */
export function stem(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) {
    return word;
  }
  if (word.endsWith('ies') && word.length > 4) {
    return `${word.slice(0, -3)}y`;
  }
  if (/(?:ches|shes|xes|zes|sses)$/.test(word)) {
    return word.slice(0, -2);
  }
  if (word.endsWith('s') && !/(?:ss|us|is|ys)$/.test(word)) {
    return word.slice(0, -1);
  }
  if (word.endsWith('ed') && word.length > 5) {
    return word.slice(0, -2);
  }
  if (word.endsWith('ing') && word.length > 6) {
    return word.slice(0, -3);
  }
  return word;
}

/** One word of a text: its stemmed form and where it stands. */
export interface TextWord {
  /** Stemmed, folded form. */
  readonly word: string;
  /** The folded word as written (before stemming). */
  readonly raw: string;
  /** 0-based position among the text's words (a joined hyphen form shares the position of its first part). */
  readonly position: number;
}

const WORD = /[a-z0-9]+/g;

/**
 * The words of a text, in order.
 * @param text - a title, an index path, a query
 * @returns the words; a hyphenated or slashed compound (`gastro-esophageal`) also gives its joined form at the
 *   position of its first part
 */
export function textWords(text: string): TextWord[] {
  const folded = foldText(text);
  const out: TextWord[] = [];
  let position = 0;
  for (const m of folded.matchAll(/[a-z0-9]+(?:[-/][a-z0-9]+)*/g)) {
    const whole = m[0];
    const parts = whole.match(WORD) ?? [];
    const first = position;
    for (const p of parts) {
      out.push({ word: stem(p), raw: p, position: position++ });
    }
    if (parts.length > 1 && whole.includes('-')) {
      const joined = parts.join('');
      out.push({ word: stem(joined), raw: joined, position: first });
    }
  }
  return out;
}

/**
 * Optimal string alignment distance of two words, stopping at `max + 1` (a transposition counts one, so
 * `pnuemonia` is 1 from `pneumonia`).
 */
export function editDistance(a: string, b: string, max = 1): number {
  if (Math.abs(a.length - b.length) > max) {
    return max + 1;
  }
  const prev2: number[] = new Array<number>(b.length + 1).fill(0);
  let prev: number[] = Array.from({ length: b.length + 1 }, (_, j) => j);
  let cur: number[] = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      let v = Math.min((prev[j] as number) + 1, (cur[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        v = Math.min(v, (prev2[j - 2] as number) + 1);
      }
      cur[j] = v;
      rowMin = Math.min(rowMin, v);
    }
    if (rowMin > max) {
      return max + 1;
    }
    for (let j = 0; j <= b.length; j++) {
      prev2[j] = prev[j] as number;
    }
    [prev, cur] = [cur, prev];
  }
  return prev[b.length] as number;
}
