// DocumentV2 (operations.md "NLP index"; issue 14 §2): clinical text → one string→string map per mention, coded, with
// its assertion status. Route `/NLP/v2/index` (POST, as the spec gives it); JSON, JSONP (`?callback=`), XML, CSV (one
// row per mention, the union of keys as columns). Text over 100 KB of UTF-8 (`HTTP_NLP_MAX_TEXT_BYTES`) → 413,
// whatever the body limit.
import { z } from 'zod';
import { indexDocument } from '../../engines/nlp/index.js';
import { DocumentV2, mentionMap, MentionMap, NLP_MAX_TEXT_BYTES } from '../../schemas/nlp.js';
import { answerDate, referenceOf } from '../reference.js';
import { defineOperation } from '../wire/operation.js';
import { failure, isOutcome } from '../wire/outcome.js';
import { responseOf } from '../wire/response-status.js';

export { DocumentV2 };

export const DocumentV2Response = responseOf('DocumentV2Response', {
  result: z.array(MentionMap).describe('One map per mention, in text order (keys: operations.md "NLP index").'),
});

/** The DocumentV2 operation. */
export const documentV2 = defineOperation({
  name: 'DocumentV2',
  summary: 'Finds the conditions, procedures and medications a clinical text mentions, coded, with negation, uncertainty, history and family.',
  request: DocumentV2,
  response: DocumentV2Response,
  routes: [{ path: '/NLP/v2/index', verbs: ['POST'] }],
  csvListPath: ['result'],
  handler: (request, ctx) => {
    const text = request.text ?? '';
    const max = ctx.config.nlpMaxTextBytes ?? NLP_MAX_TEXT_BYTES;
    if (Buffer.byteLength(text, 'utf8') > max) {
      return failure('PayloadTooLarge', `The text is larger than ${String(max)} bytes.`);
    }
    if (text.trim() === '') {
      return { result: [] };
    }
    const ref = referenceOf(ctx);
    if (isOutcome(ref)) {
      return ref;
    }
    return { result: indexDocument(ref, text, answerDate(undefined, ctx.now())).map(mentionMap) };
  },
});
