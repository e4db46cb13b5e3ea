// Binding (wire.md §2–4): each source (body, path, query) becomes a map of raw fields keyed by lower-cased name;
// the maps are merged with the route kind's precedence; then the request shape drives value conversion (ints,
// booleans, dates, lists, objects, dictionaries) and zod validates the result. Every failure, conversion or
// validation, becomes a field error, and all of them are answered together as one 400.
import type { Logger } from 'pino';
import type { z } from 'zod';
import { acceptanceOf } from '../../schemas/accept.js';
import type { Result } from '../../schemas/result.js';
import { setOwn } from '../../schemas/records.js';
import { fieldError, badRequest, type FieldError } from './outcome.js';
import type { Operation } from './operation.js';
import { shapeAt, type ObjectShape, type Shape } from './shape.js';
import {
  checkInteger,
  parseBoolean,
  parseInteger,
  parseNumber,
  splitList,
  toDate,
  toDateTime,
  type Converted,
} from './values.js';
import type { XmlNode } from './xml-tree.js';

/** A value as a source delivered it, before conversion. */
export type Raw =
  | { readonly t: 'text'; readonly v: string }
  | { readonly t: 'texts'; readonly v: readonly string[] }
  | { readonly t: 'cell'; readonly v: string }
  | { readonly t: 'json'; readonly v: unknown }
  | { readonly t: 'xml'; readonly v: readonly XmlNode[] }
  | { readonly t: 'tree'; readonly v: RawFields };

/** A raw value and the name it was written with. */
export interface RawEntry {
  readonly name: string;
  readonly raw: Raw;
}

/** Raw fields by lower-cased name. */
export type RawFields = Map<string, RawEntry>;

const CONTROL_KEYS = new Set(['format', 'callback']);

/**
 * Fields of a query string or form body: empty values are absent, repeated keys are kept together, and `format`
 * and `callback` never bind.
 * @param params - the parsed query string or form body
 */
export function fieldsFromQuery(params: URLSearchParams): RawFields {
  const grouped = new Map<string, { name: string; values: string[] }>();
  for (const [name, value] of params) {
    const lower = name.toLowerCase();
    if (value === '' || CONTROL_KEYS.has(lower)) {
      continue;
    }
    const g = grouped.get(lower);
    if (g) {
      g.values.push(value);
    } else {
      grouped.set(lower, { name, values: [value] });
    }
  }
  const fields: RawFields = new Map();
  for (const [lower, g] of grouped) {
    fields.set(lower, {
      name: g.name,
      raw: g.values.length === 1 ? { t: 'text', v: g.values[0] ?? '' } : { t: 'texts', v: g.values },
    });
  }
  return fields;
}

/**
 * Fields of a JSON object (keys matched case-insensitively; of two keys differing only in case the last wins).
 * @param obj - a parsed JSON object
 */
export function fieldsFromJson(obj: Readonly<Record<string, unknown>>): RawFields {
  const fields: RawFields = new Map();
  for (const [name, v] of Object.entries(obj)) {
    fields.set(name.toLowerCase(), { name, raw: { t: 'json', v } });
  }
  return fields;
}

/**
 * Fields of an XML element: its child elements by local name; repeated siblings are kept together.
 * @param node - the root element of a request body, or a nested element
 */
export function fieldsFromXml(node: XmlNode): RawFields {
  const grouped = new Map<string, { name: string; nodes: XmlNode[] }>();
  for (const child of node.children) {
    const lower = child.name.toLowerCase();
    const g = grouped.get(lower);
    if (g) {
      g.nodes.push(child);
    } else {
      grouped.set(lower, { name: child.name, nodes: [child] });
    }
  }
  const fields: RawFields = new Map();
  for (const [lower, g] of grouped) {
    fields.set(lower, { name: g.name, raw: { t: 'xml', v: g.nodes } });
  }
  return fields;
}

/**
 * Fields of a CSV request: header names are dot paths (`patient.age`); empty cells are absent.
 * @param header - the header row
 * @param row - the one data row
 */
