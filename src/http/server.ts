// buildServer(config, deps): the HTTP shim as a node:http server that is built but never listening (only
// pipelines/serve.ts listens; tests listen on port 0). It compiles the operations' routes, renders the metadata
// pages, plugs the request pipeline in with the authentication, rate-limit and usage hooks in front of the
// caller's own, writes one access-log line per request, and owns graceful shutdown. The application database is
// opened and closed by the caller.
//
// Why node:http and not fastify: every routing, parsing and reply rule here is ServiceStack's, not fastify's —
// case-insensitive literals, empty segments dropped, format suffixes stripped before matching, 405-vs-404 by verb,
// the route format deciding the body parser whatever Content-Type says, errors in the negotiated format. With
// fastify all of that would sit behind one catch-all route with its content-type parsers and error handler
// overridden, so it would add a dependency and a layer without doing any of the work.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { Logger } from 'pino';
import { createRateLimiter, type Accounts, type RateLimiter } from '../accounts/index.js';
import type { Reference } from '../reference/index.js';
import type { HttpConfig } from '../schemas/http-config.js';
import { authHook, rateLimitHook, usageHook } from './auth.js';
import { createFhirHandler, FHIR_PREFIX, FHIR_ROUTES } from './fhir/index.js';
import { allOperations } from './operations/index.js';
import { trackAccess } from './wire/access-log.js';
import { renderMetadataPage } from './wire/metadata.js';
import { buildOpenApi } from './wire/openapi.js';
import type { Operation, WireHooks } from './wire/operation.js';
import { createRequestListener, type PageReply } from './wire/pipeline.js';
import { buildRouteTable, type BuiltinPage } from './wire/routes.js';
import { renderTypeScriptDtos } from './wire/typescript.js';

/** The configuration the server reads: the `http` section and the resources folder. */
export interface ServerConfig {
  readonly http: HttpConfig;
  /** The folder ResourceRequest serves (`Config.resourcesDir`). */
  readonly resourcesDir: string;
}

/**
 * What the server is built from besides configuration. Later issues add their ports here (the reference query
 * side for engine operations).
 */
export interface ServerDeps {
  /**
   * The root logger (or a child); the server logs as `component: 'http'`, one info line per request (method, route
   * template, operation, status, duration: src/http/wire/access-log.ts).
   */
  readonly log: Logger;
  /** The open application database; the caller closes it (an `onClose` hook is the place). */
  readonly accounts: Accounts;
  /**
   * The reference database, opened read-only by the caller (which closes it). Without it the server still starts:
   * the operations and FHIR routes that read it answer 503 `ServiceUnavailable`.
   */
  readonly reference?: Reference;
  /** Per-API-key token buckets. @default createRateLimiter() (50 requests/s, bursts of 100) */
  readonly rateLimiter?: RateLimiter;
  /** The operations to serve. @default allOperations */
  readonly operations?: readonly Operation[];
  /**
   * More pipeline hooks, run after the built-in ones: authentication and rate limiting come first in `onRequest`,
   * usage counting first in `onResponse`.
   */
  readonly hooks?: WireHooks;
  /** The clock. @default () => new Date() */
  readonly now?: () => Date;
  /** The service version shown by /openapi and /types/typescript. @default '0.1.0' */
  readonly version?: string;
}

/** A built server. */
export interface WireServer {
  /** The node:http server, not listening. */
  readonly server: Server;
  readonly operations: readonly Operation[];
  /**
   * Graceful shutdown: stops accepting, lets in-flight requests finish (their replies close the connection), closes
   * the remaining connections after `graceMs`, then awaits the `onClose` hooks.
   * @param graceMs - the cap on waiting for in-flight requests @default 10000
   */
  shutdown(graceMs?: number): Promise<void>;
}

const TITLE = 'Claim scrubber: operations';

/**
 * Builds the HTTP server without listening. With `http.auth` off it logs one warning here, at build time.
 * @param config - the `http` section and the resources folder
 * @param deps - logger, application database, rate limiter, operations, extra hooks, clock
 * @throws TypeError when two operations share a name or a route template is malformed
 */
export function buildServer(config: ServerConfig, deps: ServerDeps): WireServer {
  const http = config.http;
  const log = deps.log.child({ component: 'http' });
  const operations = deps.operations ?? allOperations;
  const table = buildRouteTable(operations);
  const now = deps.now ?? ((): Date => new Date());
  const version = deps.version ?? '0.1.0';
  const { accounts } = deps;
  const extra = deps.hooks ?? {};
  const hooks: WireHooks = {
    onRequest: [
      authHook({ accounts, required: http.auth, log }),
      rateLimitHook(deps.rateLimiter ?? createRateLimiter()),
      ...(extra.onRequest ?? []),
    ],
    preHandler: extra.preHandler ?? [],
    onResponse: [usageHook(accounts, now), ...(extra.onResponse ?? [])],
    onClose: extra.onClose ?? [],
  };
  if (!http.auth) {
    log.warn('authentication is off (--no-auth): every operation can be called without credentials');
  }
  let closing = false;

  // Static pages are rendered once; the DTO file carries the current date, so it is rendered per request.
  const metadataHtml = renderMetadataPage(operations, TITLE, FHIR_ROUTES);
  const openApiJson = JSON.stringify(buildOpenApi(operations, { title: TITLE, version }, FHIR_ROUTES));
  const page = (which: BuiltinPage, _req: IncomingMessage): PageReply => {
    switch (which) {
      case 'metadata':
        return {
          status: 200,
          headers: { 'Content-Type': 'text/html; charset=utf-8', Vary: 'Accept' },
          body: metadataHtml,
        };
      case 'metadata-redirect':
        return { status: 301, headers: { Location: '/metadata', Vary: 'Accept' }, body: '' };
      case 'openapi':
        return {
          status: 200,
          headers: { 'Content-Type': 'application/json; charset=utf-8', Vary: 'Accept' },
          body: openApiJson,
        };
      case 'typescript':
        return {
          status: 200,
          headers: { 'Content-Type': 'text/plain; charset=utf-8', Vary: 'Accept' },
          body: renderTypeScriptDtos(operations, { date: now(), version, baseUrl: http.webRoot.replace(/\/+$/, '') }),
        };
    }
  };

  const listener = createRequestListener({
    config: http,
    log,
    table,
    hooks,
    services: { accounts, resourcesDir: config.resourcesDir, reference: deps.reference },
    now,
    page,
    closing: () => closing,
  });
  // The FHIR facade (src/http/fhir) owns /fhir/…; everything else goes through the operation pipeline.
  const fhir = createFhirHandler({ reference: deps.reference, hooks, log, maxBodyBytes: http.maxBodyBytes, now });
  // One access-log line per request (info): routing fills in the note, the line is written when the response closes.
  const server = createServer({ keepAliveTimeout: 5_000 }, (req, res) => {
    const note = trackAccess(log, req, res);
    const url = req.url ?? '/';
    if (url.length >= FHIR_PREFIX.length && url.slice(0, FHIR_PREFIX.length).toLowerCase() === FHIR_PREFIX) {
      fhir(req, res, note).catch((err: unknown) => {
        log.error({ err }, 'FHIR request failed');
        res.destroy();
      });
      return;
    }
    listener(req, res, note);
  });

  return {
    server,
    operations,
    async shutdown(graceMs = 10_000): Promise<void> {
      closing = true;
      if (server.listening) {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        const timer = setTimeout(() => server.closeAllConnections(), graceMs);
        timer.unref();
        await closed;
        clearTimeout(timer);
      }
      for (const hook of hooks.onClose ?? []) {
        await hook();
      }
    },
  };
}
