// Wire shapes of CciMueCheck (ext; issue 11 §3), after the reference service's CCI/MUE API: procedure items with
// modifiers and units on a date for one provider type, answered item by item with validity, the MUE and its
// adjudication indicator, each modifier's standing, and the NCCI issues (PTP, MUE, add-on) that concern the item.
import { z } from 'zod';
import { IssueStatus } from './code-validate.js';
import { InvalidReason } from './codes.js';

export const CciMueItem = z
  .object({
    code: z.string().trim().min(1),
    modifiers: z.array(z.string()).max(4).optional(),
    units: z.int32().min(1).optional().describe('Whole service units (default 1).'),
  })
  .meta({ id: 'CciMueItem' });
export type CciMueItem = z.infer<typeof CciMueItem>;

export const CciMueCheck = z
  .object({
    effectiveDate: z.iso.date().describe('Date of service of every item.'),
    providerType: z.enum(['P', 'H', 'DME']).describe('`P` practitioner, `H` outpatient hospital, `DME` supplier.'),
    items: z.array(CciMueItem).min(1).max(50),
  })
  .meta({ id: 'CciMueCheck' });
export type CciMueCheck = z.infer<typeof CciMueCheck>;

export const CciMueModifier = z
  .object({ modCode: z.string(), status: IssueStatus, message: z.string() })
  .meta({ id: 'CciMueModifier' });
export type CciMueModifier = z.infer<typeof CciMueModifier>;

export const CciMueIssue = z
  .object({
    status: z.int().min(1).max(4).describe('1 OK, 2 Warning, 3 Error, 4 resolved by a modifier.'),
    message: z.string(),
    ruleId: z.string(),
    otherCode: z.string().optional().describe('The other code of a PTP pair.'),
  })
  .meta({ id: 'CciMueIssue' });
export type CciMueIssue = z.infer<typeof CciMueIssue>;

export const CciMueResultItem = z
  .object({
    code: z.string(),
    status: IssueStatus,
    isValid: z.boolean(),
    invalidReason: InvalidReason.optional(),
    statusIndicator: z.string().optional().describe('OPPS status indicator on the date.'),
    derived: z
      .boolean()
      .optional()
      .describe('(ext) True when the status indicator comes from the derived OPPS table, not an official CMS file.'),
    mueValue: z.int().optional(),
    mueAdjudicationIndicator: z
      .string()
      .optional()
      .describe('As the MUE table prints it: `2 Date of Service Edit: Policy`.'),
    modifiers: z.array(CciMueModifier),
    issues: z.array(CciMueIssue),
  })
  .meta({ id: 'CciMueResultItem' });
export type CciMueResultItem = z.infer<typeof CciMueResultItem>;
