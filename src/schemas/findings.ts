// What the validation engine says about a claim (issue 11 §1): findings are data, not strings. A finding names
// its rule and code, the lines and codes it concerns, the source it rests on and a fix where there is one; a check
// that could not run for lack of data is a `NotChecked` entry, never a pass.
import { z } from 'zod';

/** How bad a finding is: `error` the claim would be denied as submitted; `warning` review it; `info` for the record. */
export const Severity = z.enum(['error', 'warning', 'info']).meta({ id: 'Severity' });
export type Severity = z.infer<typeof Severity>;

/** The data a finding rests on. */
export const FindingSource = z
  .object({
    /** Dataset as the reference database names it (`mue-practitioner`, `ncd-lab`, `mce`, `icd10cm-tabular`). */
    dataset: z.string(),
    /** Release, version or quarter (`2026Q2`, `FY2026`, `v43.1`). */
    release: z.string(),
    /** Policy id (`NCD 190.12`, `LCD L36692`, `Article A57484`, a pack's id). */
    policyId: z.string().optional(),
    policyVersion: z.string().optional(),
    /** The policy's title (`Glycated Hemoglobin/Glycated Protein`). */
    policyTitle: z.string().optional(),
    /** The spec's policy type letter: L LCD, A Article, N NCD, C CMS manual, T transmittal, M MLN Matters, P payer. */
    policyType: z.enum(['L', 'A', 'N', 'C', 'T', 'M', 'P']).optional(),
    /** True when the release is a derived (non-official) file. */
    derived: z.boolean().optional(),
  })
  .meta({ id: 'FindingSource' });
export type FindingSource = z.infer<typeof FindingSource>;

/** One problem (or, for `info`, one fact) a rule found on a claim. */
export const Finding = z
  .object({
    /** Rule id (`ncci.mue`); see the rule catalogue. */
    rule: z.string(),
    /** Finding code from src/findings/codes.ts (`MUE_EXCEEDED`). */
    code: z.string(),
    severity: Severity,
    claimId: z.string(),
    /** Line numbers (as submitted) the finding concerns; empty for a claim-level finding. */
    lines: z.array(z.int()),
    /** The codes it concerns, as submitted. */
    codes: z.array(z.string()),
    /**
     * Positions (1-based) in the claim's diagnosis list of the diagnoses it concerns, where it concerns particular
     * ones: a code listed twice is told apart by its position.
     */
    diagnoses: z.array(z.int()).optional(),
    source: FindingSource.optional(),
    message: z.string(),
    /** What to do about it, where there is something to do. */
    fix: z.string().optional(),
  })
  .meta({ id: 'Finding' });
export type Finding = z.infer<typeof Finding>;

/** A check that could not run on a claim because data was missing: never a pass. */
export const NotChecked = z
  .object({
    rule: z.string(),
    claimId: z.string(),
    lines: z.array(z.int()),
    /** Positions (1-based) of the diagnoses whose check could not run, where it concerns particular ones. */
    diagnoses: z.array(z.int()).optional(),
    reason: z.string(),
    /** The data that is missing (`ncci-ptp-practitioner for 2026-05-01`, `patient sex`). */
    missing: z.string(),
  })
  .meta({ id: 'NotChecked' });
export type NotChecked = z.infer<typeof NotChecked>;

/** The engine's answer for one claim. */
export const ClaimResult = z.object({
  claimId: z.string(),
  findings: z.array(Finding),
  notChecked: z.array(NotChecked),
});
export type ClaimResult = z.infer<typeof ClaimResult>;
