// CodeInstruction (operations.md "code instruction"): a code → the search result object holding it, with its
// instructions (own and inherited, chapter → block → category → code), concepts and info nodes. An unknown code is
// 404. Route (ext) `/medRef/search/instruction/{code}`.
import { z } from 'zod';
import { codeInstruction as instructionOf } from '../../engines/search/index.js';
import { SearchResult } from '../../schemas/search.js';
import { answerDate, referenceOf } from '../reference.js';
import { date } from '../wire/fields.js';
import { defineOperation } from '../wire/operation.js';
import { isOutcome, notFound } from '../wire/outcome.js';
import { responseOf } from '../wire/response-status.js';

export const CodeInstruction = z
  .object({
    code: z.string().trim().min(1).describe('An ICD-10-CM, ICD-10-PCS or ICD-9-CM code, dotted or not.'),
    dateOfService: date().optional().describe('(ext) The code and notes in force on this date; default today.'),
  })
  .meta({ id: 'CodeInstruction' });

export const CodeInstructionResponse = responseOf('CodeInstructionResponse', { request: CodeInstruction, result: SearchResult });

/** The CodeInstruction operation. */
export const codeInstruction = defineOperation({
  name: 'CodeInstruction',
  summary: 'Answers a code with its instructional notes (own and inherited), concepts and info nodes.',
  request: CodeInstruction,
  response: CodeInstructionResponse,
  routes: [{ path: '/medRef/search/instruction/{code}', verbs: ['GET', 'POST'] }],
  handler: (request, ctx) => {
    const ref = referenceOf(ctx);
    if (isOutcome(ref)) {
      return ref;
    }
    const day = answerDate(request.dateOfService, ctx.now());
    const result = instructionOf(ref, request.code, day);
    return result === undefined ? notFound(`No code ${request.code} is valid on ${day}.`) : { request, result };
  },
});
