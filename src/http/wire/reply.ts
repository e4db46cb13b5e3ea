// Turns a response or an Outcome into bytes and headers for the negotiated format (wire.md §6–11): JSON, JSONP, CSV
// or XML; `responseStatus: {}` on success, the error envelope on failure; statuses from statusFor() (JSONP errors
// are forced to 200); `Vary: Accept` on every reply.
import { writeCsv, writeCsvError } from './csv.js';
import { writeJsonBytes } from './json.js';
import type { ReplyChoice } from './negotiate.js';
import type { Operation } from './operation.js';
import { statusFor, type Outcome } from './outcome.js';
import { ErrorResponse } from './response-status.js';
import { objectShapeOf } from './shape.js';
import { NS, SS, writeXml } from './xml.js';

/** A reply ready to be written. */
export interface Reply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** Text, or the UTF-8 bytes the JSON writer made. */
  readonly body: string | Buffer;
}

const CONTENT_TYPES = {
  json: 'application/json; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  xml: 'application/xml; charset=utf-8',
  jsonp: 'text/javascript',
} as const;

const errorShape = objectShapeOf(ErrorResponse);

function headersFor(
  choice: ReplyChoice,
  name: string,
  extra?: Readonly<Record<string, string>>,
): Record<string, string> {
  // Object.assign, not a spread: see send() in pipeline.ts.
  const headers: Record<string, string> = { 'Content-Type': CONTENT_TYPES[choice.format], Vary: 'Accept' };
  if (extra !== undefined) {
    Object.assign(headers, extra);
  }
  if (choice.format === 'csv') {
    headers['Content-Disposition'] = `attachment;filename="${name}.csv"`;
  }
  return headers;
}

/**
 * The reply of a successful call.
 * @param op - the operation
 * @param choice - the negotiated format
 * @param response - the handler's response; `responseStatus` defaults to `{}`
 */
export function successReply(op: Operation, choice: ReplyChoice, response: Readonly<Record<string, unknown>>): Reply {
  const value =
    response['responseStatus'] === undefined ? Object.assign({}, response, { responseStatus: {} }) : response;
  let body: string | Buffer;
  switch (choice.format) {
    case 'json':
      body = writeJsonBytes(op.responseShape, value);
      break;
    case 'jsonp':
      body = writeJsonBytes(op.responseShape, value, `${choice.callback}(`, ')');
      break;
    case 'csv':
      body = writeCsv(op.responseShape, value, op.csvListPath);
      break;
    case 'xml':
      body = writeXml(`${op.name}Response`, op.responseShape, value);
      break;
  }
  return { status: 200, headers: headersFor(choice, op.name), body };
}

/**
 * The reply of a failed call.
 * @param op - the operation, or undefined when the request never reached one (unknown route)
 * @param choice - the negotiated format
 * @param outcome - the failure
 * @param debug - whether to include `stackTrace` (`http.debug`)
 */
export function errorReply(op: Operation | undefined, choice: ReplyChoice, outcome: Outcome, debug: boolean): Reply {
  const stack = debug ? stackOf(outcome) : undefined;
  const status = {
    errorCode: outcome.errorCode,
    message: outcome.message,
    ...(stack === undefined ? {} : { stackTrace: stack }),
    errors: outcome.errors.map((e) => ({ errorCode: e.errorCode, fieldName: e.fieldName, message: e.message })),
  };
  const envelope = { responseStatus: status };
  let body: string | Buffer;
  switch (choice.format) {
    case 'json':
      body = writeJsonBytes(errorShape, envelope);
      break;
    case 'jsonp':
      body = writeJsonBytes(errorShape, envelope, `${choice.callback}(`, ')');
      break;
    case 'csv':
      body = writeCsvError(status);
      break;
    case 'xml':
      body =
        op === undefined
          ? writeXml('ErrorResponse', errorShape, envelope, SS)
          : writeXml(`${op.name}Response`, errorShape, envelope, NS);
      break;
  }
  const httpStatus = choice.format === 'jsonp' ? 200 : statusFor(outcome);
  return { status: httpStatus, headers: headersFor(choice, op?.name ?? 'ErrorResponse', outcome.headers), body };
}

function stackOf(outcome: Outcome): string | undefined {
  // Only failures caused by an exception have a stack worth showing; validation outcomes have none.
  if (outcome.cause instanceof Error) {
    return outcome.cause.stack ?? `${outcome.cause.name}: ${outcome.cause.message}`;
  }
  return undefined;
}
