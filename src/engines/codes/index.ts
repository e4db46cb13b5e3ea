// The code engine's public surface (style.md guideline 1): reading and placing code strings, and CodeDetail on a
// date, as pure functions of the Reference port. The HTTP operations, CodeValidate and the worker tasks call these
// and nothing else in this folder.
export {
  alternateCode,
  displayCode,
  dottedCode,
  fitsShape,
  parseCode,
  shapeSystems,
  type ParsedCode,
} from './code-format.js';
export { codeFromId, codeIdOf } from './code-id.js';
export { codeTypeOf, parseCodeSet, systemLabel } from './code-sets.js';
export { codeDetail, codeDetails } from './code-details.js';
export { detectCodeSystem, detectCodeSystems, type CodeSystemDetection } from './detect.js';
export type { CodesReference } from './lookup.js';
export { CODE_NOTES, CODE_REASONS } from './messages.js';
