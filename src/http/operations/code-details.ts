// CodeDetails (ext; issue 4 §4): the code engine exposed directly. `GET /medRef/codes/{codeList}?date=&codeSet=`
// answers `result`, a dictionary from each requested code, as given, to its CodeDetail on `date` (default today).
// Named CodeDetails, not CodeDetail, because `CodeDetail` is already the item type (wire.md §11): one name cannot be
// both a request DTO and the dictionary's value type in /types/typescript, XML and OpenAPI.
import { setOwn } from '../../schemas/records.js';
import { z } from 'zod';
import { codeDetails as detailsOf, parseCodeSet } from '../../engines/codes/index.js';
import { CodeDetail } from '../../schemas/codes.js';
import { answerDate, referenceOf } from '../reference.js';
import { date } from '../wire/fields.js';
import { defineOperation } from '../wire/operation.js';
import { badRequest, fieldError, isOutcome } from '../wire/outcome.js';
import { responseOf } from '../wire/response-status.js';

export const CodeDetails = z
  .object({
    codeList: z.array(z.string()).min(1).describe('The codes, comma-separated in the path; dotted or not, any case.'),
    date: date().optional().describe('Answer as of this date; default today.'),
    codeSet: z
      .string()
      .optional()
      .describe('`ICD-10 CM`, `ICD-10 PCS`, `ICD-9 CM`, `CPT` or `HCPCS`; omitted: detected per code.'),
  })
  .meta({ id: 'CodeDetails' });
export type CodeDetails = z.infer<typeof CodeDetails>;

export const CodeDetailsResponse = responseOf('CodeDetailsResponse', {
  request: CodeDetails,
  result: z.record(z.string(), CodeDetail).describe('Each requested code, as given, to its CodeDetail.'),
});
export type CodeDetailsResponse = z.input<typeof CodeDetailsResponse>;

/** The CodeDetails operation. */
export const codeDetails = defineOperation({
  name: 'CodeDetails',
  summary: 'Answers validity, titles and edits of codes on a date, keyed by each code as given (ext).',
  request: CodeDetails,
  response: CodeDetailsResponse,
  routes: [{ path: '/medRef/codes/{codeList}', verbs: ['GET', 'POST'] }],
  handler: (request, ctx) => {
    const ref = referenceOf(ctx);
    if (isOutcome(ref)) {
      return ref;
    }
    if (request.codeSet !== undefined && parseCodeSet(request.codeSet) === undefined) {
      return badRequest([fieldError('InvalidValue', 'codeSet', { value: request.codeSet })]);
    }
    const codes = request.codeList.map((c) => c.trim()).filter((c) => c !== '');
    if (codes.length === 0) {
      return badRequest([fieldError('NotEmpty', 'codeList')]);
    }
    const details = detailsOf(ref, codes, answerDate(request.date, ctx.now()), request.codeSet);
    const result: Record<string, CodeDetail> = {};
    // Own keys: a code named `__proto__` is a key like any other (an assignment set the object's prototype instead).
    codes.forEach((code, i) => setOwn(result, code, details[i] as CodeDetail));
    return { request, result };
  },
});
