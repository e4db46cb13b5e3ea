// For the MCE and POA rule tests: runs one rule of the validation engine on a claim built through the Claim schema,
// by default an institutional claim on 2026-05-15 (inside MCE v43.1, 2026-04-01..2026-09-30).
import { validateClaim } from '../../src/engines/validation/index.js';
import type { RuleId } from '../../src/findings/codes.js';
import type { Reference } from '../../src/reference/index.js';
import type { Claim } from '../../src/schemas/claim.js';
import type { ClaimResult } from '../../src/schemas/findings.js';
import { claimOf, type LineSpec } from './claims.js';

/**
 * Runs one rule on a claim.
 * @param ref - the shared reference
 * @param rule - the rule id
 * @param dx - diagnosis codes in order (the first is principal)
 * @param lines - procedure codes (ICD-10-PCS codes are the MCE's procedures)
 * @param fields - claim fields over the defaults (institutional, 2026-05-15)
 */
export function runRule(
  ref: Reference,
  rule: RuleId,
  dx: readonly string[],
  lines: readonly LineSpec[] = [],
  fields: Partial<Claim> = {},
): ClaimResult {
  return validateClaim(ref, claimOf({ claimType: 'institutional', ...fields }, dx, lines), { checks: [rule] });
}
