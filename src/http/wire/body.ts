// Request bodies (wire.md §5): the size limit (413, checked against Content-Length first, then while reading),
// the Content-Type rules (415) and the four parsers (JSON, form, CSV, XML) that turn a body into raw fields.
import type { IncomingMessage } from 'node:http';
import { parse as parseCsv } from 'csv-parse/sync';
import { fieldsFromCsv, fieldsFromJson, fieldsFromQuery, fieldsFromXml, type RawFields } from './binding.js';
import { failure, type Outcome } from './outcome.js';
import type { ReplyFormat } from './operation.js';
import { parseXmlTree } from './xml-tree.js';

/** How a body is parsed. */
export type BodyKind = 'json' | 'form' | 'csv' | 'xml';

/** A Content-Type header split into its media type and charset (both lower-case). */
export interface ContentType {
  readonly type: string;
  readonly charset: string | undefined;
}

/**
 * Splits a Content-Type header.
 * @param header - the header value, if any
 */
export function parseContentType(header: string | undefined): ContentType | undefined {
  if (header === undefined || header.trim() === '') {
    return undefined;
  }
  const [type = '', ...params] = header.split(';');
  let charset: string | undefined;
  for (const p of params) {
    const [k = '', v = ''] = p.split('=', 2);
    if (k.trim().toLowerCase() === 'charset') {
      charset = v.trim().replace(/^"|"$/g, '').toLowerCase();
    }
  }
  return { type: type.trim().toLowerCase(), charset };
}

/**
 * Whether a request carries a body: Content-Length above 0, or a chunked transfer.
 * @param req - the request
 */
export function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  if (length !== undefined) {
    return Number(length) > 0;
  }
  return req.headers['transfer-encoding'] !== undefined;
}

const unsupported = (detail: string): Outcome => failure('UnsupportedMediaType', undefined, { params: { detail } });

/**
 * Which parser a body gets, or a 415 (wire.md §2, §3, §5).
 * @param contentType - the parsed Content-Type header
 * @param route - `predefined` (the route format decides) or `custom` (the Content-Type decides)
 * @param routeFormat - the format of a predefined route
 */
export function bodyKindFor(
  contentType: ContentType | undefined,
  route: 'predefined' | 'custom',
  routeFormat: ReplyFormat,
): BodyKind | Outcome {
  if (contentType?.charset !== undefined && contentType.charset !== 'utf-8' && contentType.charset !== 'utf8') {
    return unsupported(`The charset '${contentType.charset}' is not supported; send UTF-8.`);
  }
  const type = contentType?.type;
  if (type === 'multipart/form-data') {
    return unsupported('multipart/form-data request bodies are not supported.');
  }
  if (type === 'application/x-www-form-urlencoded') {
    return 'form';
  }
  if (route === 'predefined') {
    return routeFormat; // whatever the Content-Type says (JsonApiClient sends JSON labelled text/plain)
  }
  if (
    type === undefined ||
    type === 'application/json' ||
    (type.startsWith('application/') && type.endsWith('+json'))
  ) {
    return 'json';
  }
  if (type === 'text/csv') {
    return 'csv';
  }
  if (type === 'application/xml' || type === 'text/xml') {
    return 'xml';
  }
  return unsupported(`The Content-Type '${type}' is not supported on this route.`);
}

/**
 * Reads a body up to `maxBytes`.
 * @param req - the request
 * @param maxBytes - the limit (`http.maxBodyBytes`)
 * @returns the bytes, or a 413 outcome (the rest of the body is left unread; the reply closes the connection)
 */
export function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer | Outcome> {
  const tooLarge = (): Outcome => failure('PayloadTooLarge', undefined, { params: { max: maxBytes } });
  const declared = Number(req.headers['content-length'] ?? '0');
  if (declared > maxBytes) {
    return Promise.resolve(tooLarge());
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = (): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > maxBytes) {
        cleanup();
        resolve(tooLarge());
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      cleanup();
      resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size));
    };
    const onError = (err: Error): void => {
      cleanup();
      reject(err);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}

const decoder = new TextDecoder('utf-8', { fatal: true });
const unreadable = (detail: string): Outcome => failure('SerializationException', undefined, { params: { detail } });

/**
 * Parses a body into raw fields. An empty (or blank) body gives no fields.
 * @param kind - the parser to use
 * @param body - the bytes read
 * @returns the fields, or a 400 (`SerializationException` for unreadable bodies, `InvalidValue` for a CSV body
 *   without exactly one data row)
 */
export function parseBody(kind: BodyKind, body: Buffer): RawFields | Outcome {
  let text: string;
  try {
    text = decoder.decode(body); // also drops a UTF-8 BOM
  } catch {
    return unreadable('the body is not valid UTF-8.');
  }
  if (text.trim() === '') {
    return new Map();
  }
  switch (kind) {
    case 'form':
      return fieldsFromQuery(new URLSearchParams(text));
    case 'json': {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (err) {
        return unreadable(`malformed JSON (${(err as Error).message}).`);
      }
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        return unreadable('the top level of a JSON body must be an object.');
      }
      return fieldsFromJson(value as Record<string, unknown>);
    }
    case 'csv': {
      let rows: string[][];
      try {
        const parsed: unknown = parseCsv(text, { relax_column_count: false, skip_empty_lines: true });
        rows = parsed as string[][];
      } catch (err) {
        return unreadable(`malformed CSV (${(err as Error).message}).`);
      }
      const [header, row, ...extra] = rows;
      if (header === undefined || row === undefined || extra.length > 0) {
        return failure(
          'InvalidValue',
          `A CSV request body must hold a header row and exactly one data row; it holds ${String(Math.max(rows.length - 1, 0))}.`,
        );
      }
      return fieldsFromCsv(header, row);
    }
    case 'xml':
      try {
        return fieldsFromXml(parseXmlTree(body));
      } catch (err) {
        return unreadable(`malformed XML (${(err as Error).message}).`);
      }
  }
}
