// What an operation file declares (wire.md §1) and what it receives: `defineOperation()` checks a declaration once
// at start-up and erases its types for the registry. Also the request-pipeline extension points (`WireHooks`) that
// authentication, rate limiting and usage counting plug into.
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { Accounts } from '../../accounts/index.js';
import type { Reference } from '../../reference/index.js';
import type { Principal } from '../../schemas/accounts.js';
import type { HttpConfig } from '../../schemas/http-config.js';
import type { ContentReply } from './content.js';
import type { Outcome } from './outcome.js';
import { objectShapeOf, type ObjectShape, type Shape } from './shape.js';

/** A reply format of the wire protocol (JSONP is JSON with a callback). */
export type ReplyFormat = 'json' | 'csv' | 'xml';

/** A custom route (wire.md §3): a template with literals, `{var}` and a final `{Name*}`, and its verbs. */
export interface RouteSpec {
  readonly path: string;
  /** Upper-case verbs, or `'any'`. */
  readonly verbs: readonly string[] | 'any';
}

/** Who is calling, as established by the authentication hook (src/http/auth.ts). */
export interface Caller {
  /** The key requests are throttled by: the API key id, whether the call was signed or carried a session token. */
  readonly key: string;
  /** The verified caller: API key id, entity and user. */
  readonly principal: Principal;
  /** How the caller proved who it is. */
  readonly via: 'signature' | 'session';
}

/** One call as the hooks and the handler see it. */
export interface WireCall {
  readonly operation: Operation;
  /** Upper-case HTTP verb. */
  readonly verb: string;
  /** The request path as received, without the query string. */
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly query: URLSearchParams;
  readonly remoteAddress: string;
  /** The negotiated reply format; `jsonp` when a callback was given. */
  readonly format: ReplyFormat | 'jsonp';
  /** Whether the call came through a one-way route (or the operation is one-way). */
  readonly oneWay: boolean;
  /** Set by an authentication hook; read by rate-limit hooks, usage counting and operations. */
  caller?: Caller;
}

/**
 * The WireCall of a request. A class rather than an object literal with a getter: on node 20's V8 each such literal
 * survives young-generation collections, which under load made every scavenge copy megabytes (the same trap as
 * `{ ...a, b }`, see send() in pipeline.ts); a prototype getter costs nothing per call.
 */
export class RequestCall implements WireCall {
  caller?: Caller;

  /**
   * @param req - the request (its socket gives remoteAddress, a getpeername() call made only when a hook asks)
   * @param operation - the operation called
   * @param verb - upper-case HTTP verb
   * @param path - the path as received, without the query string
   * @param query - the query string parameters
   * @param format - the negotiated reply format
   * @param oneWay - whether the call came through a one-way route (or the operation is one-way)
   */
  constructor(
    private readonly req: IncomingMessage,
    readonly operation: Operation,
    readonly verb: string,
    readonly path: string,
    readonly query: URLSearchParams,
    readonly format: ReplyFormat | 'jsonp',
    readonly oneWay: boolean,
  ) {}

  get headers(): IncomingHttpHeaders {
    return this.req.headers;
  }

  get remoteAddress(): string {
    return this.req.socket.remoteAddress ?? '';
  }
}

/** What a handler receives besides its request. */
export interface OperationContext {
  readonly config: HttpConfig;
  /** A child logger bound to the operation. */
  readonly log: Logger;
  readonly call: WireCall;
  /** The application database (entities, keys, sessions, favorites, usage, dashboard). */
  readonly accounts: Accounts;
  /** The folder ResourceRequest serves files from (`Config.resourcesDir`). */
  readonly resourcesDir: string;
  /**
   * The reference database (read-only), or undefined when none was opened: engine operations then answer 503
   * `ServiceUnavailable` (see `referenceOf` in src/http/reference.ts).
   */
  readonly reference: Reference | undefined;
  /** The server clock (injectable for tests). */
  now(): Date;
}

/**
 * What a handler may return: its response (without `responseStatus`, which the wire layer fills), an Outcome, or raw
 * content sent as it is (a served file).
 */
export type HandlerResult<Res> = Res | Outcome | ContentReply | Promise<Res | Outcome | ContentReply>;

/** An operation declaration as written in `src/http/operations/<op>.ts`. */
export interface OperationSpec<Req extends z.ZodObject, Res extends z.ZodObject> {
  /** The operation name used in predefined routes, XML roots and DTO classes; also the request schema id. */
  readonly name: string;
  /** The request DTO; its schema id must equal `name`. */
  readonly request: Req;
  /** The response DTO, declared with `responseOf('<Op>Response', …)`. */
  readonly response: Res;
  /** Custom routes besides the predefined ones. @default [] */
  readonly routes?: readonly RouteSpec[];
  /** Replies 204 with no body on success, on every route. @default false */
  readonly oneWay?: boolean;
  /** The response member whose items become CSV rows (wire.md §10), e.g. `['result']`. @default single-row mode */
  readonly csvListPath?: readonly string[];
  /** Callable without credentials (Hello, Demo, …). @default false */
  readonly public?: boolean;
  /** One sentence for /metadata and /openapi. */
  readonly summary?: string;
  readonly handler: (request: z.output<Req>, ctx: OperationContext) => HandlerResult<z.input<Res>>;
}

