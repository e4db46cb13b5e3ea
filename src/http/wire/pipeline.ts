// The request pipeline: one function from an IncomingMessage to a written reply. Everything format-specific is
// delegated to the modules beside it; this file only orders the steps.
//
//   request ─► split target (path, query) ─► matchRoute ─┬─► metadata page (HTML, OpenAPI, TypeScript DTOs)
//                                                        ├─► 404 NotFound / 405 MethodNotAllowed + Allow
//                                                        ▼
//   chooseFormat: ?callback > ?format > path suffix > Accept > route format
//        ▼
//   hooks.onRequest[] ◄── extension point: authentication, then rate limiting (401/403/429)
//        ▼
//   body? ─► bodyKindFor (415) ─► readBody (413) ─► parseBody (400 SerializationException)
//        ▼
//   merge sources: predefined route: body, then query fills absent fields; custom route: body < path < query
//        ▼
//   bindRequest: case-insensitive names, value conversion, zod (400 with every field error)
//        ▼
//   hooks.preHandler[] ─► operation.handler(request, ctx) ─► response | Outcome   (a throw is a 500)
//        ▼
//   reply: 204 one-way | JSON | JSONP | CSV | XML | raw content (a served file) ─► hooks.onResponse[]
//
// The matched route template and operation go on the server's access-log note (src/http/wire/access-log.ts).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { HttpConfig } from '../../schemas/http-config.js';
import type { AccessNote } from './access-log.js';
import { bindRequest, fieldsFromPath, fieldsFromQuery, fillAbsent, override, type RawFields } from './binding.js';
import { bodyKindFor, hasBody, parseBody, parseContentType, readBody } from './body.js';
import { isContent, type ContentReply } from './content.js';
import { chooseFormat } from './negotiate.js';
import { RequestCall, type CallHook, type OperationContext, type WireCall, type WireHooks } from './operation.js';
import { failure, isOutcome, notFound, type Outcome } from './outcome.js';
import { errorReply, successReply, type Reply } from './reply.js';
import { matchRoute, type BuiltinPage, type RouteTable } from './routes.js';

/** A metadata page as the server renders it. */
export interface PageReply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** What the pipeline needs from the server. */
export interface PipelineOptions {
  readonly config: HttpConfig;
  readonly log: Logger;
  readonly table: RouteTable;
  readonly hooks: WireHooks;
  /** The ports handed to every handler besides its call. */
  readonly services: Pick<OperationContext, 'accounts' | 'resourcesDir' | 'reference'>;
  readonly now: () => Date;
  /** Renders a metadata page. */
  readonly page: (page: BuiltinPage, req: IncomingMessage) => PageReply;
  /** True once shutdown started: replies then close their connection. */
  readonly closing: () => boolean;
}

// Per-request objects are copied with Object.assign, never with a spread plus a member (`{ ...a, b: 1 }`): on
// node 20's V8 every object made that way survives young-generation collections, which made each scavenge copy a
// few MB and cost 3–6 ms under load (measured: 150 bytes promoted per such object, none with Object.assign).
function send(res: ServerResponse, reply: Reply | PageReply, close: boolean): void {
  const headers: Record<string, string | number> = Object.assign({}, reply.headers);
  // Encoded once: its length is the Content-Length (Buffer.byteLength would read the whole text a second time).
  const body = typeof reply.body === 'string' ? Buffer.from(reply.body, 'utf8') : reply.body;
  headers['Content-Length'] = body.length;
  if (close) {
    headers['Connection'] = 'close';
  }
  res.writeHead(reply.status, headers);
  res.end(body);
}

function sendContent(res: ServerResponse, reply: ContentReply, close: boolean): void {
  const headers: Record<string, string | number> = Object.assign({}, reply.headers);
  headers['Content-Type'] = reply.contentType;
  headers['Content-Length'] = reply.body.length;
  headers['Vary'] = 'Accept';
  if (close) {
    headers['Connection'] = 'close';
  }
  res.writeHead(200, headers);
  res.end(reply.body);
}

function sendNoContent(res: ServerResponse, close: boolean): void {
  const headers: Record<string, string | number> = { Vary: 'Accept', 'Content-Length': 0 };
  if (close) {
    headers['Connection'] = 'close';
  }
  res.writeHead(204, headers);
  res.end();
}

/**
 * Runs hooks in order until one answers. Synchronous hooks (authentication, rate limiting) cost no promise: the
 * result is a promise only once a hook returned one.
 */
function runHooks(
  hooks: readonly CallHook[],
  call: WireCall,
  from = 0,
): Outcome | undefined | Promise<Outcome | undefined> {
  for (let i = from; i < hooks.length; i++) {
    const result = (hooks[i] as CallHook)(call);
    if (result instanceof Promise) {
      return result.then((outcome) => outcome ?? runHooks(hooks, call, i + 1));
    }
    if (result !== undefined) {
      return result;
    }
  }
  return undefined;
}

/**
 * Builds the request listener of the HTTP server.
 * @param opts - configuration, logger, routes, hooks and page renderer
 * @returns a listener for `http.createServer`; its `note`, when given, receives the matched route and operation for
 *   the access log
 */
