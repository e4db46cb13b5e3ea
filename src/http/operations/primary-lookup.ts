// PrimaryLookup (operations.md "Mapping"): an ICD-9-CM diagnosis → the billable ICD-10-CM codes of the forward GEM
// carried forward to those valid on targetDate (default today). Predefined routes only. An unknown code answers an
// empty list and says so in `responseStatus.message`; so do the engine's other notes.
import type { z } from 'zod';
import { primaryLookup as lookup } from '../../engines/mapping/index.js';
import { PrimaryLookupRequest, PrimaryLookupResult } from '../../schemas/mapping.js';
import { answerDate, referenceOf } from '../reference.js';
import { dateTime } from '../wire/fields.js';
import { defineOperation } from '../wire/operation.js';
import { isOutcome } from '../wire/outcome.js';
import { responseOf } from '../wire/response-status.js';

export const PrimaryLookup = PrimaryLookupRequest.extend({
  targetDate: dateTime().optional().describe('Answer with the ICD-10-CM codes valid on this date; default today.'),
}).meta({ id: 'PrimaryLookup' });
export type PrimaryLookup = z.infer<typeof PrimaryLookup>;

export const PrimaryLookupResponse = responseOf('PrimaryLookupResponse', {
  result: PrimaryLookupResult,
});
export type PrimaryLookupResponse = z.input<typeof PrimaryLookupResponse>;

/** The PrimaryLookup operation. */
export const primaryLookup = defineOperation({
  name: 'PrimaryLookup',
  summary: 'Answers the billable ICD-10-CM codes an ICD-9-CM diagnosis maps to on targetDate.',
  request: PrimaryLookup,
  response: PrimaryLookupResponse,
  handler: (request, ctx) => {
    const ref = referenceOf(ctx);
    if (isOutcome(ref)) {
      return ref;
    }
    const answer = lookup(ref, request.icd9Code, answerDate(request.targetDate, ctx.now()));
    const message = answer.messages.map((m) => m.message).join(' ');
    return message === ''
      ? { result: answer.result }
      : { result: answer.result, responseStatus: { message } };
  },
});
