// Policy packs (issue 11 rule 10): the JSON format for coverage rules no official feed carries (CMS manuals,
// transmittals, MLN Matters articles, commercial payers' policies). One pack is one file `<name>.policy.json`; the
// reference build loads every such file (src/refdata/loaders/policy-pack.ts), the read port answers which rules are
// in force for a procedure on a date (src/reference/queries/policy-packs.ts), and the `policy.pack` rule turns them
// into Age, Gender and Frequency exceptions and diagnosis findings. docs/policy-packs.md documents this schema.
import { z } from 'zod';

const IsoDate = z.iso.date();

/** The spec's policy type letters a pack may carry: C CMS manual, T transmittal, M MLN Matters, P commercial payer. */
export const PolicyPackType = z.enum(['C', 'T', 'M', 'P']);
export type PolicyPackType = z.infer<typeof PolicyPackType>;

/** A procedure code (CPT or HCPCS Level II, 5 characters) or an inclusive range `G0101-G0105`. */
export const ProcedureCodeOrRange = z
  .string()
  .regex(/^[A-Z0-9]{5}(-[A-Z0-9]{5})?$/, 'a 5-character CPT/HCPCS code or a range like "G0101-G0105"');

/**
 * An ICD-10-CM code (dotted or not) or an inclusive range `Z12.31-Z12.39`. A code also covers the codes below it
 * (`Z12` covers `Z12.31`); a range covers every code whose leading characters fall between its ends.
 */
export const DiagnosisCodeOrRange = z
  .string()
  .regex(
    /^[A-Z][0-9][0-9A-Z](\.?[0-9A-Z]{1,4})?(-[A-Z][0-9][0-9A-Z](\.?[0-9A-Z]{1,4})?)?$/,
    'an ICD-10-CM code or a range like "Z12.31-Z12.39"',
  );

/** Dates a pack or rule is in force; `to` absent = still in force. */
export const PolicyPackEffective = z.strictObject({ from: IsoDate, to: IsoDate.optional() });
export type PolicyPackEffective = z.infer<typeof PolicyPackEffective>;

/** Ages in full years on the date of service, inclusive; an absent end is open. */
export const PolicyPackAges = z.strictObject({
  min: z.int().min(0).max(124).optional(),
  max: z.int().min(0).max(124).optional(),
});
export type PolicyPackAges = z.infer<typeof PolicyPackAges>;

/**
 * The period a frequency limit counts over: a lifetime, a calendar year, N months back from the date, or Medicare's
 * way for most preventive services: payable once N full months have passed after the month of the last one
 * (`monthsAfterMonth`: 11 for "once every 12 months" of an AWV or screening mammography, 119 for a screening
 * colonoscopy every 10 years), so a service in the 12th month counts no earlier one of the first month.
 */
export const PolicyPackPeriod = z.union([
  z.literal('lifetime'),
  z.literal('calendar-year'),
  z.strictObject({ months: z.int().min(1).max(240) }),
  z.strictObject({ monthsAfterMonth: z.int().min(1).max(240) }),
]);
export type PolicyPackPeriod = z.infer<typeof PolicyPackPeriod>;

/** At most `count` services per period (a single claim cannot prove it: always a warning). */
export const PolicyPackFrequency = z.strictObject({
  count: z.int().min(1),
  per: PolicyPackPeriod,
  /** The limit applies only to patients of these ages (e.g. the baseline mammogram at 35-39). */
  ages: PolicyPackAges.optional(),
  /** How the source counts the period, or when another limit applies ("11 full months after the month of the last one"). */
  note: z.string().min(1).optional(),
});
export type PolicyPackFrequency = z.infer<typeof PolicyPackFrequency>;

/** Where a rule's facts come from: a manual section, NCD, transmittal, MLN page or payer policy, with its date. */
export const PolicyPackCitation = z.strictObject({
  title: z.string().min(1),
  /** Manual section, NCD number, transmittal or article number (`100-03 §220.4`, `MM7079`). */
  section: z.string().min(1).optional(),
  url: z.url(),
  date: IsoDate,
  /** What `date` is: the source's publication, effective or revision date, or the day it was read. */
  dateIs: z.enum(['published', 'effective', 'revised', 'retrieved']),
  /** What exactly the source confirms, or how it was read (a mirror of a CMS document, a contractor's page). */
  note: z.string().min(1).optional(),
});
export type PolicyPackCitation = z.infer<typeof PolicyPackCitation>;

/** One coverage rule of a pack. */
export const PolicyPackRule = z.strictObject({
  /** Unique within the pack (`awv-subsequent`). */
  id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'lower-case letters, digits and hyphens'),
  title: z.string().min(1),
  procedures: z.array(ProcedureCodeOrRange).min(1),
  /** In force within the pack's dates; narrows them when given. */
  effective: PolicyPackEffective.optional(),
  /** Patients of other ages are not covered: Age exception. */
  ages: PolicyPackAges.optional(),
  /** Patients of the other sex are not covered: Gender exception. */
  sex: z.enum(['F', 'M']).optional(),
  frequency: z.array(PolicyPackFrequency).optional(),
  /** Diagnosis lists: a covered list means "only these"; a non-covered list is never covered. */
  diagnoses: z
    .strictObject({
      covered: z.array(DiagnosisCodeOrRange).min(1).optional(),
      nonCovered: z.array(DiagnosisCodeOrRange).min(1).optional(),
    })
    .optional(),
  citations: z.array(PolicyPackCitation).min(1),
});
export type PolicyPackRule = z.infer<typeof PolicyPackRule>;

