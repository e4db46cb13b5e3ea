// Wire shapes of the code engine (interface-spec.md "CodeDetail"; operations.md "Code sets and dates, everywhere"):
// the code-set names, the reason codes behind `invalidReason`, and CodeDetail itself with its extensions (ext). The
// engine in src/engines/codes returns exactly these shapes; CodeValidate and the CodeDetail operation wrap them.
import { z } from 'zod';

/** Code-set names on the wire, in their canonical spelling (operations.md "Code sets and dates, everywhere"). */
export const CodeType = z.enum(['ICD-10 CM', 'ICD-10 PCS', 'ICD-9 CM', 'CPT', 'HCPCS']).meta({ id: 'CodeType' });
export type CodeType = z.infer<typeof CodeType>;

/** `invalidReason` as the spec spells it. */
export const InvalidReason = z.enum(['NotFound', 'Deleted', 'Invalid']).meta({ id: 'InvalidReason' });
export type InvalidReason = z.infer<typeof InvalidReason>;

/**
 * Why a code is not valid, one level finer than `invalidReason` (ext). The README table and the message templates
 * (src/engines/codes/messages.ts) are keyed by these.
 */
export const CodeReasonCode = z
  .enum([
    'CODE_NOT_FOUND',
    'CODE_NOT_YET_VALID',
    'CODE_DELETED',
    'CODE_ICD9_ENDED',
    'CODE_ICD10_NOT_YET',
    'CODE_NO_DATA',
    'CODE_HEADER',
    'CODE_NEEDS_7TH',
    'CODE_PLACEHOLDER_MISSING',
    'CODE_BAD_7TH',
    'CODE_MALFORMED',
    'CODE_AMBIGUOUS',
  ])
  .meta({ id: 'CodeReasonCode' });
export type CodeReasonCode = z.infer<typeof CodeReasonCode>;

/** One reading of an ambiguous code string (ext). */
export const CodeCandidate = z
  .object({
    codeType: CodeType,
    code: z.string().describe('The code as that code set shows it (`001.0` vs `0010`).'),
    description: z.string().optional().describe('Its long title, when the code exists in that code set.'),
  })
  .meta({ id: 'CodeCandidate' });
export type CodeCandidate = z.infer<typeof CodeCandidate>;

/**
 * What one code is on one date (interface-spec.md "CodeDetail"). Spec fields keep the spec's names and types; the
 * others are marked (ext). Absent optional fields mean "no such data", never "checked and false".
 */
export const CodeDetail = z
  .object({
    codeId: z
      .int()
      .min(0)
      .describe(
        'Stable id of the code within its code set, decodable back to the code (int32 for CPT, HCPCS and ICD-9-CM; ICD-10 ids exceed int32). 0 when the code set could not be determined.',
      ),
    code: z
      .string()
      .describe(
        '(ext) The code as shown: dotted for ICD-10-CM and ICD-9-CM diagnoses, undotted otherwise; the input upper-cased when malformed.',
      ),
    codeAlt: z
      .string()
      .describe('(ext) The other form (dotted ICD-9-CM procedures; the same text where a code set has one form).'),
    shortDescription: z
      .string()
      .optional()
      .describe('Short title from the release answering (absent when unknown, e.g. CPT without a descriptor file).'),
    longDescription: z.string().optional().describe('Long title from the release answering.'),
    codeType: CodeType.optional().describe(
      'Code set of the code; absent when the string fits several and none was named.',
    ),
    isValid: z.boolean().describe('The code exists in its code set on the date AND is billable.'),
    invalidReason: InvalidReason.optional().describe(
      'NotFound: in no loaded release on the date; Deleted: in an earlier release, gone on the date; Invalid: a header, malformed, or not usable on the date. Absent when valid, ambiguous or when no release covers the date (see reasonCode).',
    ),
    priorAuthReq: z
      .boolean()
      .optional()
      .describe('Always absent: no prior-authorization list is loaded, so the engine cannot say either way.'),
    unacceptablePrincipalDx: z
      .boolean()
      .describe(
        'On the MCE unacceptable-principal-diagnosis list in force on the date, or an external-cause code (never principal).',
      ),
    statusIndicator: z
      .string()
      .optional()
      .describe(
        'OPPS Addendum B status indicator on the date (CPT and HCPCS codes); from the derived OPPS table (see derived) only where no official Addendum B covers the date.',
      ),
    minAge: z.int().describe('Youngest age in years the MCE age lists allow for the code; default 0.'),
    maxAge: z.int().describe('Oldest age in years the MCE age lists allow; default 124.'),
    reqGender: z
      .enum(['male', 'female'])
      .optional()
      .describe('Sex an active MCE sex-conflict list requires; absent when any is acceptable.'),
    reasonCode: CodeReasonCode.optional().describe('(ext) Why the code is not valid, finer than invalidReason.'),
    message: z.string().optional().describe('(ext) The reason in words, naming the releases and codes involved.'),
    suggestions: z
      .array(z.string())
      .optional()
      .describe(
        '(ext) Codes to use instead: billable children of a header (up to 10), replacements of a deleted code, the 7th-character or placeholder forms.',
      ),
    candidates: z
      .array(CodeCandidate)
      .optional()
      .describe('(ext) The readings of a string that fits several code sets.'),
    deletedIn: z.string().optional().describe('(ext) The release that dropped a deleted code (`FY2026`).'),
    release: z.string().optional().describe('(ext) The release the answer was read from (`FY2026`, `v32`, `2019Q1`).'),
    noData: z
      .boolean()
      .optional()
      .describe('(ext) True when no loaded release covers the date: validity is unknown, never a pass.'),
    derived: z
      .boolean()
      .optional()
      .describe(
        '(ext) True when part of the answer rests on a derived (non-official) file, e.g. a status indicator from the derived April 2026 OPPS table; a note says which part. Absent otherwise.',
      ),
    notes: z
      .array(z.string())
      .optional()
      .describe('(ext) Informational notes (e.g. which MCE version answered, or that none covers the date).'),
  })
  .meta({ id: 'CodeDetail' });
export type CodeDetail = z.infer<typeof CodeDetail>;