export function fieldsFromCsv(header: readonly string[], row: readonly string[]): RawFields {
  const root: RawFields = new Map();
  header.forEach((column, i) => {
    const cell = row[i] ?? '';
    if (cell === '') {
      return;
    }
    const parts = column.trim().split('.');
    let level = root;
    parts.forEach((part, j) => {
      const lower = part.toLowerCase();
      if (j === parts.length - 1) {
        level.set(lower, { name: part, raw: { t: 'cell', v: cell } });
        return;
      }
      const existing = level.get(lower);
      if (existing?.raw.t === 'tree') {
        level = existing.raw.v;
      } else {
        const next: RawFields = new Map();
        level.set(lower, { name: part, raw: { t: 'tree', v: next } });
        level = next;
      }
    });
  });
  return root;
}

/**
 * Fields of a custom route's path variables (empty values are absent).
 * @param vars - variables by template name
 */
export function fieldsFromPath(vars: ReadonlyMap<string, string>): RawFields {
  const fields: RawFields = new Map();
  for (const [name, v] of vars) {
    if (v !== '') {
      fields.set(name.toLowerCase(), { name, raw: { t: 'text', v } });
    }
  }
  return fields;
}

function isNullRaw(raw: Raw): boolean {
  return (raw.t === 'json' && raw.v === null) || (raw.t === 'xml' && raw.v.every((n) => n.nil));
}

/**
 * Predefined-route merge: each field of `extra` (the query) fills a field still absent or null in `base` (the body),
 * never overwriting it.
 * @param base - the body's fields, modified in place
 * @param extra - the query's fields
 */
export function fillAbsent(base: RawFields, extra: RawFields): RawFields {
  for (const [k, e] of extra) {
    const b = base.get(k);
    if (b === undefined || isNullRaw(b.raw)) {
      base.set(k, e);
    }
  }
  return base;
}

/**
 * Custom-route merge: later sources override earlier ones (body < path < query).
 * @param base - the earlier source's fields, modified in place
 * @param extra - the later source's fields
 */
export function override(base: RawFields, extra: RawFields): RawFields {
  for (const [k, e] of extra) {
    base.set(k, e);
  }
  return base;
}

/** A conversion failure, kept until all fields were tried. */
interface ConversionError {
  readonly path: readonly (string | number)[];
  readonly code: 'InvalidValue' | 'OutOfRange';
  readonly shown: string;
}

/** The state of one binding run. */
interface Binder {
  readonly errors: ConversionError[];
  readonly unknown: string[];
}

/** Formats a path the way field errors name fields: `patient.gender`, `cptCodes[3]`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') {
      out += `[${String(key)}]`;
    } else {
      out += out === '' ? String(key) : `.${String(key)}`;
    }
  }
  return out;
}

/** Characters of a structured value an error message quotes (the rest elided). */
const MAX_SHOWN = 200;

/**
 * A received value as a field error quotes it: strings as they are, anything else as JSON, cut to MAX_SHOWN
 * characters. A value nested too deeply to stringify (JSON.parse accepts depths JSON.stringify overflows on) is
 * named by its kind.
 */
