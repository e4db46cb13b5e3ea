// Code-system names now live in src/schemas/code-systems.ts (engines import them too); re-exported here for the
// reference modules that import them from this path.
export { CodeSystem, normaliseCode } from '../schemas/code-systems.js';
