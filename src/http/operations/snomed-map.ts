// SnomedMap (operations.md, "SNOMED map"): no licensed SNOMED CT content ships with the project, so the operation
// validates its request and answers an empty response whose responseStatus.message says no map is loaded (ext).
import { z } from 'zod';
import { defineOperation } from '../wire/operation.js';
import { responseOf } from '../wire/response-status.js';

export const SnomedMap = z
  .object({
    sourceCode: z.string().min(1).describe('The SNOMED CT concept id to map.'),
  })
  .meta({ id: 'SnomedMap' });
export type SnomedMap = z.infer<typeof SnomedMap>;

export const SnomedMapResponse = responseOf('SnomedMapResponse', {});
export type SnomedMapResponse = z.input<typeof SnomedMapResponse>;

/** What the response says until a SNOMED CT to ICD-10-CM map is loaded. */
export const NO_SNOMED_MAP = 'No SNOMED CT to ICD-10-CM map is loaded; the response is empty.';

/** The SnomedMap operation. */
export const snomedMap = defineOperation({
  name: 'SnomedMap',
  summary: 'Maps a SNOMED CT concept to ICD-10-CM; empty until a licensed map file is loaded.',
  request: SnomedMap,
  response: SnomedMapResponse,
  handler: () => ({ responseStatus: { message: NO_SNOMED_MAP } }),
});