/** Which claims a pack applies to: every claim, claims of these contractors, or claims carrying these payer codes. */
export const PolicyPackScope = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('national') }),
  z.strictObject({ kind: z.literal('contractors'), contractors: z.array(z.string().regex(/^\d{5}$/)).min(1) }),
  z.strictObject({ kind: z.literal('payers'), payers: z.array(z.string().min(1)).min(1) }),
]);
export type PolicyPackScope = z.infer<typeof PolicyPackScope>;

/** Whether a pack's scope takes a claim: national packs always, the others by the claim's contractor or payer. */
export function packInScope(
  scope: PolicyPackScope,
  claim: { readonly contractorNumber?: string | undefined; readonly payerCode?: string | undefined },
): boolean {
  switch (scope.kind) {
    case 'national':
      return true;
    case 'contractors':
      return claim.contractorNumber !== undefined && scope.contractors.includes(claim.contractorNumber);
    case 'payers':
      return claim.payerCode !== undefined && scope.payers.includes(claim.payerCode.trim());
  }
}

/** One policy pack file. */
export const PolicyPack = z
  .strictObject({
    format: z.literal('policy-pack/1'),
    /** The pack's id, shown as the policy in CodeValidate (`CMS-PREVENTIVE`). */
    id: z.string().regex(/^[A-Z0-9][A-Z0-9._-]*$/, 'upper-case letters, digits, dot, underscore and hyphen'),
    type: PolicyPackType,
    title: z.string().min(1),
    /** Integer versions show in CodeValidate's `policies` dictionary. */
    version: z.string().min(1),
    effective: PolicyPackEffective,
    scope: PolicyPackScope,
    /** True for an illustrative pack that is no real policy (the sample commercial pack). */
    example: z.boolean().optional(),
    description: z.string().optional(),
    /** Facts the authors looked for and could not confirm from the sources, so they are not in the rules. */
    notConfirmed: z.array(z.string().min(1)).optional(),
    rules: z.array(PolicyPackRule).min(1),
  })
  .superRefine((pack, ctx) => {
    const seen = new Set<string>();
    const backwards = (e: PolicyPackEffective | undefined): boolean => e?.to !== undefined && e.to < e.from;
    if (backwards(pack.effective)) {
      ctx.addIssue({ code: 'custom', path: ['effective', 'to'], message: 'ends before it starts' });
    }
    pack.rules.forEach((rule, i) => {
      if (seen.has(rule.id)) {
        ctx.addIssue({ code: 'custom', path: ['rules', i, 'id'], message: `duplicate rule id "${rule.id}"` });
      }
      seen.add(rule.id);
      if (backwards(rule.effective)) {
        ctx.addIssue({ code: 'custom', path: ['rules', i, 'effective', 'to'], message: 'ends before it starts' });
      }
      const ranges = [
        ...rule.procedures.map((p, k) => ['procedures', k, p] as const),
        ...(rule.diagnoses?.covered ?? []).map((p, k) => ['diagnoses', 'covered', k, p] as const),
        ...(rule.diagnoses?.nonCovered ?? []).map((p, k) => ['diagnoses', 'nonCovered', k, p] as const),
      ];
      for (const entry of ranges) {
        const value = entry[entry.length - 1] as string;
        const [from, to] = value.replace(/\./g, '').split('-');
        if (to !== undefined && from !== undefined && to < from) {
          ctx.addIssue({
            code: 'custom',
            path: ['rules', i, ...entry.slice(0, -1)],
            message: `range ${value} is backwards`,
          });
        }
      }
      const limits = [rule.ages, ...(rule.frequency ?? []).map((f) => f.ages)];
      limits.forEach((a) => {
        if (a?.min !== undefined && a.max !== undefined && a.max < a.min) {
          ctx.addIssue({ code: 'custom', path: ['rules', i], message: `age range ${a.min}-${a.max} is backwards` });
        }
      });
    });
  });
export type PolicyPack = z.infer<typeof PolicyPack>;

/** A code or range read as its undotted, upper-case ends. */
export interface CodeSpan {
  readonly from: string;
  readonly to: string;
}

/** Reads a code-or-range string: `Z12.31-Z12.39` → { from: 'Z1231', to: 'Z1239' }; a single code is both ends. */
export function spanOf(value: string): CodeSpan {
  const [from = '', to] = value.toUpperCase().replace(/\./g, '').split('-');
  return { from, to: to ?? from };
}

/**
 * Whether an undotted code falls in a span: its leading characters (as many as each end has) are between the ends,
 * so a span `Z12` holds `Z1231` and `Z1231-Z1239` holds `Z1239` and its children.
 */
export function inSpan(code: string, span: CodeSpan): boolean {
  return code.slice(0, span.from.length) >= span.from && code.slice(0, span.to.length) <= span.to;
}
