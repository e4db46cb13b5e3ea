// The search engine (issue 13): LookupSearch over ICD-10-CM, ICD-10-PCS and ICD-9-CM titles, inclusion terms and the
// Alphabetic Index, with concepts and instructions. Pure over the reference port; the index is built in memory on
// first use (search-index.ts).
export { codeInstruction, conceptInformation, MAX_SUGGESTIONS, searchSuggestions, type Suggestion } from './concept-lookups.js';
export { lookupSearch, searchIndexOf } from './lookup-search.js';
export { SYNONYMS, type Synonym } from './synonyms.js';
export type { SearchIndex } from './search-index.js';
