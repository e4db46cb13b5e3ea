// GemsMap (operations.md "Mapping"): ICD-10-CM / ICD-10-PCS codes → ICD-9 codes, one item per GEM row with the
// flags copied from the file; `messages` (ext) says why a code was bridged through the conversion table or not
// mapped. Custom route `/medRef/GemsMap` (GET, POST); CSV rows are `result[]`.
import { z } from 'zod';
import { gemsMap as mapCodes, parseMapCodeType } from '../../engines/mapping/index.js';
import { GemsMapItem, GemsMapRequest, MapMessage } from '../../schemas/mapping.js';
import { answerDate, referenceOf, splitCodes } from '../reference.js';
import { defineOperation } from '../wire/operation.js';
import { badRequest, fieldError, isOutcome } from '../wire/outcome.js';
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
    const ref = referenceOf(ctx);
    if (isOutcome(ref)) {
      return ref;
    }
    const typeName = request.sourceCodeType ?? 'ICD-10 CM';
    const type = parseMapCodeType(typeName);
    if (type === undefined) {
      return badRequest([fieldError('InvalidValue', 'sourceCodeType', { value: typeName })]);
    }
    const codes = splitCodes(request.sourceCodeCsv);
    if (codes.length === 0) {
      return badRequest([fieldError('NotEmpty', 'sourceCodeCsv')]);
    }
    const { result, messages } = mapCodes(ref, codes, type, answerDate(undefined, ctx.now()));
    return { request, result, messages };
  },
});
