// Assertion (issue 14 §1), in the manner of NegEx and ConText (Chapman et al.): trigger phrases with a direction and
// a scope. A pre-trigger ("denies", "history of", "possible") covers the mentions after it in its sentence, up to a
// termination word ("but", "however"...) or MAX_PRE tokens; a post-trigger ("was ruled out", "is suspected") covers
// the mentions before it, up to MAX_POST tokens; "versus" covers both sides. Pseudo-triggers ("no change",
// "not only") are phrases that contain a trigger's words but are not triggers: they are matched first and mean
// nothing. Triggers are matched on folded tokens, longest first, and the tokens they take are not concept words.

import { inCapitals, type Tokens } from './tokenize.js';

/** What a trigger asserts. */
export type Assertion = 'negated' | 'uncertain' | 'historical' | 'family';

/** Tokens a pre-trigger reaches forward; a post-trigger back; "versus" both ways. */
const MAX_PRE = 14;
const MAX_POST = 6;
const MAX_BOTH = 5;

interface Trigger {
  readonly tokens: readonly string[];
  /** `undefined`: a pseudo-trigger or a termination (see `terminates`). */
  readonly assertion?: Assertion;
  /** Tokens it reaches after its last token (a pre-trigger) and before its first (a post-trigger). */
  readonly after: number;
  readonly before: number;
  readonly terminates?: boolean;
  /** A post-trigger that covers only the item just before it: its reach stops at a comma, colon or semicolon. */
  readonly near?: boolean;
  /** A termination only where it opens a clause, after a comma or an "and" ("History of asthma, presents with"). */
  readonly clauseOnly?: boolean;
}

const pre = (assertion: Assertion, ...phrases: string[]): Trigger[] =>
  phrases.map((p) => ({ tokens: p.split(' '), assertion, after: MAX_PRE, before: 0 }));
const post = (assertion: Assertion, ...phrases: string[]): Trigger[] =>
  phrases.map((p) => ({ tokens: p.split(' '), assertion, after: 0, before: MAX_POST }));
const pseudo = (...phrases: string[]): Trigger[] => phrases.map((p) => ({ tokens: p.split(' '), after: 0, before: 0 }));
const postNear = (assertion: Assertion, ...phrases: string[]): Trigger[] =>
  phrases.map((p) => ({ tokens: p.split(' '), assertion, after: 0, before: MAX_POST, near: true }));
const clauseTermination = (...phrases: string[]): Trigger[] =>
  phrases.map((p) => ({ tokens: p.split(' '), after: 0, before: 0, terminates: true, clauseOnly: true }));
const termination = (...phrases: string[]): Trigger[] =>
  phrases.map((p) => ({ tokens: p.split(' '), after: 0, before: 0, terminates: true }));

/** Relatives whose conditions a note reports, and what makes a relative a family trigger ("mother had"). */
const RELATIVES = [
  'mother', 'father', 'sister', 'brother', 'sibling', 'siblings', 'son', 'daughter', 'grandmother', 'grandfather',
  'aunt', 'uncle', 'cousin', 'parents', 'parent', 'mom', 'dad',
];
const RELATIVE_VERBS = [
  'had', 'has', 'have', 'with', 'died', 'passed', 'diagnosed', 'was diagnosed', 'developed', 'suffered', 'suffers',
  'history', 'also has', 'also had', 'presented with',
];

/** Negations that, right after a colon, answer the item before it ("Chest pain: denies.", "Fever: no."). */
const COLON_ANSWERS = new Set(['no', 'denies', 'denied', 'negative', 'absent', 'none']);

