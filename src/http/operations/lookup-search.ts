// LookupSearch (operations.md "Search"; issue 13 §3): the coder's search over a code set's titles, inclusion terms
// and (with includeIndex) the Alphabetic Index. Routes `/lookupLtd` and `/lookupLtd/{search}` (GET, POST); answers the
// search result object (src/schemas/search.ts) from the engine in src/engines/search.
import type { z } from 'zod';
import { lookupSearch as search } from '../../engines/search/index.js';
import { parseCodeSet } from '../../schemas/code-systems.js';
import { LookupSearch, SearchResult } from '../../schemas/search.js';
import { answerDate, referenceOf } from '../reference.js';
import { defineOperation } from '../wire/operation.js';
import { badRequest, fieldError, isOutcome } from '../wire/outcome.js';
import { responseOf } from '../wire/response-status.js';

/** The code sets LookupSearch searches. */
const SEARCHABLE = ['ICD-10 CM', 'ICD-10 PCS', 'ICD-9 CM'];

export { LookupSearch };

export const LookupSearchResponse = responseOf('LookupSearchResponse', {
  request: LookupSearch,
  result: SearchResult,
});
export type LookupSearchResponse = z.input<typeof LookupSearchResponse>;

/** The LookupSearch operation. */
export const lookupSearch = defineOperation({
  name: 'LookupSearch',
  summary: 'Searches a code set for the words a coder types (or a code), ranked, with concepts and instructions.',
  request: LookupSearch,
  response: LookupSearchResponse,
  routes: [
    { path: '/lookupLtd', verbs: ['GET', 'POST'] },
    { path: '/lookupLtd/{search}', verbs: ['GET', 'POST'] },
  ],
  handler: (request, ctx) => {
    const ref = referenceOf(ctx);
    if (isOutcome(ref)) {
      return ref;
    }
    const codeSet = request.codeSet ?? 'ICD-10 CM';
    const systems = parseCodeSet(codeSet);
    if (systems === undefined || !SEARCHABLE.some((name) => parseCodeSet(name)?.join() === systems.join())) {
      return badRequest([fieldError('InvalidValue', 'codeSet', { value: codeSet }, `codeSet must be one of ${SEARCHABLE.join(', ')}.`)]);
    }
    // Object.assign, not a spread plus members: see the note above `send` in wire/pipeline.ts.
    const result = search(ref, Object.assign({}, request, { codeSet, dateOfService: answerDate(request.dateOfService, ctx.now()) }));
    return { request, result };
  },
});