function show(v: unknown): string {
  if (typeof v === 'string') {
    return v;
  }
  let text: string;
  try {
    text = JSON.stringify(v) ?? String(v);
  } catch {
    text = Array.isArray(v) ? '[array]' : '[object]';
  }
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}…` : text;
}

type Scalar =
  | { readonly k: 'absent' }
  | { readonly k: 'text'; readonly v: string }
  | { readonly k: 'typed'; readonly v: number | boolean }
  | { readonly k: 'bad'; readonly shown: string };

function scalarOf(raw: Raw): Scalar {
  switch (raw.t) {
    case 'text':
    case 'cell':
      return raw.v === '' ? { k: 'absent' } : { k: 'text', v: raw.v };
    case 'texts':
      return { k: 'text', v: raw.v.join(',') };
    case 'json': {
      // A one-item list stands for its item, at any depth (a loop: the depth is the sender's).
      let v = raw.v;
      while (Array.isArray(v) && v.length === 1) {
        v = v[0] as unknown;
      }
      if (v === null || v === undefined) {
        return { k: 'absent' };
      }
      if (typeof v === 'string') {
        return { k: 'text', v };
      }
      if (typeof v === 'number' || typeof v === 'boolean') {
        return { k: 'typed', v };
      }
      return { k: 'bad', shown: show(v) };
    }
    case 'xml': {
      const node = raw.v.at(-1);
      if (node === undefined || node.nil) {
        return { k: 'absent' };
      }
      if (node.children.length > 0) {
        return { k: 'bad', shown: node.text.trim() };
      }
      return node.text === '' ? { k: 'absent' } : { k: 'text', v: node.text };
    }
    case 'tree':
      return { k: 'bad', shown: '[object]' };
  }
}

function fail(
  b: Binder,
  path: readonly (string | number)[],
  code: 'InvalidValue' | 'OutOfRange',
  shown: string,
): undefined {
  b.errors.push({ path, code, shown });
  return undefined;
}

function fromConverted<T>(
  b: Binder,
  path: readonly (string | number)[],
  c: Converted<T>,
  shown: string,
): T | undefined {
  return c.ok ? c.value : fail(b, path, c.code, shown);
}

function itemsOf(raw: Raw): Raw[] | 'bad' {
  switch (raw.t) {
    case 'text':
      return splitList(raw.v).map((v) => ({ t: 'text', v }));
    case 'texts':
      return raw.v.flatMap(splitList).map((v) => ({ t: 'text', v }));
    case 'cell': {
      const t = raw.v.trim();
      if (t.startsWith('[')) {
        try {
          const parsed: unknown = JSON.parse(t);
          if (Array.isArray(parsed)) {
            return parsed.map((v: unknown) => ({ t: 'json', v }));
          }
        } catch {
          // not JSON: `[a,b]` written as a list
        }
        return splitList(t).map((v) => ({ t: 'cell', v }));
      }
      return t
        .split('|')
        .map((v) => v.trim())
        .filter((v) => v !== '')
        .map((v) => ({ t: 'cell', v }));
    }
    case 'json':
      if (raw.v === null || raw.v === undefined) {
        return [];
      }
      return Array.isArray(raw.v) ? raw.v.map((v: unknown) => ({ t: 'json', v })) : [raw];
    case 'xml':
      return raw.v.flatMap((n): Raw[] => {
        if (n.nil) {
          return [];
        }
        if (n.children.length > 0) {
          return n.children.map((c) => ({ t: 'xml', v: [c] }));
        }
        return n.text.trim() === '' ? [] : [{ t: 'xml', v: [n] }];
      });
    case 'tree':
      return 'bad';
  }
}

/** Parses JSON text that must be an object (nested fields in query strings, form fields and CSV cells). */
function jsonObjectOf(text: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function objectFieldsOf(raw: Raw): RawFields | 'absent' | 'bad' {
  switch (raw.t) {
    case 'tree':
      return raw.v;
    case 'xml': {
      const node = raw.v.at(-1);
      return node === undefined || node.nil ? 'absent' : fieldsFromXml(node);
    }
    case 'json': {
      if (raw.v === null || raw.v === undefined) {
        return 'absent';
      }
      if (typeof raw.v === 'object' && !Array.isArray(raw.v)) {
        return fieldsFromJson(raw.v as Record<string, unknown>);
      }
      const obj = typeof raw.v === 'string' ? jsonObjectOf(raw.v) : undefined;
      return obj === undefined ? 'bad' : fieldsFromJson(obj);
    }
    case 'text':
    case 'cell':
    case 'texts': {
      const text = raw.t === 'texts' ? (raw.v.at(-1) ?? '') : raw.v;
      const obj = jsonObjectOf(text);
      return obj === undefined ? 'bad' : fieldsFromJson(obj);
    }
  }
}

function recordEntriesOf(raw: Raw): [string, Raw][] | 'absent' | 'bad' {
  if (raw.t === 'xml') {
    const node = raw.v.at(-1);
    if (node === undefined || node.nil) {
      return 'absent';
    }
    return node.children.map((child): [string, Raw] => {
      // DataContract dictionaries: <a:KeyValueOfstringX><a:Key>k</a:Key><a:Value>…</a:Value></…>
      const key = child.children.find((c) => c.name.toLowerCase() === 'key');
      const value = child.children.find((c) => c.name.toLowerCase() === 'value');
      if (child.name.toLowerCase().startsWith('keyvalueof') && key !== undefined) {
        return [key.text.trim(), { t: 'xml', v: value === undefined ? [] : [value] }];
      }
      return [child.name, { t: 'xml', v: [child] }];
    });
  }
  const fields = objectFieldsOf(raw);
  if (fields === 'absent' || fields === 'bad') {
    return fields;
  }
  return [...fields.values()].map((e): [string, Raw] => [e.name, e.raw]);
}

function plainOf(raw: Raw): unknown {
  switch (raw.t) {
    case 'text':
    case 'cell':
      return raw.v === '' ? undefined : raw.v;
    case 'texts':
      return raw.v;
    case 'json':
      return raw.v ?? undefined;
    case 'xml': {
      const node = raw.v.at(-1);
      if (node === undefined || node.nil) {
        return undefined;
      }
      return xmlPlain(node, 0);
    }
    case 'tree':
      return Object.fromEntries([...raw.v.values()].map((e) => [e.name, plainOf(e.raw)]));
  }
}

function xmlPlain(node: XmlNode, depth: number): unknown {
  if (node.nil) {
    return null;
  }
  if (node.children.length === 0 || depth > 64) {
    return node.text;
  }
  const out: Record<string, unknown> = {};
  for (const child of node.children) {
    const v = xmlPlain(child, depth + 1);
    const prev = out[child.name];
    out[child.name] = prev === undefined ? v : Array.isArray(prev) ? [...(prev as unknown[]), v] : [prev, v];
  }
  return out;
}

function convert(b: Binder, shape: Shape, raw: Raw, path: readonly (string | number)[]): unknown {
  switch (shape.kind) {
    case 'string': {
      const s = scalarOf(raw);
      return s.k === 'absent' ? undefined : s.k === 'bad' ? fail(b, path, 'InvalidValue', s.shown) : String(s.v);
    }
    case 'int': {
      const s = scalarOf(raw);
      switch (s.k) {
        case 'absent':
          return undefined;
        case 'bad':
          return fail(b, path, 'InvalidValue', s.shown);
        case 'typed':
          return typeof s.v === 'number'
            ? fromConverted(b, path, checkInteger(s.v, s16(shape).min, s16(shape).max), String(s.v))
            : fail(b, path, 'InvalidValue', String(s.v));
        case 'text':
          return fromConverted(b, path, parseInteger(s.v, s16(shape).min, s16(shape).max), s.v);
      }
      return undefined;
    }
    case 'number': {
      const s = scalarOf(raw);
      switch (s.k) {
        case 'absent':
          return undefined;
        case 'bad':
          return fail(b, path, 'InvalidValue', s.shown);
        case 'typed':
          return typeof s.v === 'number' ? s.v : fail(b, path, 'InvalidValue', String(s.v));
        case 'text':
          return fromConverted(b, path, parseNumber(s.v), s.v);
      }
      return undefined;
    }
    case 'bool': {
      const s = scalarOf(raw);
      switch (s.k) {
        case 'absent':
          return undefined;
        case 'bad':
          return fail(b, path, 'InvalidValue', s.shown);
        case 'typed':
          return typeof s.v === 'boolean'
            ? s.v
            : s.v === 1
              ? true
              : s.v === 0
                ? false
                : fail(b, path, 'InvalidValue', String(s.v));
        case 'text':
          return fromConverted(b, path, parseBoolean(s.v), s.v);
      }
      return undefined;
    }
    case 'date':
    case 'datetime': {
      const s = scalarOf(raw);
      if (s.k === 'absent') {
        return undefined;
      }
      if (s.k !== 'text') {
        return fail(b, path, 'InvalidValue', s.k === 'bad' ? s.shown : String(s.v));
      }
      const v = shape.kind === 'date' ? toDate(s.v) : toDateTime(s.v);
      return v ?? fail(b, path, 'InvalidValue', s.v);
    }
    case 'array': {
      const items = itemsOf(raw);
      if (items === 'bad') {
        return fail(b, path, 'InvalidValue', '[object]');
      }
      if (isNullRaw(raw)) {
        return undefined;
      }
      // A null element (JSON null, an empty CSV cell, an XML nil) is no element; errors name the others by their
      // index as sent, not as counted after the nulls were left out.
      const out: unknown[] = [];
      items.forEach((item, i) => {
        const v = convert(b, shape.item, item, [...path, i]);
        if (v !== undefined) {
          out.push(v);
        }
      });
      return out;
    }
    case 'object': {
      const fields = objectFieldsOf(raw);
      if (fields === 'absent') {
        return undefined;
      }
      if (fields === 'bad') {
        return fail(
          b,
          path,
          'InvalidValue',
          raw.t === 'text' || raw.t === 'cell' || raw.t === 'json' ? show(raw.v) : '[value]',
        );
      }
      return bindObject(b, shape, fields, path);
    }
    case 'record': {
      const entries = recordEntriesOf(raw);
      if (entries === 'absent') {
        return undefined;
      }
      if (entries === 'bad') {
        return fail(b, path, 'InvalidValue', '[value]');
      }
      // Keys are the sender's: `__proto__` is a key like any other.
      const out: Record<string, unknown> = {};
      for (const [key, value] of entries) {
        const v = convert(b, shape.value, value, [...path, key]);
        if (v !== undefined) {
          setOwn(out, key, v);
        }
      }
      return out;
    }
    case 'any':
      return plainOf(raw);
  }
}

/** The integer bounds of an int shape. */
function s16(shape: Extract<Shape, { kind: 'int' }>): { min: number; max: number } {
  return shape.bits === 16 ? { min: -32768, max: 32767 } : { min: -2147483648, max: 2147483647 };
}

function bindObject(
  b: Binder,
  shape: ObjectShape,
  fields: RawFields,
  path: readonly (string | number)[],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of shape.fields) {
    const entry = fields.get(f.lower);
    if (entry !== undefined) {
      const v = convert(b, f.shape, entry.raw, [...path, f.name]);
      if (v !== undefined) {
        out[f.name] = v;
      }
    }
  }
  for (const [lower, entry] of fields) {
    if (!shape.byLower.has(lower)) {
      b.unknown.push(formatPath([...path, entry.name]));
    }
  }
  return out;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let v = root;
  for (const key of path) {
    if (typeof v !== 'object' || v === null) {
      return undefined;
    }
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

const isPrefix = (prefix: readonly PropertyKey[], path: readonly PropertyKey[]): boolean =>
  prefix.length <= path.length && prefix.every((k, i) => k === path[i]);

const FIELD_CODES = new Set(['NotEmpty', 'InvalidValue', 'OutOfRange', 'TooMany']);

/**
 * Maps one zod issue to a field error (wire.md §9): missing → NotEmpty; numeric bounds → OutOfRange with both bounds;
 * too many items → TooMany; a custom issue may name its code in `params.errorCode`; anything else → InvalidValue.
 * @param issue - the zod issue
 * @param root - the request shape, for the bounds of integer fields
 * @param input - the converted request, for the offending value
 */
export function issueToFieldError(issue: z.core.$ZodIssue, root: ObjectShape, input: unknown): FieldError {
  const field = formatPath(issue.path);
  const value = valueAt(input, issue.path);
  switch (issue.code) {
    case 'invalid_type':
      if (value === undefined || value === null) {
        return fieldError('NotEmpty', field);
      }
      break;
    case 'too_small':
    case 'too_big': {
      if (issue.origin === 'number' || issue.origin === 'int' || issue.origin === 'bigint') {
        const s = shapeAt(root, issue.path);
        const min = s?.kind === 'int' ? s.min : issue.code === 'too_small' ? Number(issue.minimum) : '-∞';
        const max = s?.kind === 'int' ? s.max : issue.code === 'too_big' ? Number(issue.maximum) : '∞';
        return fieldError('OutOfRange', field, { min, max });
      }
      if (issue.code === 'too_big' && (issue.origin === 'array' || issue.origin === 'set')) {
        return fieldError('TooMany', field, { max: Number(issue.maximum) });
      }
      if (
        issue.code === 'too_small' &&
        Number(issue.minimum) <= 1 &&
        (issue.origin === 'string' || issue.origin === 'array')
      ) {
        return fieldError('NotEmpty', field);
      }
      break;
    }
    case 'custom': {
      const code: unknown = issue.params?.['errorCode'];
      if (typeof code === 'string' && FIELD_CODES.has(code)) {
        return fieldError(code as FieldError['errorCode'], field, { value: show(value) }, issue.message);
      }
      break;
    }
    case 'invalid_value':
      // A required enum left out (zod says invalid_value, not invalid_type): missing, like any other field.
      if (value === undefined || value === null) {
        return fieldError('NotEmpty', field);
      }
      break;
    case 'invalid_element':
    case 'invalid_format':
    case 'invalid_key':
    case 'invalid_union':
    case 'not_multiple_of':
    case 'unrecognized_keys':
      break;
  }
  return fieldError('InvalidValue', field, { value: value === undefined ? '' : show(value) });
}

/**
 * Binds merged raw fields to an operation's request and validates it.
 * @param op - the operation
 * @param fields - the merged raw fields
 * @param log - for the debug line naming ignored fields
 * @returns the request as zod outputs it, or a 400 outcome with every field error
 */
export function bindRequest(op: Operation, fields: RawFields, log: Logger): Result<unknown> {
  const b: Binder = { errors: [], unknown: [] };
  const input = bindObject(b, op.requestShape, fields, []);
  if (b.unknown.length > 0 && log.isLevelEnabled('debug')) {
    log.debug({ operation: op.name, fields: b.unknown }, 'unknown request fields ignored');
  }
  // A request the binder converted without error is usually already what zod would return: the compiled schema says
  // so without zod's walk and copy (src/schemas/accept.ts); anything else goes through zod.
  const parsed =
    b.errors.length === 0 && acceptanceOf(op.request)(input)
      ? { success: true as const, data: input }
      : op.request.safeParse(input);
  if (parsed.success && b.errors.length === 0) {
    return { ok: true, value: parsed.data };
  }
  const failed = b.errors.map((e) => e.path);
  const errors: { at: number; error: FieldError }[] = b.errors.map((e) => ({
    at: e.path[0] === undefined ? -1 : op.requestShape.fields.findIndex((f) => f.name === e.path[0]),
    error:
      e.code === 'OutOfRange'
        ? fieldError('OutOfRange', formatPath(e.path), rangeOf(op.requestShape, e.path))
        : fieldError('InvalidValue', formatPath(e.path), { value: e.shown }),
  }));
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      if (failed.some((p) => isPrefix(p, issue.path))) {
        continue; // the field already failed conversion, so zod sees it absent
      }
      errors.push({
        at: op.requestShape.fields.findIndex((f) => f.name === issue.path[0]),
        error: issueToFieldError(issue, op.requestShape, input),
      });
    }
  }
  errors.sort((x, y) => x.at - y.at);
  return badRequest(errors.map((e) => e.error));
}

function rangeOf(root: ObjectShape, path: readonly PropertyKey[]): { min: number; max: number } {
  const s = shapeAt(root, path);
  return s?.kind === 'int' ? { min: s.min, max: s.max } : { min: -2147483648, max: 2147483647 };
}
