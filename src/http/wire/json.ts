// The JSON writer (wire.md §8), driven by the schema: members in declaration order (`responseStatus` last), null and
// undefined omitted, `0`/`false`/`""`/`[]` kept, compact, raw UTF-8; WCF dates as `"\/Date(ms+0000)\/"`.
// Two ways to the same bytes: a reply is rebuilt as its shape says and written by one JSON.stringify call (fast,
// one flat string); a shape holding a WCF date, whose escapes JSON.stringify does not write, goes through the
// member-by-member writer. The tests hold both to the same output.
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
 * A function per shape, made on first use by `compile` and kept: the shape's decisions (which members, their
 * prefixes, their writers) are taken once, not on every value. A shape that contains itself gets a function that
 * finds its own on each call.
 */
function perShape<T>(compile: (shape: Shape) => (value: unknown) => T): (shape: Shape) => (value: unknown) => T {
  const made = new WeakMap<Shape, (value: unknown) => T>();
  return (shape) => {
    let f = made.get(shape);
    if (f === undefined) {
      made.set(shape, (value) => (made.get(shape) as (value: unknown) => T)(value));
      f = compile(shape);
      made.set(shape, f);
    }
    return f;
  };
}

/** A shape's JSON writer, reused for every reply. */
type Writer = (value: unknown) => string;

const writerOf = perShape(compile);

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
 * A value rebuilt as the shape writes it (declared members only, in declaration order, null and undefined dropped),
 * so one native JSON.stringify call writes the same bytes as the shape's writer: no string per member, and one flat
 * string at the end. Made once per shape, like the writers.
 */
type Preparer = (value: unknown) => unknown;

const preparerOf = perShape(compilePreparer);

const asIs: Preparer = (value) => value;

function compilePreparer(shape: Shape): Preparer {
  switch (shape.kind) {
    case 'object': {
      const fields = shape.fields.map((f) => ({ name: f.name, prepare: preparerOf(f.shape) }));
      return (value) => {
        if (value === null || value === undefined || typeof value !== 'object' || Array.isArray(value)) {
          return value;
        }
        const obj = value as Readonly<Record<string, unknown>>;
        const out: Record<string, unknown> = {};
        for (const f of fields) {
          const v = obj[f.name];
          if (v !== null && v !== undefined) {
            out[f.name] = f.prepare(v);
          }
        }
        return out;
      };
    }
    case 'array': {
      const item = shape.item;
      const prepare = preparerOf(item);
      const stringMaps = item.kind === 'record' && item.value.kind === 'string';
      return (value) => {
        if (!Array.isArray(value) || (stringMaps && value.every(isStringMap))) {
          return value;
        }
        return value.map((v: unknown) => (v === null || v === undefined ? null : prepare(v)));
      };
    }
    case 'record': {
      const prepare = preparerOf(shape.value);
      const strings = shape.value.kind === 'string';
      return (value) => {
        if (value === null || value === undefined || typeof value !== 'object' || Array.isArray(value) || (strings && isStringMap(value))) {
          return value;
        }
        // No prototype: a key named __proto__ is a member like any other.
        const out = Object.create(null) as Record<string, unknown>;
        for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
          if (v !== null && v !== undefined) {
            out[k] = prepare(v);
          }
        }
        return out;
      };
    }
    case 'datetime':
    case 'string':
    case 'int':
    case 'number':
    case 'bool':
    case 'date':
    case 'any':
      // Written by JSON.stringify as the shape's writer writes them (a WCF date never comes here: holdsWcfDate).
      return asIs;
  }
}

/** Whether a shape holds a WCF date anywhere: those need `\/` escapes that JSON.stringify does not write. */
function holdsWcfDate(shape: Shape, seen = new Set<Shape>()): boolean {
  if (seen.has(shape)) {
    return false;
  }
  seen.add(shape);
  switch (shape.kind) {
    case 'datetime':
      return shape.wcf;
    case 'object':
      return shape.fields.some((f) => holdsWcfDate(f.shape, seen));
    case 'array':
      return holdsWcfDate(shape.item, seen);
    case 'record':
      return holdsWcfDate(shape.value, seen);
    case 'string':
    case 'int':
    case 'number':
    case 'bool':
    case 'date':
    case 'any':
      return false;
  }
}

const nativeShapes = new WeakMap<Shape, boolean>();

/** The member-by-member writer alone (what writeJson uses for shapes with WCF dates; the tests compare the two). */
export function writeJsonByMembers(shape: Shape, value: unknown): string {
  return writerOf(shape)(value);
}

/**
 * Writes a value as compact JSON following its shape.
 * @param shape - the value's shape (an operation's response shape for a whole reply)
 * @param value - the value; members the shape does not declare are not written
 */
export function writeJson(shape: Shape, value: unknown): string {
  let native = nativeShapes.get(shape);
  if (native === undefined) {
    native = !holdsWcfDate(shape);
    nativeShapes.set(shape, native);
  }
  return native ? (JSON.stringify(preparerOf(shape)(value)) ?? 'null') : writerOf(shape)(value);
}