/** The trigger lexicon: NegEx's and ConText's published trigger classes, in the wording of US clinical notes. */
const TRIGGERS: readonly Trigger[] = [
  ...pre(
    'negated',
    'no',
    'not',
    'denies',
    'denied',
    'deny',
    'denying',
    'without',
    'w/o',
    'negative for',
    'neg for',
    'no evidence of',
    'no signs of',
    'no sign of',
    'no symptoms of',
    'no complaints of',
    'free of',
    'absence of',
    'absent',
    'never had',
    'never',
    'no history of',
    'no hx of',
    'no h/o',
    'no family history of',
    'ruled out',
    'rules out',
    'no further',
    'not have',
    'does not have',
    'did not have',
    // "Chest x-ray is negative for pneumonia": the finding after "negative for", not the test before "is negative".
    'is negative for',
    'was negative for',
    'were negative for',
    'are negative for',
    'came back negative for',
    'tested negative for',
    // Probable negation (ConText's class, read as negated like its post-trigger form): "unlikely pneumonia".
    'unlikely',
  ),
  ...post(
    'negated',
    'was ruled out',
    'is ruled out',
    'has been ruled out',
    'have been ruled out',
    'ruled out',
    'is negative',
    'was negative',
    'were negative',
    'are negative',
    'which was ruled out',
    'which has been ruled out',
    'which is ruled out',
    'not seen',
    'not present',
    'is absent',
    'was absent',
    'unlikely',
    'resolved',
    'has resolved',
  ),
  ...pre(
    'uncertain',
    'possible',
    'possibly',
    'probable',
    'probably',
    'suspected',
    'suspect',
    'suspicion of',
    'suspicious for',
    'rule out',
    'r/o',
    'ro',
    'questionable',
    'question of',
    'concern for',
    'concerning for',
    'may have',
    'might have',
    'could be',
    'may be',
    'cannot rule out',
    "can't rule out",
    'cannot exclude',
    'likely',
    'presumed',
    'differential includes',
    'differential diagnosis includes',
    'evaluate for',
    'evaluation for',
    'worrisome for',
    'may represent',
    'could represent',
    'might represent',
    'may indicate',
    'suggestive of',
  ),
  // Said of the item just before, not across a comma: "HIV negative", "Appendicitis was not found", a template's
  // "Allergies: none" ("Pneumonia, blood cultures negative" and "Anemia, source not identified" keep their finding).
  ...postNear(
    'negated',
    'negative',
    'neg',
    'was not found',
    'were not found',
    'not found',
    'not identified',
    'not visualized',
    'not demonstrated',
    'none',
  ),
  ...post(
    'uncertain',
    'is suspected',
    'was suspected',
    'is possible',
    'is likely',
    'cannot be excluded',
    'not excluded',
    'is questionable',
    // Not yet excluded: still possible, not negated ("MI has not been ruled out").
    'has not been ruled out',
    'have not been ruled out',
    'not been ruled out',
    'not yet ruled out',
    'not ruled out',
    'has not been excluded',
    'not been excluded',
  ),
  { tokens: ['versus'], assertion: 'uncertain', after: MAX_BOTH, before: MAX_BOTH },
  { tokens: ['vs'], assertion: 'uncertain', after: MAX_BOTH, before: MAX_BOTH },
  ...pre(
    'historical',
    'history of',
    'hx of',
    'h/o',
    'past history of',
    'remote history of',
    'personal history of',
    'status post',
    's/p',
    'previous',
    'previously',
    'prior',
    'past',
    'remote',
  ),
  ...post('historical', 'in the past', 'years ago', 'as a child', 'in childhood'),
  ...pre(
    'family',
    'family history of',
    'family hx of',
    'fh of',
    'fhx of',
    'family history',
    'family hx',
    'fhx',
    'maternal',
    'paternal',
    // A relative alone is no trigger ("mother brought him in", "lives with his mother"): a relative who had, has
    // or died of something is.
    ...RELATIVES.flatMap((r) => RELATIVE_VERBS.map((v) => `${r} ${v}`)),
    ...RELATIVES.map((r) => `${r}'s`),
  ),
  ...pseudo(
    'no change',
    'no increase',
    'no decrease',
    'no significant change',
    'not only',
    'not necessarily',
    'without difficulty',
    'not certain if',
    'gram negative',
    'no further workup',
    'history and physical',
    'history taking',
    'prior to',
    'past week',
    'past month',
    'past year',
    'past few',
    'past several',
    'falling asleep',
    'fall asleep',
    'falls asleep',
    'fell asleep',
    'no improvement',
    'not improved',
    'not improving',
    'without improvement',
    'no relief',
    'not relieved',
    'without relief',
  ),
  ...termination(
    'but',
    'however',
    'although',
    'though',
    'except',
    'aside from',
    'apart from',
    'yet',
    'which',
    'who',
    'presents with',
    'presenting with',
    'complains of',
    'reports',
    'positive for',
    'now has',
    'has developed',
    'secondary to',
    'due to',
    'cause of',
  ),
  // Today's problems after a history, said in a clause of their own: "History of asthma, presents today with
  // bronchitis", "Denies chest pain, has had a cough" (but "denies that she has had chest pain" is denied).
  ...clauseTermination(
    'presents',
    'presented',
    'presenting',
    'now with',
    'now presents',
    'currently has',
    'currently with',
    'comes in with',
    'came in with',
    'admitted with',
    'admitted for',
    'has had',
    'endorses',
    'admits to',
  ),
];

