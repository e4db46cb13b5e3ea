// ProcedureCodeItemData (operations.md "Procedure code item data"): HCPCS (and, with a descriptor file, CPT) records
// with HCPCS-file, OPPS, DMEPOS, MUE and add-on data, filtered by codeId, codeList, codeRange and keyword (ANDed),
// paged by startRow (1-based) and limit (default 50, max 200). `response.totalCount` counts before paging;
// `responseXml` is written only when the reply is XML. Custom routes `/medRef/coder/cpt` (POST) and
// `/medRef/coder/cpt/{keyword}` (GET, POST); CSV rows are `response.records[]`.
import { z } from 'zod';
import { procedureItems } from '../../engines/procedures/index.js';
import { PROCEDURE_ITEMS_DEFAULT_LIMIT, PROCEDURE_ITEMS_MAX_LIMIT, ProcedureItem } from '../../schemas/procedures.js';
import { answerDate, referenceOf } from '../reference.js';
import { dateTime, int } from '../wire/fields.js';
import { defineOperation } from '../wire/operation.js';
import { isOutcome } from '../wire/outcome.js';
import { responseOf } from '../wire/response-status.js';

export const CodeRange = z
  .object({
    codeStart: z.string().min(1).describe('First code of the range, inclusive.'),
    codeEnd: z.string().optional().describe('Last code, inclusive; omitted: codeStart alone.'),
  })
  .meta({ id: 'CodeRange' });

export const ProcedureCodeItemData = z
  .object({
    codeId: int({ min: 0 }).optional().describe('A codeId (see CodeDetail): matches the one code it stands for.'),
    codeList: z.array(z.string()).optional().describe('Codes, any case.'),
    codeRange: CodeRange.optional(),
    includeDeletedCodes: z.boolean().optional().describe('Also return codes terminated before targetDate; default true.'),
    keyword: z.string().optional().describe('Words that must all occur in the short or long description.'),
    limit: int({ min: 1, max: PROCEDURE_ITEMS_MAX_LIMIT })
      .optional()
      .describe(`Records per page; default ${String(PROCEDURE_ITEMS_DEFAULT_LIMIT)}.`),
    startRow: int({ min: 1 }).optional().describe('1-based row of the first record; default 1.'),
    targetDate: dateTime().optional().describe('Records as of this date; default today.'),
  })
  .meta({ id: 'ProcedureCodeItemData' });
export type ProcedureCodeItemData = z.infer<typeof ProcedureCodeItemData>;

/** One record, named as the wire names it (wire.md §11). */
export const ProcedureCodeItem = ProcedureItem.meta({ id: 'ProcedureCodeItem' });

export const ProcedureCodeItemPage = z
  .object({
    records: z.array(ProcedureCodeItem),
    totalCount: int().describe('Records matching the filters, before paging.'),
  })
  .meta({ id: 'ProcedureCodeItemPage' });

export const ProcedureCodeItemDataResponse = responseOf('ProcedureCodeItemDataResponse', {
  request: ProcedureCodeItemData,
  response: ProcedureCodeItemPage,
  responseXml: z.string().optional().describe('The page as XML; present only when the reply is XML.'),
});
export type ProcedureCodeItemDataResponse = z.input<typeof ProcedureCodeItemDataResponse>;

const xmlText = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The page as a small XML document for `responseXml`: one `<record>` per item, scalar fields only. */
function pageXml(page: z.input<typeof ProcedureCodeItemPage>): string {
  const records = page.records.map((r) => {
    const fields = Object.entries(r)
      .filter(([, v]) => v !== undefined && typeof v !== 'object')
      .map(([k, v]) => `<${k}>${xmlText(String(v))}</${k}>`)
      .join('');
    return `<record>${fields}</record>`;
  });
  return `<records totalCount="${String(page.totalCount)}">${records.join('')}</records>`;
}

/** The ProcedureCodeItemData operation. */
export const procedureCodeItemData = defineOperation({
  name: 'ProcedureCodeItemData',
  summary: 'Lists HCPCS (and CPT) procedure code records with payment and edit data, filtered and paged.',
  request: ProcedureCodeItemData,
  response: ProcedureCodeItemDataResponse,
  routes: [
    { path: '/medRef/coder/cpt', verbs: ['POST'] },
    { path: '/medRef/coder/cpt/{keyword}', verbs: ['GET', 'POST'] },
  ],
  csvListPath: ['response', 'records'],
  handler: (request, ctx) => {
    const ref = referenceOf(ctx);
    if (isOutcome(ref)) {
      return ref;
    }
    const page = procedureItems(ref, {
      ...(request.codeId === undefined ? {} : { codeId: request.codeId }),
      ...(request.codeList === undefined ? {} : { codeList: request.codeList }),
      ...(request.codeRange === undefined ? {} : { codeRange: request.codeRange }),
      ...(request.keyword === undefined ? {} : { keyword: request.keyword }),
      includeDeletedCodes: request.includeDeletedCodes ?? true,
      targetDate: answerDate(request.targetDate, ctx.now()),
      startRow: request.startRow ?? 1,
      limit: request.limit ?? PROCEDURE_ITEMS_DEFAULT_LIMIT,
    });
    return ctx.call.format === 'xml'
      ? { request, response: page, responseXml: pageXml(page) }
      : { request, response: page };
  },
});
