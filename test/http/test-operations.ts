// Test-only operations that exercise what Hello and Demo cannot: every field kind (int, short, bool, date,
// date-time, arrays, nested objects, dictionaries, free-form), custom routes with {var} and {Name*}, CSV list mode,
// one-way calls, WCF dates, a failing handler and a slow one. Their ids all start with "Probe" so they never clash
// with the product's schemas.
import { z } from 'zod';
import { date, dateTime, int, short, wcfDate } from '../../src/http/wire/fields.js';
import { defineOperation, type Operation } from '../../src/http/wire/operation.js';
import { failure } from '../../src/http/wire/outcome.js';
import { responseOf } from '../../src/http/wire/response-status.js';
import { allOperations } from '../../src/http/operations/index.js';

export const ProbePatient = z
  .object({
    age: int({ min: 0, max: 124 }).optional(),
    gender: z.enum(['m', 'f']).optional(),
  })
  .meta({ id: 'ProbePatient' });

/** A request with every field kind; echoed back as `request`. */
export const Probe = z
  .object({
    search: z.string().optional(),
    codeSet: z.string().optional(),
    startRow: int({ min: 1 }).optional(),
    endRow: int({ min: 1, max: 200 }).default(10),
    logicLimit: short({ min: 0, max: 2 }).optional(),
    includeIndex: z.boolean().optional(),
    effectiveDate: date().optional(),
    timeStamp: dateTime().optional(),
    cptCodes: z.array(z.string()).max(5).optional(),
    conceptIdList: z.array(int()).optional(),
    patient: ProbePatient.optional(),
    cptIcdMapping: z.record(z.string(), z.array(z.string())).optional(),
    extra: z.unknown().optional(),
  })
  .superRefine((v, ctx) => {
    // a conditional rule in the style of CodeValidate's: reported as NotEmpty with its own message
    if (v.codeSet === 'LCD' && v.search === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['search'],
        params: { errorCode: 'NotEmpty' },
        message: "'search' must not be empty when codeSet is LCD.",
      });
    }
  })
  .meta({ id: 'Probe' });

export const ProbeResponse = responseOf('ProbeResponse', { request: Probe });

export const probe = defineOperation({
  name: 'Probe',
  request: Probe,
  response: ProbeResponse,
  routes: [
    { path: '/lookupLtd', verbs: ['GET', 'POST'] },
    { path: '/lookupLtd/{search}', verbs: ['GET', 'POST'] },
  ],
  handler: (request) => ({ request }),
});

/** A GemsMap look-alike: required CSV codes, a list result for CSV list mode. */
export const ProbeMapItem = z
  .object({
    sourceCode: z.string(),
    sourceCodeDesc: z.string().optional(),
    code: z.string(),
    codeDesc: z.string().nullable().optional(),
    isApproximate: int(),
    isCombination: int(),
    isNotMappable: int(),
    scenario: int(),
    choiceList: int(),
    flags: z.array(z.string()).optional(),
  })
  .meta({ id: 'ProbeMapItem' });

export const ProbeMap = z
  .object({
    sourceCodeCsv: z.string().min(1),
    sourceCodeType: z.enum(['ICD-10 CM', 'ICD-10 PCS']).default('ICD-10 CM'),
  })
  .meta({ id: 'ProbeMap' });

export const ProbeMapResponse = responseOf('ProbeMapResponse', { request: ProbeMap, result: z.array(ProbeMapItem) });

export const probeMap = defineOperation({
  name: 'ProbeMap',
  request: ProbeMap,
  response: ProbeMapResponse,
  routes: [{ path: '/medRef/ProbeMap', verbs: ['GET', 'POST'] }],
  csvListPath: ['result'],
  handler: (request) => ({
    request,
    result: request.sourceCodeCsv
      .split(',')
      .filter((code) => code.trim() !== '')
      .flatMap((code) => [
        {
          sourceCode: code,
          sourceCodeDesc: 'Salmonella sepsis, "typhoid", and others',
          code: '003.1',
          codeDesc: null,
          isApproximate: 0,
          isCombination: 1,
          isNotMappable: 0,
          scenario: 1,
          choiceList: 1,
          flags: ['a', 'b'],
        },
        {
          sourceCode: code,
          code: '038.9',
          codeDesc: 'Unspecified septicemia',
          isApproximate: 0,
          isCombination: 1,
          isNotMappable: 0,
          scenario: 1,
          choiceList: 2,
          flags: [],
        },
      ]),
  }),
});

