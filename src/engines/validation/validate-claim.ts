// The engine's one entry (issue 11 §1): validateClaims(ref, claims, options) reads each claim's codes once
// (context.ts) and runs every rule of the catalogue over it, collecting findings and the checks that lacked data.
// Pure: the same reference, claim and options give the same answer; CodeValidate, CciMueCheck and the scrubber's
// worker call it and only shape its answer.
import type { Claim } from '../../schemas/claim.js';
import type { ClaimResult, Finding, NotChecked } from '../../schemas/findings.js';
import { RULES } from './catalogue.js';
import { viewClaim, type ClaimView, type ValidationOptions, type ValidationReference } from './context.js';
import { ClaimSink } from './rule.js';

/**
 * Validates a batch of claims.
 * @param ref - the reference port (in-memory tables loaded once per thread)
 * @param claims - claims already checked against the Claim schema at the edge
 * @param options - which rules, and the configurable severities
 * @returns one result per claim, in order
 */
export function validateClaims(
  ref: ValidationReference,
  claims: readonly Claim[],
  options: ValidationOptions = {},
): ClaimResult[] {
  return claims.map((claim) => runRules(viewClaim(ref, claim, options)));
}

/**
 * Runs the catalogue (or the rules `options.checks` names) over one claim read by viewClaim.
 * @returns the claim's findings and the checks that could not run
 */
export function runRules(view: ClaimView): ClaimResult {
  const only = view.options.checks;
  const findings: Finding[] = [];
  const notChecked: NotChecked[] = [];
  const sink = new ClaimSink(view.claim.claimId, findings, notChecked);
  for (const rule of RULES) {
    if (only === undefined || only.includes(rule.id)) {
      sink.rule = rule.id;
      rule.run(view, sink);
    }
  }
  return { claimId: view.claim.claimId, findings, notChecked };
}

/**
 * Validates one claim (the scrubber's worker calls it claim after claim).
 * @returns its findings and the checks that could not run
 */
export function validateClaim(ref: ValidationReference, claim: Claim, options: ValidationOptions = {}): ClaimResult {
  return runRules(viewClaim(ref, claim, options));
}
