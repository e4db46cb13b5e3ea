// FullUsageReport (spec: empty request and response; ext: the rows): the usage counts of the caller's entity, one
// row per user, operation and UTC day, oldest day first. Pending in-memory counts are included. In CSV the rows are
// the records (list mode). Needs a caller even when authentication is off.
import { z } from 'zod';
import { principalOf } from '../auth.js';
import { date, int } from '../wire/fields.js';
import { defineOperation } from '../wire/operation.js';
import { isOutcome } from '../wire/outcome.js';
import { responseOf } from '../wire/response-status.js';

export const UsageRow = z
  .object({
    entityId: int(),
    userName: z.string(),
    operation: z.string(),
    day: date().describe('The UTC day of the calls.'),
    count: int(),
  })
  .meta({ id: 'UsageRow' });
export type UsageRow = z.infer<typeof UsageRow>;

export const FullUsageReport = z.object({}).meta({ id: 'FullUsageReport' });
export type FullUsageReport = z.infer<typeof FullUsageReport>;

export const FullUsageReportResponse = responseOf('FullUsageReportResponse', {
  result: z.array(UsageRow),
});
export type FullUsageReportResponse = z.input<typeof FullUsageReportResponse>;

/** The FullUsageReport operation. */
export const fullUsageReport = defineOperation({
  name: 'FullUsageReport',
  summary: 'Reports the calls of the caller’s entity per user, operation and UTC day.',
  request: FullUsageReport,
  response: FullUsageReportResponse,
  csvListPath: ['result'],
  handler: (_request, { accounts, call }) => {
    const caller = principalOf(call);
    return isOutcome(caller) ? caller : { result: accounts.fullUsageReport(caller.entityId) };
  },
});
