// The JSON writer (wire.md §8), driven by the schema: members in declaration order (`responseStatus` last), null and
// undefined omitted, `0`/`false`/`""`/`[]` kept, compact, raw UTF-8; WCF dates as `"\/Date(ms+0000)\/"`.
import type { Shape } from './shape.js';
import { formatWcfDate } from './values.js';

const stringify = (v: unknown): string => JSON.stringify(v) ?? 'null';

// Characters JSON.stringify would escape (quote, backslash, controls, lone surrogates): strings without any are
// written as they are, which skips a JSON.stringify call per value (a tenth of a whole Hello call).
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

function writeScalar(value: unknown): string {
  if (typeof value === 'string') {
    return NEEDS_ESCAPE.test(value) ? JSON.stringify(value) : `"${value}"`;
  }
  if (typeof value === 'number') {
    return Number.isFinite(value) ? String(value) : 'null';
  }
  if (typeof value === 'boolean') {
    return value ? 'true' : 'false';
  }
  return stringify(value);
}

/**
 * A plain object (no class, no toJSON, no boxed string) whose values are all strings: JSON.stringify writes it exactly
 * as the shape-driven writer would.
 */
function isStringMap(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) {
    return false;
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) {
    return false;
  }
  for (const k in value) {
    if (typeof (value as Record<string, unknown>)[k] !== 'string') {
      return false;
    }
  }
  return true;
}

/**
 * Writes a value as compact JSON following its shape.
 * @param shape - the value's shape (an operation's response shape for a whole reply)
 * @param value - the value; members the shape does not declare are not written
 */
export function writeJson(shape: Shape, value: unknown): string {
  if (value === null || value === undefined) {
    return 'null';
  }
  switch (shape.kind) {
    case 'object': {
      if (typeof value !== 'object' || Array.isArray(value)) {
        return stringify(value);
      }
      const obj = value as Readonly<Record<string, unknown>>;
      let out = '';
      for (const f of shape.fields) {
        const v = obj[f.name];
        if (v !== null && v !== undefined) {
          out += `${out === '' ? '' : ','}${f.jsonKey}${writeJson(f.shape, v)}`;
        }
      }
      return `{${out}}`;
    }
    case 'array':
      if (!Array.isArray(value)) {
        return stringify(value);
      }
      // A list of string→string maps (DocumentV2's result) is what JSON.stringify writes: one native call.
      if (shape.item.kind === 'record' && shape.item.value.kind === 'string' && value.every(isStringMap)) {
        return JSON.stringify(value);
      }
      return `[${value.map((item: unknown) => writeJson(shape.item, item)).join(',')}]`;
    case 'record': {
      if (typeof value !== 'object' || Array.isArray(value)) {
        return stringify(value);
      }
      if (shape.value.kind === 'string' && isStringMap(value)) {
        return JSON.stringify(value);
      }
      let out = '';
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
        if (v !== null && v !== undefined) {
          out += `${out === '' ? '' : ','}${writeScalar(k)}:${writeJson(shape.value, v)}`;
        }
      }
      return `{${out}}`;
    }
    case 'datetime':
      // JSON.stringify never escapes '/', which WCF-style parsers need around Date(…).
      return shape.wcf && typeof value === 'string'
        ? stringify(formatWcfDate(value)).replace(/\//g, '\\/')
        : stringify(value);
    case 'string':
    case 'int':
    case 'number':
    case 'bool':
    case 'date':
    case 'any':
      return writeScalar(value);
  }
}
