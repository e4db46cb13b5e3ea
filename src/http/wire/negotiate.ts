// Reply-format negotiation (wire.md §6), first match wins: a non-empty `?callback` (JSONP), `?format=`, the path
// suffix, an Accept header naming exactly one of our media types, then the route's own format.
import type { ReplyFormat } from './operation.js';

/** The chosen reply: a format, or JSONP with its sanitised callback name. */
export type ReplyChoice = { readonly format: ReplyFormat } | { readonly format: 'jsonp'; readonly callback: string };

const MEDIA: ReadonlyMap<string, ReplyFormat> = new Map([
  ['application/json', 'json'],
  ['text/csv', 'csv'],
  ['application/xml', 'xml'],
  ['text/xml', 'xml'],
]);

const MEDIA_BY_NAME: ReadonlyMap<string, ReplyFormat> = new Map([
  ['json', 'json'],
  ['csv', 'csv'],
  ['xml', 'xml'],
]);

/**
 * The JSONP callback name as ServiceStack sanitises it: every character outside `[A-Za-z0-9._]` becomes `_`.
 * @param name - the `?callback` value
 */
export function sanitizeCallback(name: string): string {
  return name.replace(/[^A-Za-z0-9._]/g, '_');
}

/** `?callback` and `?format` with case-insensitive keys (the last non-empty value wins). */
export function queryControls(query: URLSearchParams): { callback: string | undefined; format: string | undefined } {
  let callback: string | undefined;
  let format: string | undefined;
  for (const [key, value] of query) {
    if (value === '') {
      continue;
    }
    const k = key.toLowerCase();
    if (k === 'callback') {
      callback = value;
    } else if (k === 'format') {
      format = value;
    }
  }
  return { callback, format };
}

/**
 * The format an Accept header asks for (step 4 of wire.md §6), or undefined to fall through.
 * @param accept - the header value
 * @param routeFormat - the format fixed by the route
 */
export function formatFromAccept(accept: string | undefined, routeFormat: ReplyFormat): ReplyFormat | undefined {
  if (accept === undefined || accept === '') {
    return undefined;
  }
  const named = new Set<ReplyFormat>();
  for (const part of accept.split(',')) {
    const type = (part.split(';', 1)[0] ?? '').trim().toLowerCase();
    const format = MEDIA.get(type);
    if (format !== undefined) {
      named.add(format);
    }
  }
  if (named.has(routeFormat)) {
    return routeFormat;
  }
  if (named.size === 1) {
    return [...named][0];
  }
  return undefined;
}

/**
 * Chooses the reply format of a request.
 * @param input - the query string, Accept header, path-suffix format and route format
 */
export function chooseFormat(input: {
  readonly query: URLSearchParams;
  readonly accept: string | undefined;
  readonly suffix: ReplyFormat | undefined;
  readonly routeFormat: ReplyFormat;
}): ReplyChoice {
  const { callback, format } = queryControls(input.query);
  if (callback !== undefined) {
    return { format: 'jsonp', callback: sanitizeCallback(callback) };
  }
  const fromQuery = format === undefined ? undefined : MEDIA_BY_NAME.get(format.toLowerCase());
  return {
    format: fromQuery ?? input.suffix ?? formatFromAccept(input.accept, input.routeFormat) ?? input.routeFormat,
  };
}
