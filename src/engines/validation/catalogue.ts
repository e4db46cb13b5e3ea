// The rule catalogue (issue 11 §2): every rule the engine runs, in the order it runs them. The README's rule table
// is generated from this list; adding a rule is adding its file under rules/ and one line here.
import type { Rule } from './rule.js';
import { codeValidity } from './rules/code-validity.js';
import { ncciAddOn } from './rules/ncci-add-on.js';
import { ncciMue } from './rules/ncci-mue.js';
import { ncciPtp } from './rules/ncci-ptp.js';

/** Every rule, in run order. */
export const RULES: readonly Rule[] = [codeValidity, ncciMue, ncciAddOn, ncciPtp];
