// The CSV writer (wire.md §10): list mode (one row per item of the operation's list path) or single-row mode (the
// whole response flattened to dot-path columns taken from the schema, so headers are stable); scalar arrays joined
// with `|`, arrays of objects and dictionaries as compact JSON cells; RFC 4180 via csv-stringify, CRLF, no BOM.
import { stringify } from 'csv-stringify/sync';
import { writeJson } from './json.js';
import type { ObjectShape, Shape } from './shape.js';
import { formatWcfDate } from './values.js';

/** One output column: its header and how to read its cell from a row object. */
interface Column {
  readonly header: string;
  readonly path: readonly string[];
  readonly shape: Shape;
}

const SCALARS = new Set<Shape['kind']>(['string', 'int', 'number', 'bool', 'date', 'datetime']);

function columnsOf(shape: ObjectShape, prefix: readonly string[], skip?: string): Column[] {
  const out: Column[] = [];
  for (const f of shape.fields) {
    if (f.name === skip) {
      continue;
    }
    const path = [...prefix, f.name];
    if (f.shape.kind === 'object') {
      out.push(...columnsOf(f.shape, path));
    } else {
      out.push({ header: path.join('.'), path, shape: f.shape });
    }
  }
  return out;
}

function valueAt(root: unknown, path: readonly string[]): unknown {
  let v = root;
  for (const key of path) {
    if (typeof v !== 'object' || v === null) {
      return undefined;
    }
    v = (v as Record<string, unknown>)[key];
  }
  return v;
}

/** A scalar as text; anything else as compact JSON. */
function text(value: unknown): string {
  if (typeof value === 'string') {
    return value;
  }
  if (typeof value === 'number' || typeof value === 'bigint') {
    return String(value);
  }
  return JSON.stringify(value) ?? '';
}

/**
 * The text of one cell.
 * @param shape - the column's shape
 * @param value - the value, possibly null
 */
export function cellOf(shape: Shape, value: unknown): string {
  if (value === null || value === undefined) {
    return '';
  }
  if (typeof value === 'boolean') {
    return value ? 'true' : 'false';
  }
  switch (shape.kind) {
    case 'array':
      if (Array.isArray(value) && SCALARS.has(shape.item.kind)) {
        return value.map((v: unknown) => cellOf(shape.item, v)).join('|');
      }
      return writeJson(shape, value);
    case 'datetime':
      return shape.wcf && typeof value === 'string' ? formatWcfDate(value) : text(value);
    case 'object':
    case 'record':
      return writeJson(shape, value);
    case 'any':
      return typeof value === 'object' ? writeJson(shape, value) : text(value);
    case 'string':
    case 'int':
    case 'number':
    case 'bool':
    case 'date':
      return typeof value === 'object' ? writeJson(shape, value) : text(value);
  }
}

function toCsv(rows: readonly (readonly string[])[]): string {
  if ((rows[0]?.length ?? 0) === 0) {
    return '';
  }
  return stringify(rows as string[][], { record_delimiter: '\r\n', quoted_match: /[\r\n]/ });
}

/**
 * Writes a successful reply as CSV.
 * @param shape - the response shape
 * @param value - the response (its `responseStatus` is not written)
 * @param listPath - the operation's CSV list path, if it declares one
 */
export function writeCsv(
  shape: ObjectShape,
  value: Readonly<Record<string, unknown>>,
  listPath: readonly string[] | undefined,
): string {
  if (listPath !== undefined) {
    let itemShape: Shape | undefined = shape;
    for (const key of listPath) {
      itemShape = itemShape?.kind === 'object' ? itemShape.byLower.get(key.toLowerCase())?.shape : undefined;
    }
    const items = valueAt(value, listPath);
    const list = Array.isArray(items) ? (items as unknown[]) : [];
    if (itemShape?.kind === 'array' && itemShape.item.kind === 'object') {
      const columns = columnsOf(itemShape.item, []);
      return toCsv([
        columns.map((c) => c.header),
        ...list.map((item) => columns.map((c) => cellOf(c.shape, valueAt(item, c.path)))),
      ]);
    }
    if (itemShape?.kind === 'array' && itemShape.item.kind === 'record') {
      // string→string maps (DocumentV2): the union of keys in first-seen order
      const valueShape = itemShape.item.value;
      const keys: string[] = [];
      const seen = new Set<string>();
      for (const item of list) {
        for (const k of Object.keys(item ?? {})) {
          if (!seen.has(k)) {
            seen.add(k);
            keys.push(k);
          }
        }
      }
      return toCsv([
        keys,
        ...list.map((item) => keys.map((k) => cellOf(valueShape, (item as Record<string, unknown> | null)?.[k]))),
      ]);
    }
  }
  const columns = columnsOf(shape, [], 'responseStatus');
  return toCsv([columns.map((c) => c.header), columns.map((c) => cellOf(c.shape, valueAt(value, c.path)))]);
}

/**
 * Writes an error reply as CSV: one row of `responseStatus.errorCode`, `.message`, (`.stackTrace` in debug mode)
 * and `.errors` as a JSON cell.
 * @param status - the error's responseStatus
 * @param status.errorCode - its code
 * @param status.message - its message
 * @param status.stackTrace - present only in debug mode
 * @param status.errors - the field errors
 */
export function writeCsvError(status: {
  errorCode: string;
  message: string;
  stackTrace?: string;
  errors: readonly unknown[];
}): string {
  const header = ['responseStatus.errorCode', 'responseStatus.message'];
  const row = [status.errorCode, status.message];
  if (status.stackTrace !== undefined) {
    header.push('responseStatus.stackTrace');
    row.push(status.stackTrace);
  }
  header.push('responseStatus.errors');
  row.push(JSON.stringify(status.errors));
  return toCsv([header, row]);
}