/** A ResourceRequest look-alike on `/resource/{Name*}`. */
export const ProbeResource = z
  .object({ apiKey: z.string().optional(), name: z.string().optional() })
  .meta({ id: 'ProbeResource' });
export const ProbeResourceResponse = responseOf('ProbeResourceResponse', { name: z.string().optional() });
export const probeResource = defineOperation({
  name: 'ProbeResource',
  request: ProbeResource,
  response: ProbeResourceResponse,
  routes: [{ path: '/resource/{Name*}', verbs: 'any' }],
  handler: (request) =>
    request.name === 'missing' ? failure('NotFound', 'No such resource.') : { name: request.name },
});

/** Records one-way calls. */
export const oneWayCalls: unknown[] = [];
export const ProbeOneWay = z.object({ note: z.string().optional() }).meta({ id: 'ProbeOneWay' });
export const ProbeOneWayResponse = responseOf('ProbeOneWayResponse', {});
export const probeOneWay = defineOperation({
  name: 'ProbeOneWay',
  request: ProbeOneWay,
  response: ProbeOneWayResponse,
  oneWay: true,
  handler: (request) => {
    oneWayCalls.push(request);
    return {};
  },
});

/** Throws: the 500 path. */
export const ProbeFail = z.object({}).meta({ id: 'ProbeFail' });
export const ProbeFailResponse = responseOf('ProbeFailResponse', {});
export const probeFail = defineOperation({
  name: 'ProbeFail',
  request: ProbeFail,
  response: ProbeFailResponse,
  handler: () => {
    throw new Error('secret detail of the failure');
  },
});

/** Waits until released: in-flight requests during shutdown. */
export const slow = { started: 0, release: (): void => undefined };
export const ProbeSlow = z.object({}).meta({ id: 'ProbeSlow' });
export const ProbeSlowResponse = responseOf('ProbeSlowResponse', { done: z.boolean() });
export const probeSlow = defineOperation({
  name: 'ProbeSlow',
  request: ProbeSlow,
  response: ProbeSlowResponse,
  handler: () =>
    new Promise<{ done: boolean }>((resolve) => {
      slow.started++;
      slow.release = () => resolve({ done: true });
    }),
});

/** Dashboard-like WCF dates and string→string maps (DocumentV2-like CSV list mode). */
export const ProbeWebinar = z
  .object({ entryName: z.string(), scheduleOn: wcfDate(), bolded: z.boolean() })
  .meta({ id: 'ProbeWebinar' });
export const ProbeBoard = z.object({}).meta({ id: 'ProbeBoard' });
export const ProbeBoardResponse = responseOf('ProbeBoardResponse', { webinars: z.array(ProbeWebinar) });
export const probeBoard = defineOperation({
  name: 'ProbeBoard',
  request: ProbeBoard,
  response: ProbeBoardResponse,
  handler: () => ({ webinars: [{ entryName: 'Coding 101', scheduleOn: '2023-11-14T22:13:20.000Z', bolded: false }] }),
});

export const ProbeDoc = z.object({ text: z.string().optional() }).meta({ id: 'ProbeDoc' });
export const ProbeDocResponse = responseOf('ProbeDocResponse', { result: z.array(z.record(z.string(), z.string())) });
export const probeDoc = defineOperation({
  name: 'ProbeDoc',
  request: ProbeDoc,
  response: ProbeDocResponse,
  csvListPath: ['result'],
  handler: () => ({
    result: [
      { text: 'chest pain', begin: '0', code: 'R07.9' },
      { text: 'no fever', negated: 'true', code: 'R50.9' },
    ],
  }),
});

/**
 * The product's operations plus the probes. ResourceRequest and LookupSearch are left out: ProbeResource holds
 * `/resource/{Name*}` and Probe `/lookupLtd` here, so the routing tests see the probes' echoes.
 */
export const testOperations: readonly Operation[] = [
  ...allOperations.filter((op) => op.name !== 'ResourceRequest' && op.name !== 'LookupSearch'),
  probe,
  probeMap,
  probeResource,
  probeOneWay,
  probeFail,
  probeSlow,
  probeBoard,
  probeDoc,
];
