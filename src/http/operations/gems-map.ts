// GemsMap (operations.md "Mapping"): ICD-10-CM / ICD-10-PCS codes → ICD-9 codes, one item per GEM row with the
// flags copied from the file; `messages` (ext) says why a code was bridged through the conversion table or not
// mapped. Custom route `/medRef/GemsMap` (GET, POST); CSV rows are `result[]`.
import { z } from 'zod';
import { gemsMap as mapCodes } from '../../engines/mapping/index.js';
import { GemsMapItem, GemsMapRequest, MapMessage } from '../../schemas/mapping.js';
import { mapInputsOf } from '../reference.js';
import { defineOperation } from '../wire/operation.js';
import { isOutcome } from '../wire/outcome.js';
import { responseOf } from '../wire/response-status.js';

export const GemsMap = GemsMapRequest.meta({ id: 'GemsMap' });
export type GemsMap = z.infer<typeof GemsMap>;

export const GemsMapResponse = responseOf('GemsMapResponse', {
  request: GemsMap,
  result: z.array(GemsMapItem),
  messages: z.array(MapMessage).describe('(ext) Why a code was bridged or not mapped, in request order.'),
});
export type GemsMapResponse = z.input<typeof GemsMapResponse>;

/** The GemsMap operation. */
export const gemsMap = defineOperation({
  name: 'GemsMap',
  summary: 'Maps ICD-10-CM or ICD-10-PCS codes to ICD-9-CM through the GEMs, one item per GEM row.',
  request: GemsMap,
  response: GemsMapResponse,
  routes: [{ path: '/medRef/GemsMap', verbs: ['GET', 'POST'] }],
  csvListPath: ['result'],
  handler: (request, ctx) => {
    const inputs = mapInputsOf(request, ctx);
    if (isOutcome(inputs)) {
      return inputs;
    }
    const { ref, type, codes, date } = inputs;
    const { result, messages } = mapCodes(ref, codes, type, date);
    return { request, result, messages };
  },
});
