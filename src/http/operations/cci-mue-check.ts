// CciMueCheck (ext; issue 11 §3), route `/medRef/cci`: procedure items checked against code validity and the
// NCCI PTP, MUE and add-on edits of the provider type's tables, item by item (src/engines/validation).
import { z } from 'zod';
import { cciMueCheck as check } from '../../engines/validation/index.js';
import { CciMueCheck, CciMueResultItem } from '../../schemas/cci-mue-check.js';
import { referenceOf } from '../reference.js';
import { defineOperation } from '../wire/operation.js';
import { badRequest, fieldError, isOutcome } from '../wire/outcome.js';
import { responseOf } from '../wire/response-status.js';

export { CciMueCheck };

export const CciMueCheckResponse = responseOf('CciMueCheckResponse', {
  items: z.array(CciMueResultItem).describe('One per request item, in order.'),
});
export type CciMueCheckResponse = z.input<typeof CciMueCheckResponse>;

/** The CciMueCheck operation. */
export const cciMueCheck = defineOperation({
  name: 'CciMueCheck',
  summary: 'Checks procedure items with modifiers and units against the NCCI PTP, MUE and add-on edits (ext).',
  request: CciMueCheck,
  response: CciMueCheckResponse,
  routes: [{ path: '/medRef/cci', verbs: ['GET', 'POST'] }],
  csvListPath: ['items'],
  handler: (request, ctx) => {
    const ref = referenceOf(ctx);
    if (isOutcome(ref)) {
      return ref;
    }
    const errors = request.items.flatMap((item, i) =>
      (item.modifiers ?? []).flatMap((m, k) =>
        /^[A-Za-z0-9]{2}$/.test(m.trim())
          ? []
          : [fieldError('InvalidValue', `items[${i}].modifiers[${k}]`, { value: m })],
      ),
    );
    if (errors.length > 0) {
      return badRequest(errors);
    }
    return { items: check(ref, request) };
  },
});
