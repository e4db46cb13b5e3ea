// Shapes of procedure code item data (interface-spec.md "Procedure code item data request and response";
// operations.md "Procedure code item data"): the query the engine takes once the HTTP layer has parsed the request,
// one record per HCPCS (or, with a descriptor file, CPT) code, and the page. Spec fields are strings as the spec has
// them; the others (ext) keep their natural types.
import { z } from 'zod';

/** `limit` bounds (operations.md). */
export const PROCEDURE_ITEMS_DEFAULT_LIMIT = 50;
export const PROCEDURE_ITEMS_MAX_LIMIT = 200;

/** The engine's query: the request's filters, parsed. Filters given AND together. */
export const ProcedureItemQuery = z
  .object({
    codeId: z.int().optional().describe('A codeId (see CodeDetail); matches the one code it decodes to.'),
    codeList: z.array(z.string()).optional().describe('Codes, dotted or not, any case.'),
    codeRange: z
      .object({ codeStart: z.string(), codeEnd: z.string().optional() })
      .optional()
      .describe('Inclusive; without codeEnd, the codeStart code alone.'),
    keyword: z.string().optional().describe('Words that must all occur in the short or long description, any case.'),
    includeDeletedCodes: z.boolean().default(true).describe('Also return codes terminated before targetDate.'),
    targetDate: z.iso.date().describe('The date records are as of.'),
    startRow: z.int().min(1).default(1).describe('1-based row of the first record returned.'),
    limit: z.int().min(1).max(PROCEDURE_ITEMS_MAX_LIMIT).default(PROCEDURE_ITEMS_DEFAULT_LIMIT),
  })
  .meta({ id: 'ProcedureItemQuery' });
export type ProcedureItemQuery = z.output<typeof ProcedureItemQuery>;
export type ProcedureItemQueryInput = z.input<typeof ProcedureItemQuery>;

const yn = z.enum(['Y', 'N', '']);

/** One code's record. */
export const ProcedureItem = z
  .object({
    code: z.string(),
    codeId: z.int().describe("The code's codeId (int32 for CPT and HCPCS)."),
    codeType: z.enum(['HCPCS', 'CPT']).describe('(ext)'),
    shortDescription: z.string(),
    longDescription: z.string().describe('(ext)'),
    addedDate: z.string().describe('HCPCS added date (YYYY-MM-DD); empty when the file gives none.'),
    terminationDate: z.string().describe('(ext) Last day the code is valid; empty while in force.'),
    isDeleted: z.boolean().describe('(ext) Terminated before targetDate.'),
    actionCode: z.string().describe('(ext) HCPCS action code (A add, D discontinue, R reactivate, ...).'),
    actionEffectiveDate: z.string().describe('(ext)'),
    addOnCode: yn.describe('Y when the NCCI add-on code edits in force list the code as an add-on code.'),
    apcCode: z.string().describe('OPPS Addendum B APC on targetDate; empty when none.'),
    adjustedApcPayment: z.string().describe('OPPS Addendum B payment rate on targetDate (dollars); empty when none.'),
    statusIndicator: z.string().describe('(ext) OPPS Addendum B status indicator on targetDate; empty when none.'),
    relativeWeight: z.number().optional().describe('(ext)'),
    nationalCopay: z.number().optional().describe('(ext)'),
    minimumCopay: z.number().optional().describe('(ext)'),
    oppsRelease: z.string().optional().describe('(ext) The Addendum B quarter answering (`2025Q1`).'),
    oppsDerived: z
      .boolean()
      .optional()
      .describe(
        '(ext) True when the OPPS fields (statusIndicator, apcCode, payment, oppsRelease) come from the derived April 2026 OPPS table, not an official CMS file: no official Addendum B covers targetDate. Absent otherwise.',
      ),
    ascApproved: yn.describe(
      "Y when the HCPCS record's ASC payment group is YY; N otherwise; empty without a HCPCS record.",
    ),
    ascMultiProc: yn.describe('Always empty: the ASC addendum with the multiple-procedure indicator is not loaded.'),
    coverage: z.string().describe('(ext) HCPCS coverage code: C, D, I, M or S.'),
    pricingIndicators: z.array(z.string()).describe('(ext)'),
    multiplePricingIndicator: z.string().describe('(ext)'),
    betos: z.string().describe('(ext)'),
    typesOfService: z.array(z.string()).describe('(ext)'),
    anesthesiaBaseUnits: z.number().optional().describe('(ext)'),
    cimReferences: z.array(z.string()).describe('(ext)'),
    mcmReferences: z.array(z.string()).describe('(ext)'),
    statute: z.string().describe('(ext)'),
    labCertifications: z.array(z.string()).describe('(ext)'),
    crossReferences: z.array(z.string()).describe('(ext)'),
    ascGroup: z.string().describe('(ext)'),
    ascEffectiveDate: z.string().describe('(ext)'),
    mogGroup: z.string().describe('(ext) Medicare outpatient group.'),
    mogPolicyIndicator: z.string().describe('(ext)'),
    mogEffectiveDate: z.string().describe('(ext)'),
    processingNote: z.string().describe('(ext) Processing note number.'),
    processingNoteText: z.string().describe('(ext)'),
    notOtherwiseClassified: z.boolean().describe('(ext) On the HCPCS NOC list on targetDate.'),
    dmeposJurisdiction: z
      .string()
      .describe('(ext) D (DME MAC), L (local A/B MAC) or J (joint) from the DMEPOS fee schedule; empty when absent.'),
    muePractitioner: z.number().optional().describe('(ext) MUE units, practitioner services.'),
    muePractitionerMai: z.number().optional().describe('(ext) MUE adjudication indicator 1-3.'),
    mueOutpatientHospital: z.number().optional().describe('(ext)'),
    mueOutpatientHospitalMai: z.number().optional().describe('(ext)'),
    mueDme: z.number().optional().describe('(ext)'),
    mueDmeMai: z.number().optional().describe('(ext)'),
    release: z.string().describe('(ext) The HCPCS (or CPT descriptor) release the record comes from.'),
  })
  .meta({ id: 'ProcedureItem' });
export type ProcedureItem = z.infer<typeof ProcedureItem>;

/** One page of records. */
export const ProcedureItemPage = z
  .object({
    records: z.array(ProcedureItem),
    totalCount: z.int().describe('Records matching the filters, before paging.'),
  })
  .meta({ id: 'ProcedureItemPage' });
export type ProcedureItemPage = z.infer<typeof ProcedureItemPage>;
