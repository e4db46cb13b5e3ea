// The registry of operations served by default: one import per file in this folder.
import type { Operation } from '../wire/operation.js';
import { demo } from './demo.js';
import { hello } from './hello.js';
import { snomedMap } from './snomed-map.js';

/** Every operation, in the order /metadata and /openapi list them. */
export const allOperations: readonly Operation[] = [hello, demo, snomedMap];
