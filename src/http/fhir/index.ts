// The FHIR terminology facade (issue 4 §5, ext): plain routes beside the ServiceStack-style operations, answered
// before the operation router sees the request.
//
//   GET|POST /fhir/CodeSystem/$lookup          system + code (+ date)   → Parameters name, version, display, property
//   GET|POST /fhir/CodeSystem/$validate-code   url + code (+ display)   → Parameters result, message, display
//   GET|POST /fhir/ConceptMap/$translate       system + code (+ target) → Parameters result, match[]
//
// Inputs: query parameters on GET, an R4 Parameters body (application/fhir+json or application/json) on POST.
// Replies: `application/fhir+json`; failures are an OperationOutcome with 400 (bad input), 401/429 (credentials,
// throttling), 404 (unknown code on $lookup, unknown path), 405, 413, 503 (no reference database): the same failure
// values (src/schemas/result.ts) as the other operations, so statusFor() gives the status here too.
// Credentials: like every engine operation, the calls run the server's onRequest hooks (authentication, then rate
// limiting) as the pseudo-operations FhirLookup, FhirValidateCode and FhirTranslate, and usage is counted under
// those names; with authentication off they are open.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { z } from 'zod';
import type { Reference } from '../../reference/index.js';
import { NO_REFERENCE } from '../reference.js';
import type { AccessNote } from '../wire/access-log.js';
import { readBody } from '../wire/body.js';
import {
  defineOperation,
  RequestCall,
  type CallHook,
  type Operation,
  type WireCall,
  type WireHooks,
} from '../wire/operation.js';
import type { PlainRoute } from '../wire/metadata.js';
import { failure, isOutcome, statusFor, type Outcome } from '../wire/outcome.js';
import { lookup, translate, validateCode, type FhirContext } from './operations.js';
import { SUPPORTED_SYSTEMS } from './systems.js';
import {
  inputsFromBody,
  inputsFromQuery,
  operationOutcome,
  type FhirFailure,
  type FhirInputs,
  type Parameters,
} from './parameters.js';

/** The path prefix the facade owns. */
export const FHIR_PREFIX = '/fhir/';

const FHIR_JSON = 'application/fhir+json; charset=utf-8';

type Handler = (inputs: FhirInputs, ctx: FhirContext) => Parameters | FhirFailure;

/** A registry entry for the hooks: never routed, never listed in /metadata. */
function pseudo(name: string): Operation {
  return defineOperation({
    name,
    request: z.object({}).meta({ id: name }),
    response: z.object({ responseStatus: z.object({}).optional() }).meta({ id: `${name}Response` }),
    handler: () => ({}),
  });
}

const SYSTEMS = SUPPORTED_SYSTEMS;
const DATE = { name: 'date', required: false, description: 'FHIR date or dateTime the answer is for (default today).' };
const VERSION = {
  name: 'version',
  required: false,
  description: 'A loaded release of the code system (FY2024): answered within it (a date outside it, or a release not loaded, is a 400).',
};
const CODING = {
  name: 'coding',
  required: false,
  description: 'system|code in place of the system and code parameters (a Coding in a POST body; codeableConcept too).',
};
const common = {
  verbs: ['GET', 'POST'] as const,
  body: { contentType: 'application/fhir+json', description: 'an R4 Parameters resource with the same parameters.' },
  failure: {
    statuses: [400, 401, 404, 405, 413, 429, 503],
    description: 'an OperationOutcome (400 bad input, 401/429 credentials or throttling, 404 unknown code or path, 405, 413, 503 no reference database).',
  },
};

/** The facade's routes, as /metadata and /openapi list them. */
export const FHIR_ROUTES: readonly PlainRoute[] = [
  {
    ...common,
    path: '/fhir/CodeSystem/$lookup',
    name: 'FhirLookup',
    summary: 'Name, version, display and properties (valid, invalid-reason, short-description, message) of a code on a date.',
    parameters: [
      { name: 'system', required: true, description: `Code system URI: ${SYSTEMS}.` },
      { name: 'code', required: true, description: 'The code, dotted or not.' },
      VERSION,
      CODING,
      DATE,
    ],
    success: { contentType: 'application/fhir+json', description: 'a Parameters resource: name, version, display, property[].' },
  },
  {
    ...common,
    path: '/fhir/CodeSystem/$validate-code',
    name: 'FhirValidateCode',
    summary: 'Whether a code exists and is billable on a date; a display given must match its long or short title.',
    parameters: [
      { name: 'url', required: true, description: `Code system URI: ${SYSTEMS}.` },
      { name: 'code', required: true, description: 'The code, dotted or not.' },
      { name: 'display', required: false, description: 'A title to check against the code, any case.' },
      VERSION,
      CODING,
      DATE,
    ],
    success: { contentType: 'application/fhir+json', description: 'a Parameters resource: result, message, display.' },
  },
  {
    ...common,
    path: '/fhir/ConceptMap/$translate',
    name: 'FhirTranslate',
    summary: 'The GEM rows of a code as matches: ICD-10-CM/PCS to ICD-9-CM (backward GEMs), ICD-9-CM to ICD-10 (forward).',
    parameters: [
      { name: 'system', required: true, description: 'Code system URI of the code: ICD-10-CM, ICD-10-PCS or ICD-9-CM.' },
      { name: 'code', required: true, description: 'The code, dotted or not.' },
      { name: 'targetsystem', required: false, description: 'The other side of the GEM, when given.' },
      { name: 'target', required: false, description: "A value set: a code system's whole set (its URI, `?fhir_vs` or not), read as targetsystem; any other is a 400." },
      CODING,
      DATE,
    ],
    success: { contentType: 'application/fhir+json', description: 'a Parameters resource: result, match[] (equivalence, concept).' },
  },
];

