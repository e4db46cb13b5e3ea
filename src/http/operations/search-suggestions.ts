// SearchSuggestions (operations.md "Search suggestions"): a partial word → up to `limit` (ext; default 10, at most
// 50) concepts whose names have words starting with it, the most common first. Route (ext)
// `/medRef/search/suggestions/{word}`; CSV rows are `result[]`.
import { z } from 'zod';
import { MAX_SUGGESTIONS, searchSuggestions as suggest } from '../../engines/search/index.js';
import { SuggestionItem } from '../../schemas/search.js';
import { answerDate, referenceOf } from '../reference.js';
import { date, int } from '../wire/fields.js';
import { defineOperation } from '../wire/operation.js';
import { isOutcome } from '../wire/outcome.js';
import { responseOf } from '../wire/response-status.js';

export const SearchSuggestions = z
  .object({
    word: z.string().optional().describe('The start of a word (or words); empty gives an empty list.'),
    limit: int({ min: 1, max: MAX_SUGGESTIONS }).default(10).describe('(ext) Suggestions at most.'),
    dateOfService: date().optional().describe('(ext) Concepts in force on this date; default today.'),
  })
  .meta({ id: 'SearchSuggestions' });
export type SearchSuggestions = z.infer<typeof SearchSuggestions>;

export const SearchSuggestionsResponse = responseOf('SearchSuggestionsResponse', {
  request: SearchSuggestions,
  result: z.array(SuggestionItem),
});

/** The SearchSuggestions operation. */
export const searchSuggestions = defineOperation({
  name: 'SearchSuggestions',
  summary: 'Suggests concepts (ICD-10-CM categories) whose names start with the typed word, most common first.',
  request: SearchSuggestions,
  response: SearchSuggestionsResponse,
  routes: [
    { path: '/medRef/search/suggestions', verbs: ['GET', 'POST'] },
    { path: '/medRef/search/suggestions/{word}', verbs: ['GET', 'POST'] },
  ],
  csvListPath: ['result'],
  handler: (request, ctx) => {
    const ref = referenceOf(ctx);
    if (isOutcome(ref)) {
      return ref;
    }
    const word = (request.word ?? '').trim();
    return { request, result: word === '' ? [] : suggest(ref, word, request.limit, answerDate(request.dateOfService, ctx.now())) };
  },
});
