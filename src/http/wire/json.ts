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

/** A shape's JSON writer: made once per shape (see {@link writerOf}) and reused for every reply. */
type Writer = (value: unknown) => string;

const writers = new WeakMap<Shape, Writer>();

/**
 * The writer of a shape, made on first use: the shape's decisions (which members, their prefixes, their writers) are
 * taken once, not on every value. A shape that contains itself gets a writer that finds its own on each call.
 */
function writerOf(shape: Shape): Writer {
  let writer = writers.get(shape);
  if (writer === undefined) {
    writers.set(shape, (value) => (writers.get(shape) as Writer)(value));
    writer = compile(shape);
    writers.set(shape, writer);
  }
  return writer;
}

function compile(shape: Shape): Writer {
  switch (shape.kind) {
    case 'object': {
      const fields = shape.fields.map((f) => ({ name: f.name, key: f.jsonKey, write: writerOf(f.shape) }));
      return (value) => {
        if (value === null || value === undefined) {
          return 'null';
        }
        if (typeof value !== 'object' || Array.isArray(value)) {
          return stringify(value);
        }
        const obj = value as Readonly<Record<string, unknown>>;
        let out = '';
        for (const f of fields) {
          const v = obj[f.name];
          if (v !== null && v !== undefined) {
            out += `${out === '' ? '' : ','}${f.key}${f.write(v)}`;
          }
        }
        return `{${out}}`;
      };
    }
    case 'array': {
      const item = shape.item;
      const write = writerOf(item);
      // A list of string→string maps (DocumentV2's result) is what JSON.stringify writes: one native call.
      const stringMaps = item.kind === 'record' && item.value.kind === 'string';
      return (value) => {
        if (value === null || value === undefined) {
          return 'null';
        }
        if (!Array.isArray(value)) {
          return stringify(value);
        }
        if (stringMaps && value.every(isStringMap)) {
          return JSON.stringify(value);
        }
        let out = '';
        for (let i = 0; i < value.length; i++) {
          out += `${i === 0 ? '' : ','}${write(value[i])}`;
        }
        return `[${out}]`;
      };
    }
    case 'record': {
      const write = writerOf(shape.value);
      const strings = shape.value.kind === 'string';
      return (value) => {
        if (value === null || value === undefined) {
          return 'null';
        }
        if (typeof value !== 'object' || Array.isArray(value)) {
          return stringify(value);
        }
        if (strings && isStringMap(value)) {
          return JSON.stringify(value);
        }
        let out = '';
        for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
          if (v !== null && v !== undefined) {
            out += `${out === '' ? '' : ','}${writeScalar(k)}:${write(v)}`;
          }
        }
        return `{${out}}`;
      };
    }
    case 'datetime': {
      const wcf = shape.wcf;
      // JSON.stringify never escapes '/', which WCF-style parsers need around Date(…).
      return (value) =>
        value === null || value === undefined
          ? 'null'
          : wcf && typeof value === 'string'
            ? stringify(formatWcfDate(value)).replace(/\//g, '\\/')
            : stringify(value);
    }
    case 'string':
    case 'int':
    case 'number':
    case 'bool':
    case 'date':
    case 'any':
      return (value) => (value === null || value === undefined ? 'null' : writeScalar(value));
  }
}

/**
 * Writes a value as compact JSON following its shape.
 * @param shape - the value's shape (an operation's response shape for a whole reply)
 * @param value - the value; members the shape does not declare are not written
 */
export function writeJson(shape: Shape, value: unknown): string {
  return writerOf(shape)(value);
}
