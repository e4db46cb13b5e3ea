// What the engine operations share: the reference port or a 503 when the server has none, the answer date (the
// request's or today's, UTC) and the split of `sourceCodeCsv`-style lists.
import { parseMapCodeType } from '../engines/mapping/index.js';
import type { Reference } from '../reference/index.js';
import type { MapCodeType } from '../schemas/mapping.js';
import { utcDayMemo } from './utc-day.js';
import type { OperationContext } from './wire/operation.js';
import { badRequest, failure, fieldError, isOutcome, type Outcome } from './wire/outcome.js';

/** The 503 message when the server was started without a reference database. */
export const NO_REFERENCE =
  'No reference database is open on this server: build it with `npm run refdata -- build` and restart.';

/**
 * The reference port of a call.
 * @param ctx - the handler context
 * @returns the port, or a 503 `ServiceUnavailable` outcome when the server has none
 */
export function referenceOf(ctx: Pick<OperationContext, 'reference'>): Reference | Outcome {
  return ctx.reference ?? failure('ServiceUnavailable', NO_REFERENCE);
}

const today = utcDayMemo();

/**
 * The answer date of a call as `YYYY-MM-DD`: the date part of the given date or date-time (in its own offset), else
 * today in UTC by the server clock.
 * @param given - a bound `date` or `dateTime` field
 * @param now - the server clock's current time
 */
export function answerDate(given: string | undefined, now: Date): string {
  return given === undefined ? today(now.getTime()) : given.slice(0, 10);
}

/**
 * Splits a comma-separated list of codes: items trimmed, empty items dropped.
 * @param csv - `A02.1, B20` or one code
 */
export function splitCodes(csv: string): string[] {
  return csv
    .split(',')
    .map((c) => c.trim())
    .filter((c) => c !== '');
}

/** What GemsMap and ProprietaryMap both take from a request, checked. */
export interface MapInputs {
  readonly ref: Reference;
  readonly type: MapCodeType;
  readonly codes: string[];
  readonly date: string;
}

/**
 * Checks the fields GemsMap and ProprietaryMap share: a reference database, `sourceCodeType` (default
 * `ICD-10 CM`; unknown → 400 `InvalidValue`) and `sourceCodeCsv` (no code → 400 `NotEmpty`). Answers are as of today.
 * @param request - the bound request
 * @param ctx - the handler context
 */
export function mapInputsOf(
  request: { readonly sourceCodeCsv: string; readonly sourceCodeType?: string | undefined },
  ctx: Pick<OperationContext, 'reference' | 'now'>,
): MapInputs | Outcome {
  const ref = referenceOf(ctx);
  if (isOutcome(ref)) {
    return ref;
  }
  const typeName = request.sourceCodeType ?? 'ICD-10 CM';
  const type = parseMapCodeType(typeName);
  if (type === undefined) {
    return badRequest([fieldError('InvalidValue', 'sourceCodeType', { value: typeName })]);
  }
  const codes = splitCodes(request.sourceCodeCsv);
  if (codes.length === 0) {
    return badRequest([fieldError('NotEmpty', 'sourceCodeCsv')]);
  }
  return { ref, type, codes, date: answerDate(undefined, ctx.now()) };
}
