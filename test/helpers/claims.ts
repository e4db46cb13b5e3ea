// Claims for validation tests: a professional claim on a date with the given diagnoses and lines, parsed through
// the Claim schema (so a test never feeds the engine a claim the edge would have refused).
import { Claim, type ClaimLine } from '../../src/schemas/claim.js';

/** A line: procedure code with optional modifiers, units and fields. */
export type LineSpec = string | (Partial<ClaimLine> & { procedureCode: string });

/**
 * Builds a claim through the Claim schema.
 * @param fields - claim fields (date defaults to 2026-05-15, type to professional)
 * @param dx - diagnosis codes in order
 * @param lines - procedure codes or line objects; line numbers count from 1
 */
export function claimOf(fields: Partial<Claim>, dx: readonly string[], lines: readonly LineSpec[]): Claim {
  return Claim.parse({
    claimId: 'C1',
    claimType: 'professional',
    dateOfServiceFrom: '2026-05-15',
    ...fields,
    diagnoses: fields.diagnoses ?? dx.map((code) => ({ code })),
    lines: lines.map((l, i) =>
      typeof l === 'string'
        ? { lineNumber: i + 1, procedureCode: l, modifiers: [], units: 1 }
        : { lineNumber: i + 1, modifiers: [], units: 1, ...l },
    ),
  });
}