/** Triggers by their first token, longest first; a phrase both a pre- and a post-trigger reaches both ways. */
const BY_FIRST = ((): ReadonlyMap<string, readonly Trigger[]> => {
  const map = new Map<string, Trigger[]>();
  for (const t of TRIGGERS) {
    const first = t.tokens[0] as string;
    const list = map.get(first) ?? [];
    const twin = list.findIndex((o) => o.assertion === t.assertion && o.tokens.join(' ') === t.tokens.join(' '));
    if (twin >= 0) {
      const o = list[twin] as Trigger;
      list[twin] = { ...o, after: Math.max(o.after, t.after), before: Math.max(o.before, t.before) };
    } else {
      list.push(t);
    }
    map.set(first, list);
  }
  for (const list of map.values()) {
    // Longer phrases first; at equal length a pseudo-trigger, then a termination, before a trigger.
    list.sort((a, b) => b.tokens.length - a.tokens.length || rank(a) - rank(b));
  }
  return map;
})();

function rank(t: Trigger): number {
  return t.assertion === undefined ? (t.terminates === true ? 1 : 0) : 2;
}

/** A trigger found in a text: its token span. */
export interface FoundTrigger {
  readonly first: number;
  readonly last: number;
  readonly assertion?: Assertion | undefined;
  readonly after: number;
  readonly before: number;
  readonly terminates: boolean;
  /** After a comma or an "and" of its sentence: it starts a clause of its own ("hx of CHF, denies SOB"). */
  readonly opensClause: boolean;
}

/**
 * The triggers, pseudo-triggers and terminations of a token list, left to right, longest first, not overlapping.
 * @param text - the text tokenized (tells a trigger after a comma); without it only "and" opens a clause
 * @returns them in order, and per token whether a trigger took it
 */
export function findTriggers(tokens: Tokens, text?: string): { triggers: FoundTrigger[]; taken: Uint8Array } {
  const triggers: FoundTrigger[] = [];
  const taken = new Uint8Array(tokens.length);
  for (let i = 0; i < tokens.length; i++) {
    const candidates = BY_FIRST.get(tokens.raw(i));
    if (candidates === undefined) {
      continue;
    }
    const gap = i > 0 && text !== undefined ? gapOf(tokens, text, i) : '';
    const opensClause =
      i > 0 && tokens.sentence[i - 1] === tokens.sentence[i] && (tokens.raw(i - 1) === 'and' || gap.includes(','));
    for (const t of candidates) {
      const n = t.tokens.length;
      if (i + n > tokens.length) {
        continue;
      }
      let ok = true;
      // A phrase does not run over a comma ("lives with her daughter, has diabetes" is no "daughter has").
      for (let k = 1; k < n && ok; k++) {
        ok =
          tokens.raw(i + k) === t.tokens[k] &&
          tokens.sentence[i + k] === tokens.sentence[i] &&
          (text === undefined || !gapOf(tokens, text, i + k).includes(','));
      }
      // "VS" (vital signs) is no "versus".
      if (ok && t.tokens[0] === 'vs' && text !== undefined && inCapitals(text, tokens.begin[i] as number, tokens.end[i] as number)) {
        ok = false;
      }
      if (ok && t.clauseOnly === true && !opensClause) {
        ok = false;
      }
      if (ok) {
        // "Chest pain: denies.": the answer, alone after the colon up to its sentence's end, covers the item before
        // the colon ("Pain: no radiation" is no answer).
        const answers =
          n === 1 &&
          t.assertion === 'negated' &&
          gap.includes(':') &&
          COLON_ANSWERS.has(tokens.raw(i)) &&
          (i + 1 === tokens.length || tokens.sentence[i + 1] !== tokens.sentence[i]);
        // A near post-trigger or an answer reaches back over its item only, to the comma or colon before it.
        // (A near post-trigger right after a comma or colon follows no item: "pain, none of the treatments".)
        const before = answers
          ? text === undefined
            ? 1
            : itemBefore(tokens, text, i, MAX_POST)
          : t.near === true
            ? text === undefined || /[,:;]/.test(gap)
              ? 0
              : itemBefore(tokens, text, i, MAX_POST)
            : t.before;
        triggers.push({
          first: i,
          last: i + n - 1,
          assertion: t.assertion,
          after: t.after,
          before,
          terminates: t.terminates === true,
          opensClause,
        });
        for (let k = 0; k < n; k++) {
          taken[i + k] = 1;
        }
        i += n - 1;
        break;
      }
    }
  }
  return { triggers, taken };
}

