// The mapping engine's public surface (style.md guideline 1): GemsMap, ProprietaryMap and PrimaryLookup over the
// GEMs and the CDC conversion tables, pure functions of the Reference port. The HTTP operations and the worker
// tasks call these and nothing else in this folder.
export { parseMapCodeType } from './code-types.js';
export type { MappingReference } from './context.js';
export { CONFIDENCE, confidenceOf, type ConfidenceFactors } from './confidence.js';
export { gemsMap, gemsMapCode, type GemsMapResult } from './gems-map.js';
export { MAP_MESSAGE_CODES } from './messages.js';
export { primaryLookup, primaryLookups, type PrimaryLookupAnswer } from './primary-lookup.js';
export { proprietaryMap, proprietaryMapCode, type MapLogic, type ProprietaryMapResult } from './proprietary-map.js';
