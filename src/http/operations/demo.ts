// Demo (operations.md): a small fixed sample reply with no licensed content. Public: needs no credentials.
import { z } from 'zod';
import { defineOperation } from '../wire/operation.js';
import { responseOf } from '../wire/response-status.js';

export const Demo = z.object({}).meta({ id: 'Demo' });
export type Demo = z.infer<typeof Demo>;

export const DemoResponse = responseOf('DemoResponse', {
  response: z.unknown().describe('A free-form sample value.'),
});
export type DemoResponse = z.input<typeof DemoResponse>;

/** The fixed sample: code-set names and one public-domain ICD-10-CM code with its CDC description. */
const sample = {
  service: 'claim-scrubber',
  note: 'A fixed sample reply; it carries no licensed content.',
  codeSets: ['ICD-10 CM', 'ICD-10 PCS', 'ICD-9 CM', 'HCPCS', 'CPT'],
  example: {
    code: 'E11.9',
    codeSet: 'ICD-10 CM',
    description: 'Type 2 diabetes mellitus without complications',
    billable: true,
  },
} as const;

/** The Demo operation. */
export const demo = defineOperation({
  name: 'Demo',
  summary: 'Returns a small fixed sample with no licensed content.',
  request: Demo,
  response: DemoResponse,
  public: true,
  handler: () => ({ response: sample }),
});
