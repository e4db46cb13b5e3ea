// The code engine's public surface (style.md guideline 1): reading and placing code strings, and CodeDetail on a
// date, as pure functions of the Reference port. The HTTP operations, CodeValidate and the worker tasks call these
// and nothing else in this folder.
// Code spelling, shapes and code-set names are the one rule every engine shares (src/schemas/code-systems.ts);
// they stay on this surface for the callers that read codes through this engine.
export {
  alternateCode,
  codeTypeOf,
  displayCode,
  dottedCode,
  fitsShape,
  parseCode,
  parseCodeSet,
  shapeSystems,
  systemLabel,
  type ParsedCode,
} from '../../schemas/code-systems.js';
export { codeFromId, codeIdOf } from './code-id.js';
export { codeDetail, codeDetails } from './code-details.js';
export { detectCodeSystem, detectCodeSystems, type CodeSystemDetection } from './detect.js';
export { releaseOn, type CodesReference } from './lookup.js';
export { CODE_NOTES, CODE_REASONS } from './messages.js';