const HANDLERS: Readonly<Record<string, Handler>> = { FhirLookup: lookup, FhirValidateCode: validateCode, FhirTranslate: translate };

const ROUTES = new Map<string, { op: Operation; handler: Handler }>(
  FHIR_ROUTES.map((r) => [r.path.toLowerCase(), { op: pseudo(r.name), handler: HANDLERS[r.name] as Handler }]),
);

/** What the facade is built from. */
export interface FhirOptions {
  readonly reference: Reference | undefined;
  readonly hooks: WireHooks;
  readonly log: Logger;
  readonly maxBodyBytes: number;
  readonly now: () => Date;
}

async function runHooks(hooks: readonly CallHook[], call: WireCall): Promise<Outcome | undefined> {
  for (const hook of hooks) {
    const r = await hook(call);
    if (r !== undefined) {
      return r;
    }
  }
  return undefined;
}

/**
 * Builds the facade's request handler.
 * @param opts - reference port, the server's hooks, logger, body limit, clock
 * @returns a handler for requests whose path starts with {@link FHIR_PREFIX}; its `note`, when given, receives the
 *   matched route and pseudo-operation for the access log
 */
export function createFhirHandler(
  opts: FhirOptions,
): (req: IncomingMessage, res: ServerResponse, note?: AccessNote) => Promise<void> {
  const { hooks, log } = opts;
  const send = (res: ServerResponse, status: number, body: unknown, headers: Readonly<Record<string, string>> = {}): void => {
    const text = JSON.stringify(body);
    // Object.assign, not `{ ...headers, … }`: see send() in src/http/wire/pipeline.ts.
    const all: Record<string, string | number> = Object.assign({}, headers);
    all['Content-Type'] = FHIR_JSON;
    all['Content-Length'] = Buffer.byteLength(text);
    res.writeHead(status, all);
    res.end(text);
  };
  const fail = (res: ServerResponse, f: FhirFailure): number => {
    const status = statusFor(f);
    send(res, status, operationOutcome(f), f.headers);
    return status;
  };

  return async (req, res, note) => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = (q === -1 ? url : url.slice(0, q)).replace(/\/+$/, '');
    const query = new URLSearchParams(q === -1 ? '' : url.slice(q + 1));
    const verb = (req.method ?? 'GET').toUpperCase();
    let decoded = path;
    try {
      decoded = decodeURIComponent(path);
    } catch {
      // a malformed escape: matched as written, so it is a 404
    }
    const route = ROUTES.get(decoded.toLowerCase());
    if (route !== undefined && note !== undefined) {
      note.route = decoded.toLowerCase();
      note.operation = route.op.name;
    }
    if (route === undefined) {
      req.resume();
      fail(res, failure('NotFound', `No FHIR operation at ${path}.`));
      return;
    }
    if (verb !== 'GET' && verb !== 'POST') {
      req.resume();
      fail(res, failure('MethodNotAllowed', `Use GET or POST, not ${verb}.`, { headers: { Allow: 'GET, POST' } }));
      return;
    }
    const call: WireCall = new RequestCall(req, route.op, verb, path, query, 'json', false);
    let status = 200;
    try {
      const early = await runHooks(hooks.onRequest ?? [], call);
      if (early !== undefined) {
        req.resume();
        status = fail(res, early);
        return;
      }
      let inputs: FhirInputs | Outcome = inputsFromQuery(query);
      if (verb === 'POST') {
        const bytes = await readBody(req, opts.maxBodyBytes);
        if (isOutcome(bytes)) {
          req.resume();
          status = fail(res, bytes);
          return;
        }
        inputs = inputsFromBody(bytes.toString('utf8'));
      }
      if (isOutcome(inputs)) {
        status = fail(res, inputs);
        return;
      }
      if (opts.reference === undefined) {
        status = fail(res, failure('ServiceUnavailable', NO_REFERENCE));
        return;
      }
      const answer = route.handler(inputs, { reference: opts.reference, today: opts.now().toISOString().slice(0, 10) });
      if (isOutcome(answer)) {
        status = fail(res, answer);
        return;
      }
      send(res, 200, answer);
    } catch (err) {
      log.error({ err, operation: route.op.name }, 'FHIR operation failed');
      status = 500;
      if (!res.headersSent) {
        fail(res, failure('InternalError'));
      }
    } finally {
      for (const hook of hooks.onResponse ?? []) {
        try {
          hook(call, status);
        } catch (err) {
          log.error({ err }, 'onResponse hook failed');
        }
      }
    }
  };
}
