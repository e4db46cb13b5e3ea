// The XML writer (wire.md §11), DataContract style: `<?xml …?>`, no indentation, root `<{Op}Response>` in NS declaring
// i, a (Arrays) and s (ServiceStack types); PascalCase members in ordinal order, every member written (`i:nil` when
// null); list items named by their schema id, scalar lists as `a:string`/`a:int`, dictionaries as
// `a:KeyValueOfstring…`; ResponseStatus children in SS in ServiceStack's fixed order.
import { pascal, type FieldShape, type ObjectShape, type Shape } from './shape.js';

/** Our service namespace: the one the reference service's XML carries. */
export const NS = 'http://schemas.datacontract.org/2004/07/ServiceStack';
/** ServiceStack's own types (ResponseStatus children, ResponseError, ErrorResponse). */
export const SS = 'http://schemas.servicestack.net/types';
/** DataContract arrays and dictionaries. */
export const ARR = 'http://schemas.microsoft.com/2003/10/Serialization/Arrays';
/** XML Schema instance (`i:nil`). */
export const XSI = 'http://www.w3.org/2001/XMLSchema-instance';

const DECL = '<?xml version="1.0" encoding="utf-8"?>';
const NIL = ' i:nil="true"/>';

/**
 * Escapes text content; characters XML 1.0 cannot carry are dropped.
 * @param text - any string
 */
export function escapeXml(text: string): string {
  return text
    .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

/** A free-form key as an element name: PascalCase, invalid characters replaced by `_`. */
function elementName(key: string): string {
  const name = pascal(key).replace(/[^A-Za-z0-9_.-]/g, '_');
  return /^[A-Za-z_]/.test(name) ? name : `_${name}`;
}

const sorted = new WeakMap<ObjectShape, readonly (FieldShape & { readonly el: string })[]>();
function membersOf(shape: ObjectShape): readonly (FieldShape & { readonly el: string })[] {
  let m = sorted.get(shape);
  if (m === undefined) {
    m = shape.fields
      .map((f) => ({ ...f, el: pascal(f.name) }))
      .sort((a, b) => (a.el < b.el ? -1 : a.el > b.el ? 1 : 0));
    sorted.set(shape, m);
  }
  return m;
}

/** The DataContract type name of a shape, used for list items and dictionary entries. */
function typeName(shape: Shape): string {
  switch (shape.kind) {
    case 'string':
      return 'string';
    case 'int':
      return shape.bits === 16 ? 'short' : 'int';
    case 'number':
      return 'double';
    case 'bool':
      return 'boolean';
    case 'date':
    case 'datetime':
      return 'dateTime';
    case 'object':
      return shape.id ?? 'anyType';
    case 'record':
      return `ArrayOfKeyValueOfstring${typeName(shape.value)}`;
    case 'array':
      return `ArrayOf${typeName(shape.item)}`;
    case 'any':
      return 'anyType';
  }
}

/** An element in ARR (`a:` prefix) for scalars, arrays and dictionaries; objects keep their (NS) type name. */
function itemElement(shape: Shape): string {
  return shape.kind === 'object' ? typeName(shape) : `a:${typeName(shape)}`;
}

function scalar(shape: Shape, value: unknown): string {
  if (typeof value === 'boolean') {
    return value ? 'true' : 'false';
  }
  if (shape.kind === 'date' && typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) {
    return `${value}T00:00:00`;
  }
  return escapeXml(
    typeof value === 'string' ? value : typeof value === 'number' ? String(value) : (JSON.stringify(value) ?? ''),
  );
}

function anyContent(value: unknown): string {
  if (Array.isArray(value)) {
    return value.map((v: unknown) => element('Item', v)).join('');
  }
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => element(elementName(k), v))
      .join('');
  }
  return scalar({ kind: 'any' }, value);
}

function element(name: string, value: unknown, shape: Shape = { kind: 'any' }): string {
  if (value === null || value === undefined) {
    return `<${name}${NIL}`;
  }
  return `<${name}>${content(shape, value)}</${name}>`;
}

function content(shape: Shape, value: unknown): string {
  switch (shape.kind) {
    case 'object':
      if (shape.id === 'ResponseStatus') {
        return responseStatusContent(value);
      }
      return typeof value === 'object' && value !== null
        ? members(shape, value as Record<string, unknown>)
        : scalar(shape, value);
    case 'array': {
      if (!Array.isArray(value)) {
        return scalar(shape, value);
      }
      const el = itemElement(shape.item);
      return value.map((item: unknown) => element(el, item, shape.item)).join('');
    }
    case 'record': {
      if (typeof value !== 'object' || value === null) {
        return scalar(shape, value);
      }
      const el = `a:KeyValueOfstring${typeName(shape.value)}`;
      return Object.entries(value as Record<string, unknown>)
        .map(([k, v]) => `<${el}><a:Key>${escapeXml(k)}</a:Key>${element('a:Value', v, shape.value)}</${el}>`)
        .join('');
    }
    case 'any':
      return anyContent(value);
    case 'string':
    case 'int':
    case 'number':
    case 'bool':
    case 'date':
    case 'datetime':
      return scalar(shape, value);
  }
}

function members(shape: ObjectShape, value: Readonly<Record<string, unknown>>): string {
  let out = '';
  for (const f of membersOf(shape)) {
    out += element(f.el, value[f.name], f.shape);
  }
  return out;
}

/** ResponseStatus children in SS, in ServiceStack's order (not alphabetical); all `i:nil` on success. */
function responseStatusContent(value: unknown): string {
  const rs = (typeof value === 'object' && value !== null ? value : {}) as {
    errorCode?: string;
    message?: string;
    stackTrace?: string;
    errors?: readonly { errorCode?: string; fieldName?: string; message?: string }[];
  };
  const text = (name: string, v: string | undefined): string =>
    v === undefined ? `<s:${name}${NIL}` : `<s:${name}>${escapeXml(v)}</s:${name}>`;
  const errors =
    rs.errors === undefined
      ? `<s:Errors${NIL}`
      : `<s:Errors>${rs.errors
          .map(
            (e) =>
              `<s:ResponseError>${text('ErrorCode', e.errorCode)}${text('FieldName', e.fieldName)}${text('Message', e.message)}</s:ResponseError>`,
          )
          .join('')}</s:Errors>`;
  return text('ErrorCode', rs.errorCode) + text('Message', rs.message) + text('StackTrace', rs.stackTrace) + errors;
}

/**
 * Writes a reply document.
 * @param root - the root element name (`GemsMapResponse`, or `ErrorResponse` before the operation is known)
 * @param shape - the root's shape
 * @param value - the reply value
 * @param namespace - the root's namespace: NS for operation replies, SS for `ErrorResponse`
 */
export function writeXml(
  root: string,
  shape: ObjectShape,
  value: Readonly<Record<string, unknown>>,
  namespace: string = NS,
): string {
  return `${DECL}<${root} xmlns:i="${XSI}" xmlns:a="${ARR}" xmlns:s="${SS}" xmlns="${namespace}">${members(shape, value)}</${root}>`;
}
