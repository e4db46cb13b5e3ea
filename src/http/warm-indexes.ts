// `serve --warm search,nlp`: the in-memory indexes the first LookupSearch or DocumentV2 request would otherwise build
// on the event loop while every other request waits (docs/http.md). Built in the order named; each one's time is
// returned for the entry script to log.
import { nlpDictionaryOf } from '../engines/nlp/index.js';
import { searchIndexOf } from '../engines/search/index.js';
import type { Reference } from '../reference/index.js';
import type { HttpConfig } from '../schemas/http-config.js';

/** An index `--warm` names. */
export type WarmIndex = NonNullable<HttpConfig['warm']>[number];

/**
 * Builds the named indexes now.
 * @param ref - the reference the server answers from
 * @param indexes - `search` (the search index), `nlp` (the NLP dictionary of `date`)
 * @param date - ISO date the NLP dictionary is built for (today, as DocumentV2 asks)
 * @returns each index and the milliseconds it took
 */
export function warmIndexes(ref: Reference, indexes: readonly WarmIndex[], date: string): { index: WarmIndex; ms: number }[] {
  return indexes.map((index) => {
    const started = performance.now();
    if (index === 'search') {
      searchIndexOf(ref);
    } else {
      nlpDictionaryOf(ref, date);
    }
    return { index, ms: Math.round(performance.now() - started) };
  });
}
