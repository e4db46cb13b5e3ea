// The NLP index engine (issue 14): clinical text → coded mentions with assertion status. Pure over the reference
// port; the dictionary is built in memory from the reference's bulk rows on first use (dictionary.ts).
export { indexDocument, nlpDictionaryOf } from './index-document.js';
export type { NlpDictionary } from './dictionary.js';
