// The access log (issue 11 §3): one info line per request, written when the response closes, so an operator sees
// activity. It names the method, the matched route template (never the raw URL: paths and query strings carry codes,
// dates and member data), the operation, the status and the duration; never bodies, query values or headers.
//
//   server ─► trackAccess(log, req, res) ─► AccessNote ─► pipeline / FHIR facade: route + operation, once matched
//                                               └── res 'close' ─► log.info({ method, route, operation, status, durationMs })
import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Logger } from 'pino';

/**
 * What routing learned about a request, for its access-log line: `null` while no route matched (404, 405). A class,
 * so every note has one shape (see send() in pipeline.ts on per-request objects).
 */
export class AccessNote {
  /** The route template that matched (`/codes/{codeSet}`, `/json/reply/CodeValidate`, `/metadata`). */
  route: string | null = null;
  /** The operation the route leads to (`CodeValidate`, `FhirLookup`). */
  operation: string | null = null;
}

/** The line written for one request. */
export interface AccessLine {
  readonly method: string;
  readonly route: string | null;
  readonly operation: string | null;
  readonly status: number;
  /** Milliseconds from the request reaching the server to the response closing, to 0.1 ms. */
  readonly durationMs: number;
  /** Present (true) when the connection closed before the reply was complete. */
  aborted?: true;
}

/**
 * Starts the access-log line of a request: the returned note is filled in by routing, and the line is written at info
 * level when the response closes. Nothing is tracked when the logger does not log info.
 * @param log - the server's logger
 * @param req - the request (only its method is read)
 * @param res - the response (its status, once closed)
 * @returns the note routing fills in, or `undefined` when info is off
 */
export function trackAccess(log: Logger, req: IncomingMessage, res: ServerResponse): AccessNote | undefined {
  if (!log.isLevelEnabled('info')) {
    return undefined;
  }
  const started = performance.now();
  const note = new AccessNote();
  res.once('close', () => {
    const line: AccessLine = {
      method: req.method ?? 'GET',
      route: note.route,
      operation: note.operation,
      status: res.statusCode,
      durationMs: Math.round((performance.now() - started) * 10) / 10,
    };
    if (!res.writableFinished) {
      line.aborted = true;
    }
    log.info(line, 'request');
  });
  return note;
}
