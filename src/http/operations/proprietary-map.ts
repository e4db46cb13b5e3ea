// ProprietaryMap (operations.md "Mapping"): the project's own map built from both GEM directions, with `logic`
// (0 one target, 1 pick one, 2 combination), `confidenceLvl` (README table) and the undotted/dotted twins; rows best
// first. `logicLimit` keeps the rows of that logic. Custom route `/medRef/ProprietaryMap` (GET, POST); CSV rows are
// `result[]`.
import { z } from 'zod';
import { proprietaryMap as mapCodes, type MapLogic } from '../../engines/mapping/index.js';
import { MapMessage, ProprietaryMapItem as EngineItem, ProprietaryMapRequest } from '../../schemas/mapping.js';
import { mapInputsOf } from '../reference.js';
import { short } from '../wire/fields.js';
import { defineOperation } from '../wire/operation.js';
import { isOutcome } from '../wire/outcome.js';
import { responseOf } from '../wire/response-status.js';

export const ProprietaryMap = ProprietaryMapRequest.extend({
  logicLimit: short({ min: 0, max: 2 })
    .optional()
    .describe(
      'Omitted: all codes. 0: codes with one choice; 1: codes that require a choice; 2: codes that require all codes to be chosen.',
    ),
}).meta({ id: 'ProprietaryMap' });
export type ProprietaryMap = z.infer<typeof ProprietaryMap>;

/** The engine's item with `logic` marked as the spec's Int16. */
export const ProprietaryMapItem = EngineItem.extend({
  logic: short({ min: 0, max: 2 }).describe(
    '0: the only target; 1: one of several alternatives, the coder picks one; 2: part of a combination, all required.',
  ),
}).meta({ id: 'ProprietaryMapItem' });

export const ProprietaryMapResponse = responseOf('ProprietaryMapResponse', {
  request: ProprietaryMap,
  result: z.array(ProprietaryMapItem),
  messages: z.array(MapMessage).describe('(ext) Why a code was bridged or not mapped, in request order.'),
});
export type ProprietaryMapResponse = z.input<typeof ProprietaryMapResponse>;

/** The ProprietaryMap operation. */
export const proprietaryMap = defineOperation({
  name: 'ProprietaryMap',
  summary: 'Maps ICD-10 codes to ICD-9-CM with the project’s own logic and confidence levels, best first.',
  request: ProprietaryMap,
  response: ProprietaryMapResponse,
  routes: [{ path: '/medRef/ProprietaryMap', verbs: ['GET', 'POST'] }],
  csvListPath: ['result'],
  handler: (request, ctx) => {
    const inputs = mapInputsOf(request, ctx);
    if (isOutcome(inputs)) {
      return inputs;
    }
    const { ref, type, codes, date } = inputs;
    const logic = request.logicLimit as MapLogic | undefined;
    const { result, messages } = mapCodes(ref, codes, type, logic, date);
    return { request, result, messages };
  },
});