/** A checked operation as the registry holds it. */
export interface Operation {
  readonly name: string;
  readonly request: z.ZodObject;
  readonly response: z.ZodObject;
  readonly requestShape: ObjectShape;
  readonly responseShape: ObjectShape;
  readonly routes: readonly RouteSpec[];
  readonly oneWay: boolean;
  readonly csvListPath: readonly string[] | undefined;
  readonly public: boolean;
  readonly summary: string | undefined;
  readonly handler: (request: unknown, ctx: OperationContext) => HandlerResult<Readonly<Record<string, unknown>>>;
}

/** Answers a call early when it returns an Outcome (401, 403, 429); returns undefined to go on. */
export type CallHook = (call: WireCall) => Outcome | undefined | Promise<Outcome | undefined>;

/** Runs after a reply was written: usage counting, metrics. Must not throw. */
export type ResponseHook = (call: WireCall, status: number) => void;

/**
 * Extension points of the request pipeline, run in array order:
 * - `onRequest`: after routing and format negotiation, before the body is read. Authentication goes first, then
 *   rate limiting, so rejected callers never cost a body parse. A hook sets `call.caller`.
 * - `preHandler`: after binding and validation, just before the handler (checks that need the bound request, such
 *   as entity ownership).
 * - `onResponse`: after the reply was written, with its status.
 * - `onClose`: awaited on shutdown once in-flight requests have finished (flush usage counts).
 */
export interface WireHooks {
  readonly onRequest?: readonly CallHook[];
  readonly preHandler?: readonly CallHook[];
  readonly onResponse?: readonly ResponseHook[];
  readonly onClose?: readonly (() => void | Promise<void>)[];
}

function listItemsWithoutId(shape: Shape, path: string, out: string[]): void {
  if (shape.kind === 'array') {
    if (shape.item.kind === 'object' && shape.item.id === undefined) {
      out.push(path);
    }
    listItemsWithoutId(shape.item, `${path}[]`, out);
  } else if (shape.kind === 'record') {
    if (shape.value.kind === 'object' && shape.value.id === undefined) {
      out.push(path);
    }
    listItemsWithoutId(shape.value, `${path}{}`, out);
  } else if (shape.kind === 'object') {
    for (const f of shape.fields) {
      listItemsWithoutId(f.shape, path === '' ? f.name : `${path}.${f.name}`, out);
    }
  }
}

/**
 * Checks an operation declaration and erases its types for the registry.
 * @param spec - the declaration
 * @returns the registered form
 * @throws TypeError naming the operation when ids, `responseStatus` or the CSV list path are wrong
 */
export function defineOperation<Req extends z.ZodObject, Res extends z.ZodObject>(
  spec: OperationSpec<Req, Res>,
): Operation {
  const { name } = spec;
  if (!/^[A-Za-z][A-Za-z0-9]*$/.test(name)) {
    throw new TypeError(`Expected an operation name of letters and digits, got "${name}"`);
  }
  const requestShape = objectShapeOf(spec.request);
  const responseShape = objectShapeOf(spec.response);
  if (requestShape.id !== name) {
    throw new TypeError(`Operation ${name}: the request schema id must be "${name}", got "${String(requestShape.id)}"`);
  }
  if (responseShape.id !== `${name}Response`) {
    throw new TypeError(
      `Operation ${name}: the response schema id must be "${name}Response", got "${String(responseShape.id)}"`,
    );
  }
  if (responseShape.fields.at(-1)?.name !== 'responseStatus') {
    throw new TypeError(`Operation ${name}: declare the response with responseOf() so responseStatus comes last`);
  }
  const missing: string[] = [];
  listItemsWithoutId(requestShape, '', missing);
  listItemsWithoutId(responseShape, '', missing);
  if (missing.length > 0) {
    throw new TypeError(`Operation ${name}: list items need a schema id (.meta({ id })): ${missing.join(', ')}`);
  }
  if (spec.csvListPath !== undefined) {
    let s: Shape | undefined = responseShape;
    for (const key of spec.csvListPath) {
      s = s?.kind === 'object' ? s.byLower.get(key.toLowerCase())?.shape : undefined;
    }
    if (s?.kind !== 'array' || (s.item.kind !== 'object' && s.item.kind !== 'record')) {
      throw new TypeError(`Operation ${name}: csvListPath ${spec.csvListPath.join('.')} is not a list of objects`);
    }
  }
  return {
    name,
    request: spec.request,
    response: spec.response,
    requestShape,
    responseShape,
    routes: spec.routes ?? [],
    oneWay: spec.oneWay ?? false,
    csvListPath: spec.csvListPath,
    public: spec.public ?? false,
    summary: spec.summary,
    handler: spec.handler as Operation['handler'],
  };
}