export function createRequestListener(
  opts: PipelineOptions,
): (req: IncomingMessage, res: ServerResponse, note?: AccessNote) => void {
  const { config, log, table, hooks, services } = opts;
  const opLogs = new Map<string, Logger>();
  const opLog = (name: string): Logger => {
    let child = opLogs.get(name);
    if (child === undefined) {
      child = log.child({ operation: name });
      opLogs.set(name, child);
    }
    return child;
  };

  async function handle(req: IncomingMessage, res: ServerResponse, note: AccessNote | undefined): Promise<void> {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    const query = new URLSearchParams(q === -1 ? '' : url.slice(q + 1));
    const verb = (req.method ?? 'GET').toUpperCase();
    const match = matchRoute(table, verb, path);
    if (note !== undefined && 'route' in match) {
      note.route = match.route;
      note.operation = match.kind === 'builtin' ? null : match.operation.name;
    }

    if (match.kind === 'builtin') {
      send(res, opts.page(match.page, req), opts.closing());
      return;
    }
    const routeFormat = match.kind === 'custom' ? 'json' : match.routeFormat;
    const choice = chooseFormat({ query, accept: req.headers.accept, suffix: match.suffix, routeFormat });
    if (match.kind === 'notFound') {
      send(res, errorReply(undefined, choice, notFound(match.message), config.debug), opts.closing());
      return;
    }
    if (match.kind === 'notAllowed') {
      const outcome = failure('MethodNotAllowed', undefined, {
        params: { verb },
        headers: { Allow: match.allow.join(', ') },
      });
      send(res, errorReply(undefined, choice, outcome, config.debug), opts.closing());
      return;
    }

    const op = match.operation;
    const oneWay = op.oneWay || (match.kind === 'predefined' && match.oneWay);
    const call: WireCall = new RequestCall(req, op, verb, path, query, choice.format, oneWay);
    let status = 200;
    const reply = (r: Reply, close = false): void => {
      status = r.status;
      send(res, r, close || opts.closing());
    };
    const fail = (outcome: Outcome, close = false): void => reply(errorReply(op, choice, outcome, config.debug), close);
    try {
      const ran = hooks.onRequest?.length ? runHooks(hooks.onRequest, call) : undefined;
      const early = ran instanceof Promise ? await ran : ran;
      if (early !== undefined) {
        fail(early);
        return;
      }

      // Body: parser chosen by route kind and Content-Type, size-limited.
      let fields: RawFields = new Map();
      if (hasBody(req)) {
        const kind = bodyKindFor(parseContentType(req.headers['content-type']), match.kind, routeFormat);
        if (isOutcome(kind)) {
          req.resume();
          fail(kind, true);
          return;
        }
        const bytes = await readBody(req, config.maxBodyBytes);
        if (isOutcome(bytes)) {
          req.resume();
          fail(bytes, true);
          return;
        }
        const parsed = parseBody(kind, bytes);
        if (isOutcome(parsed)) {
          fail(parsed);
          return;
        }
        fields = parsed;
      }
      const queryFields = fieldsFromQuery(query);
      fields =
        match.kind === 'predefined'
          ? fillAbsent(fields, queryFields)
          : override(override(fields, fieldsFromPath(match.vars)), queryFields);

      const bound = bindRequest(op, fields, log);
      if (!bound.ok) {
        fail(bound);
        return;
      }
      const pre = hooks.preHandler?.length ? runHooks(hooks.preHandler, call) : undefined;
      const checked = pre instanceof Promise ? await pre : pre;
      if (checked !== undefined) {
        fail(checked);
        return;
      }
      const pending = op.handler(bound.value, {
        config,
        log: opLog(op.name),
        call,
        accounts: services.accounts,
        resourcesDir: services.resourcesDir,
        reference: services.reference,
        now: opts.now,
      });
      const result = pending instanceof Promise ? await pending : pending; // most handlers are synchronous
      if (isOutcome(result)) {
        fail(result);
      } else if (call.oneWay) {
        status = 204;
        sendNoContent(res, opts.closing());
      } else if (isContent(result)) {
        sendContent(res, result, opts.closing());
      } else {
        reply(successReply(op, choice, result));
      }
    } catch (err) {
      if (req.destroyed && (err as NodeJS.ErrnoException).code === 'ECONNRESET') {
        // The client went away before its body arrived: nobody to answer and nothing wrong here (the access log
        // line says `aborted`). An error level line per dropped connection would drown real failures.
        log.debug({ operation: op.name }, 'client closed the connection before its request was read');
        return;
      }
      log.error({ err, operation: op.name }, 'operation failed');
      if (res.headersSent) {
        res.destroy();
        return;
      }
      fail(failure('InternalError', undefined, { cause: err }));
    } finally {
      for (const hook of hooks.onResponse ?? []) {
        try {
          hook(call, status);
        } catch (err) {
          log.error({ err }, 'onResponse hook failed');
        }
      }
    }
  }

  return (req, res, note) => {
    handle(req, res, note).catch((err: unknown) => {
      log.error({ err }, 'request failed');
      if (!res.headersSent) {
        send(
          res,
          errorReply(undefined, { format: 'json' }, failure('InternalError', undefined, { cause: err }), config.debug),
          true,
        );
      } else {
        res.destroy();
      }
    });
  };
}