/** The text between token `i` and the token before it. */
function gapOf(tokens: Tokens, text: string, i: number): string {
  return text.slice(tokens.end[i - 1], tokens.begin[i]);
}

/**
 * How many tokens before token `i` make the item it follows: back to a comma, colon or semicolon before them, the
 * sentence's start, or `cap` ("Bronchitis, strep negative": 1; "Influenza A negative": 2; "Cough: yes, fever: no": 1).
 */
function itemBefore(tokens: Tokens, text: string, i: number, cap: number): number {
  let n = 0;
  for (let k = i - 1; k >= 0 && n < cap && tokens.sentence[k] === tokens.sentence[i]; k--) {
    n++;
    if (k === 0 || /[,:;]/.test(gapOf(tokens, text, k))) {
      break;
    }
  }
  return n;
}

/** Index of the first trigger whose first token is at or after `token` (triggers are in text order). */
function firstAtOrAfter(triggers: readonly FoundTrigger[], token: number): number {
  let lo = 0;
  let hi = triggers.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((triggers[mid] as FoundTrigger).first < token) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

/**
 * The assertions that cover a mention spanning tokens [first, last]: the triggers before it back to a termination or
 * the sentence's start, and those after it up to a termination or the sentence's end (found by binary search, so a
 * long note costs no more per mention than a short one).
 * @returns each assertion some trigger in scope makes
 */
export function assertionsOf(
  tokens: Tokens,
  triggers: readonly FoundTrigger[],
  first: number,
  last: number,
): ReadonlySet<Assertion> {
  // Made on the first assertion found: most mentions have none, and share one empty set.
  let out: Set<Assertion> | undefined;
  const sentence = tokens.sentence[first];
  const after = firstAtOrAfter(triggers, first);
  // A negation that opens a clause of its own ends the history and family scopes before it: in "hx of CHF, denies
  // SOB" and "history of MI and denies chest pain" the denied symptom is today's and the patient's.
  let ownClause = false;
  for (let k = after - 1; k >= 0; k--) {
    const t = triggers[k] as FoundTrigger;
    // Past the longest reach nothing earlier can cover the mention: a long sentence costs no more per mention.
    if (tokens.sentence[t.last] !== sentence || t.terminates || first - t.last > MAX_PRE) {
      break;
    }
    if (
      t.assertion !== undefined &&
      first - t.last <= t.after &&
      !(ownClause && (t.assertion === 'historical' || t.assertion === 'family'))
    ) {
      (out ??= new Set()).add(t.assertion);
    }
    ownClause ||= t.assertion === 'negated' && t.opensClause;
  }
  for (let k = firstAtOrAfter(triggers, last + 1); k < triggers.length; k++) {
    const t = triggers[k] as FoundTrigger;
    if (tokens.sentence[t.first] !== sentence || t.terminates || t.first - last > MAX_POST) {
      break;
    }
    if (t.assertion !== undefined && t.first - last <= t.before) {
      (out ??= new Set()).add(t.assertion);
    }
  }
  return out ?? NO_ASSERTIONS;
}

const NO_ASSERTIONS: ReadonlySet<Assertion> = new Set();
