// The mapping messages (operations.md GemsMap, `messages` **(ext)**): one closed set of codes with what each means,
// for the README table and the HTTP layer; the resolver words each message for its code.
import type { MapMessage, MapMessageCode } from '../../schemas/mapping.js';

/** What each message code means (code → meaning). Wording of a single message names the codes involved. */
export const MAP_MESSAGE_CODES = {
  GEM_NO_MAP: 'The GEM row says the code has no plausible target (no-map flag, or a NoDx/NoPCS/NoI9 target).',
  GEM_BRIDGED:
    'The code is newer than the final FY2018 GEMs: it was mapped through the CDC ICD-10-CM conversion table from the code(s) it replaced.',
  GEM_NEW_CONCEPT:
    'The code is newer than the GEMs and the conversion table says it replaced no earlier code: nothing to map.',
  GEM_NOT_IN_GEM: 'The code exists but is in no GEM, and no conversion-table link leads to a code that is.',
  GEM_HEADER: 'The code is a header (not billable); only billable codes are in the GEMs.',
  GEM_WRONG_TYPE: 'The code belongs to another code set than the one requested.',
  GEM_NOT_FOUND: 'The code is in no loaded release of the requested code set, nor in the GEMs.',
  GEM_AMBIGUOUS: 'An undotted ICD-9-CM code that is both a diagnosis and a procedure: rows of both are returned.',
  LOOKUP_CARRIED_FORWARD:
    'A GEM target was replaced after FY2018; the codes that took it over on the target date are listed instead.',
  LOOKUP_NONE_ON_DATE:
    'None of the GEM targets, nor the codes that took them over, is a billable code on the target date.',
  LOOKUP_NO_DATA:
    'No loaded ICD-10-CM release covers the target date: which codes are billable then is not known, so none is listed.',
} as const satisfies Record<MapMessageCode, string>;

/** Builds one message. */
export function mapMessage(sourceCode: string, code: MapMessageCode, message: string): MapMessage {
  return { sourceCode, code, message };
}
