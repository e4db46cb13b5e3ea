// Wire shapes of CodeValidate (interface-spec.md "Claim validation request/response"; operations.md "Claim
// validation"): the request as the spec lists it, and the wrapper with codes, policies and one ResultItem per
// procedure holding one ResultSubItem per diagnosis. Fields the spec does not list are marked (ext).
import { z } from 'zod';
import {
  ContractorNumber,
  parseBillType,
  parseGender,
  parseIcdType,
  parseProviderType,
  UsState,
  ZipCode,
} from './claim.js';
import { CodeDetail } from './codes.js';

/**
 * A string field checked by its own reading (a spelling the parser knows, a shape after trimming): part of the
 * schema, so that a 400 lists every field's error at once (wire.md section 4), as `InvalidValue`.
 */
const readAs = (reads: (value: string) => boolean): z.ZodString => z.string().refine(reads);

/** Policy sources a request may ask for. `Article` is implied by `LCD`. */
export const CodeCheckType = z
  .enum(['LCD', 'Article', 'NCD', 'CMS', 'Transmittal', 'MLM', 'Commercial'])
  .meta({ id: 'CodeCheckType' });
export type CodeCheckType = z.infer<typeof CodeCheckType>;

/** The patient, for age and gender exceptions. */
export const PatientProfile = z
  .object({
    age: z.int().min(0).max(150).optional(),
    birthdate: z.iso.date().optional().describe('Wins over `age`: age in full years on the date of service.'),
    gender: readAs((v) => parseGender(v) !== undefined)
      .optional()
      .describe('`m`, `male`, `f`, `female` in any case (`fale` is read as male).'),
  })
  .meta({ id: 'PatientProfile' });
export type PatientProfile = z.infer<typeof PatientProfile>;

export const CodeValidate = z
  .object({
    codeCheckTypes: z.array(CodeCheckType).min(1),
    effectiveDate: z.iso.date().describe('Date of service.'),
    // A code is read trimmed (operations.md: surrounding spaces trimmed); a blank one is no code (400 NotEmpty).
    cptCodes: z.array(z.string().trim().min(1)).max(50).optional(),
    icdCodes: z.array(z.string().trim().min(1)).max(50).optional(),
    icdType: readAs((v) => parseIcdType(v) !== undefined)
      .optional()
      .describe('`ICD-9 CM` or `ICD-10 CM`, in any case, with or without the space or hyphen.'),
    contractorNumber: readAs((v) => ContractorNumber.safeParse(v.trim()).success).optional(),
    state: readAs((v) => UsState.safeParse(v.trim().toUpperCase()).success).optional(),
    postalCode: readAs((v) => ZipCode.safeParse(v.trim()).success).optional(),
    providerType: readAs((v) => parseProviderType(v) !== undefined)
      .optional()
      .describe('`Facility` (H, Hospital, Institutional), `Physician` (P, Professional), `DME`, `HomeHealth` (HHH).'),
    billType: readAs((v) => parseBillType(v) !== undefined)
      .optional()
      .describe(
        '(ext) UB-04 type of bill of a Facility claim, with or without its leading 0 (`0111` inpatient, `0131` outpatient). Without it a Facility claim is read as inpatient; an outpatient bill gets no MCE admission or procedure edits.',
      ),
    payerCode: z.string().optional(),
    patient: PatientProfile.optional(),
    cptIcdMapping: z
      .record(z.string().trim(), z.array(z.string().trim()))
      .optional()
      .describe('Procedure code → the diagnosis codes checked against it (the strings of cptCodes/icdCodes, trimmed).'),
  })
  .meta({ id: 'CodeValidate' });
export type CodeValidate = z.infer<typeof CodeValidate>;

/** Status of an issue or exception. */
export const IssueStatus = z.enum(['OK', 'Warning', 'Error']).meta({ id: 'IssueStatus' });
export type IssueStatus = z.infer<typeof IssueStatus>;

/** Rolled-up status of a ResultItem or ResultSubItem. */
export const ResultStatus = z
  .enum(['OK', 'Warning', 'Error', 'PolicyNotFound', 'InvalidCode', 'DeletedCode'])
  .meta({ id: 'ResultStatus' });
export type ResultStatus = z.infer<typeof ResultStatus>;

export const ResultItemIssue = z
  .object({
    policy: z.string(),
    status: IssueStatus,
    message: z.string(),
    ruleId: z.string().optional().describe('(ext) The rule that found it (`ncci.mue`).'),
    code: z.string().optional().describe('(ext) The finding code (`MUE_EXCEEDED`).'),
    fix: z.string().optional().describe('(ext) What to do about it.'),
  })
  .meta({ id: 'ResultItemIssue' });
export type ResultItemIssue = z.infer<typeof ResultItemIssue>;

export const ResultItemException = z
  .object({
    policy: z.string(),
    exception: z.enum(['Age', 'Gender', 'Frequency']),
    status: IssueStatus,
    message: z.string(),
  })
  .meta({ id: 'ResultItemException' });
export type ResultItemException = z.infer<typeof ResultItemException>;

export const ResultItemMessage = z
  .object({ policy: z.string(), message: z.string() })
  .meta({ id: 'ResultItemMessage' });
export type ResultItemMessage = z.infer<typeof ResultItemMessage>;

const itemShape = {
  code: z.string(),
  status: ResultStatus,
  issues: z.array(ResultItemIssue),
  exceptions: z.array(ResultItemException),
  messages: z.array(ResultItemMessage),
  policies: z.array(z.string()),
};

export const ResultSubItem = z.object(itemShape).meta({ id: 'ResultSubItem' });
export type ResultSubItem = z.infer<typeof ResultSubItem>;

export const ResultItem = z.object({ ...itemShape, subItems: z.array(ResultSubItem) }).meta({ id: 'ResultItem' });
export type ResultItem = z.infer<typeof ResultItem>;

export const PolicySummary = z
  .object({
    policyType: z.enum(['L', 'A', 'N', 'C', 'T', 'M', 'P']),
    title: z.string(),
    version: z.int().optional(),
    documentationRequirements: z.string().optional(),
    indications: z.string().optional(),
    limitations: z.string().optional(),
    utilizationRequirements: z.string().optional(),
    publication: z.string().optional(),
    isInLibrary: z.boolean(),
    release: z.string().optional().describe('(ext) The release of the data the answer rests on (`2026Q1`).'),
  })
  .meta({ id: 'PolicySummary' });
export type PolicySummary = z.infer<typeof PolicySummary>;

export const CodeValidateResult = z
  .object({
    codes: z.record(z.string(), CodeDetail),
    policies: z.record(z.string(), PolicySummary),
    items: z.array(ResultItem),
    messages: z
      .array(ResultItemMessage)
      .describe('(ext) Claim-level notes: the contractor chosen, and every check that could not run for lack of data.'),
  })
  .meta({ id: 'CodeValidateResult' });
export type CodeValidateResult = z.infer<typeof CodeValidateResult>;
