// The rule catalogue (issue 11 §2): every rule the engine runs, in the order it runs them. The README's rule table
// is generated from this list; adding a rule is adding its file under rules/ and one line here.
import type { Rule } from './rule.js';
import { claimStructure } from './rules/claim-structure.js';
import { codeValidity } from './rules/code-validity.js';
import { contractor } from './rules/contractor.js';
import { dxCodeFirst } from './rules/dx-code-first.js';
import { dxExcludes1 } from './rules/dx-excludes1.js';
import { lcdCoverage } from './rules/lcd-coverage.js';
import { mceAgeConflict } from './rules/mce-age-conflict.js';
import { mceDuplicateOfPdx } from './rules/mce-duplicate-of-pdx.js';
import { mceECodeAsPdx } from './rules/mce-e-code-as-pdx.js';
import { mceLimitedCoverage } from './rules/mce-limited-coverage.js';
import { mceManifestationAsPdx } from './rules/mce-manifestation-as-pdx.js';
import { mceNonCoveredProcedure } from './rules/mce-non-covered-procedure.js';
import { mceQuestionableAdmission } from './rules/mce-questionable-admission.js';
import { mceRequiresSdx } from './rules/mce-requires-sdx.js';
import { mceSexConflict } from './rules/mce-sex-conflict.js';
import { mceUnacceptablePdx } from './rules/mce-unacceptable-pdx.js';
import { mceUnspecifiedCode } from './rules/mce-unspecified-code.js';
import { mceWrongProcedure } from './rules/mce-wrong-procedure.js';
import { mceProcedureLos } from './rules/mce-procedure-los.js';
import { ncdLab } from './rules/ncd-lab.js';
import { ncciAddOn } from './rules/ncci-add-on.js';
import { ncciMue } from './rules/ncci-mue.js';
import { ncciPtp } from './rules/ncci-ptp.js';
import { poa } from './rules/poa.js';
import { policyPacks } from './rules/policy-packs.js';

/** Every rule, in run order. */
export const RULES: readonly Rule[] = [
  claimStructure,
  codeValidity,
  contractor,
  dxExcludes1,
  dxCodeFirst,
  ncdLab,
  lcdCoverage,
  ncciPtp,
  ncciMue,
  ncciAddOn,
  mceAgeConflict,
  mceSexConflict,
  mceECodeAsPdx,
  mceManifestationAsPdx,
  mceUnacceptablePdx,
  mceRequiresSdx,
  mceDuplicateOfPdx,
  mceQuestionableAdmission,
  mceUnspecifiedCode,
  mceNonCoveredProcedure,
  mceLimitedCoverage,
  mceWrongProcedure,
  mceProcedureLos,
  poa,
  policyPacks,
];
