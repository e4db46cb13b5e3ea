// The validation engine's public surface (style.md guideline 1): validate claims against the reference data, and
// the rule catalogue it runs. CodeValidate, CciMueCheck and the batch scrubber's worker call these only.
export { RULES } from './catalogue.js';
export { cciMueCheck } from './cci-mue-check.js';
export { claimOfCodeValidate, codeValidate } from './code-validate.js';
export { resolveContractor, type ContractorResolution } from './contractor.js';
export { ageInYears, viewClaim, type ClaimView, type ValidationOptions, type ValidationReference } from './context.js';
export type { Rule } from './rule.js';
export { runRules, validateClaim, validateClaims } from './validate-claim.js';
export {
  BATCH_RULES,
  crossClaimFacts,
  duplicateFinding,
  frequencyFinding,
  monthsBefore,
  mueFinding,
  mueKey,
  type BatchRule,
  type CrossClaimFacts,
  type CrossClaimLimit,
  type CrossClaimLineFact,
  type CrossClaimMue,
  type DuplicateAnswer,
  type EarlierService,
  type FrequencyAnswer,
  type MueAnswer,
  type OtherLine,
} from './cross-claim.js';
