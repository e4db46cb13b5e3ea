// ConceptInformation (operations.md "concept information"): a concept id (from LookupSearch's facets or a
// suggestion) → the search result object with the concept's info node first and the first page of the codes
// carrying it. An unknown id is 404. Route (ext) `/medRef/search/concept/{conceptBaseId}`.
import { z } from 'zod';
import { conceptInformation as informationOf } from '../../engines/search/index.js';
import { SearchResult } from '../../schemas/search.js';
import { answerDate, referenceOf } from '../reference.js';
import { date, int } from '../wire/fields.js';
import { defineOperation } from '../wire/operation.js';
import { isOutcome, notFound } from '../wire/outcome.js';
import { responseOf } from '../wire/response-status.js';

export const ConceptInformation = z
  .object({
    conceptBaseId: int({ min: 1 }).describe('A concept id.'),
    dateOfService: date().optional().describe('(ext) Codes in force on this date; default today.'),
    endRow: int({ min: 1, max: 200 }).default(10).describe('(ext) Codes on the page.'),
  })
  .meta({ id: 'ConceptInformation' });

export const ConceptInformationResponse = responseOf('ConceptInformationResponse', {
  request: ConceptInformation,
  result: SearchResult,
});

/** The ConceptInformation operation. */
export const conceptInformation = defineOperation({
  name: 'ConceptInformation',
  summary: "Answers a concept's info node and the first codes carrying it.",
  request: ConceptInformation,
  response: ConceptInformationResponse,
  routes: [{ path: '/medRef/search/concept/{conceptBaseId}', verbs: ['GET', 'POST'] }],
  handler: (request, ctx) => {
    const ref = referenceOf(ctx);
    if (isOutcome(ref)) {
      return ref;
    }
    const day = answerDate(request.dateOfService, ctx.now());
    const result = informationOf(ref, request.conceptBaseId, day, request.endRow);
    return result === undefined ? notFound(`No concept ${String(request.conceptBaseId)}.`) : { request, result };
  },
});
