// Every loader the builder knows, in load order (code sets before the tables that refer to them).
import type { Loader } from '../build/types.js';
import { icd10OrderLoader } from './icd10-order.js';

export const allLoaders: readonly Loader[] = [icd10OrderLoader];
