// Reads an operation's zod schemas once into a small Shape tree: field names in declaration order, wire kinds
// (int/short, date/date-time, arrays, objects, dictionaries, free-form values), bounds, defaults and descriptions.
// Binding, the three writers, /metadata, /openapi and /types/typescript all walk this tree, so the zod schema stays
// the single source of truth.
import { z } from 'zod';
import { wireKinds } from './fields.js';

/** The wire kind of a value and what its writers and binder need to know about it. */
export type Shape =
  | { readonly kind: 'string'; readonly values?: readonly string[] }
  | { readonly kind: 'int'; readonly bits: 16 | 32; readonly min: number; readonly max: number }
  | { readonly kind: 'number' }
  | { readonly kind: 'bool' }
  | { readonly kind: 'date' }
  | { readonly kind: 'datetime'; readonly wcf: boolean }
  | { readonly kind: 'array'; readonly item: Shape; readonly maxItems?: number }
  | ObjectShape
  | { readonly kind: 'record'; readonly value: Shape }
  | { readonly kind: 'any' };

/** An object type: its fields in declaration order, with a case-insensitive index. */
export interface ObjectShape {
  readonly kind: 'object';
  /** The schema id (`GemsMapItem`), which names XML items, TypeScript classes and OpenAPI components. */
  readonly id: string | undefined;
  readonly fields: readonly FieldShape[];
  /** Fields by lower-cased name. */
  readonly byLower: ReadonlyMap<string, FieldShape>;
}

/** One member of an object type. */
export interface FieldShape {
  readonly name: string;
  readonly lower: string;
  /** The name as a JSON member prefix, `"name":`, written once here instead of once per reply. */
  readonly jsonKey: string;
  readonly shape: Shape;
  /** Neither optional nor defaulted. */
  readonly required: boolean;
  readonly description: string | undefined;
  /** The default applied when the field is absent, if any. */
  readonly defaultValue: unknown;
}

/** The parts of zod's internal definition this module reads. */
interface Def {
  readonly type: string;
  readonly format?: string;
  readonly innerType?: z.core.$ZodType;
  readonly defaultValue?: unknown;
  readonly element?: z.core.$ZodType;
  readonly shape?: Readonly<Record<string, z.core.$ZodType>>;
  readonly valueType?: z.core.$ZodType;
  readonly entries?: Readonly<Record<string, string | number>>;
  readonly values?: readonly unknown[];
  readonly in?: z.core.$ZodType;
  readonly getter?: () => z.core.$ZodType;
  readonly checks?: readonly {
    readonly _zod: { readonly def: { readonly check: string; readonly maximum?: number } };
  }[];
}

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

const defOf = (schema: z.core.$ZodType): Def => schema._zod.def;
const metaOf = (schema: z.core.$ZodType): { id?: string; description?: string } | undefined =>
  z.globalRegistry.get(schema) as { id?: string; description?: string } | undefined;

/** What wrappers (optional, default, nullable, …) around a schema say. */
interface Unwrapped {
  readonly core: z.core.$ZodType;
  readonly optional: boolean;
  readonly hasDefault: boolean;
  readonly defaultValue: unknown;
  readonly description: string | undefined;
}

function unwrap(schema: z.core.$ZodType): Unwrapped {
  let s = schema;
  let optional = false;
  let hasDefault = false;
  let defaultValue: unknown = undefined;
  let description = metaOf(s)?.description;
  for (;;) {
    const def = defOf(s);
    let next: z.core.$ZodType | undefined;
    switch (def.type) {
      case 'optional':
        optional = true;
        next = def.innerType;
        break;
      case 'default':
      case 'prefault':
        hasDefault = true;
        defaultValue = def.defaultValue;
        next = def.innerType;
        break;
      case 'nullable':
      case 'readonly':
      case 'catch':
      case 'nonoptional':
        next = def.innerType;
        break;
      case 'pipe':
        next = def.in;
        break;
      case 'lazy':
        next = def.getter?.();
        break;
      default:
        next = undefined;
    }
    if (next === undefined) {
      return { core: s, optional, hasDefault, defaultValue, description };
    }
    s = next;
    description ??= metaOf(s)?.description;
  }
}

const cache = new WeakMap<z.core.$ZodType, Shape>();

/**
 * The Shape of a zod schema (cached per schema instance).
 * @param schema - any zod schema used in a wire DTO
 */
export function shapeOf(schema: z.core.$ZodType): Shape {
  const cached = cache.get(schema);
  if (cached) {
    return cached;
  }
  const { core } = unwrap(schema);
  const def = defOf(core);
  let shape: Shape;
  switch (def.type) {
    case 'string':
      shape =
        def.format === 'date'
          ? { kind: 'date' }
          : def.format === 'datetime'
            ? { kind: 'datetime', wcf: wireKinds.get(core)?.kind === 'wcf-date' }
            : { kind: 'string' };
      break;
    case 'enum':
      shape = { kind: 'string', values: Object.values(def.entries ?? {}).map(String) };
      break;
    case 'literal':
      shape = { kind: 'string', values: (def.values ?? []).map(String) };
      break;
    case 'number': {
      const bounds = core as unknown as { minValue?: number | null; maxValue?: number | null };
      if (def.format === 'int32' || def.format === 'safeint') {
        const short = wireKinds.get(core)?.kind === 'short';
        shape = {
          kind: 'int',
          bits: short ? 16 : 32,
          min: Math.max(bounds.minValue ?? INT32_MIN, INT32_MIN),
          max: Math.min(bounds.maxValue ?? INT32_MAX, INT32_MAX),
        };
      } else {
        shape = { kind: 'number' };
      }
      break;
    }
    case 'boolean':
      shape = { kind: 'bool' };
      break;
    case 'array': {
      const max = def.checks?.find((c) => c._zod.def.check === 'max_length')?._zod.def.maximum;
      shape = {
        kind: 'array',
        item: shapeOf(def.element ?? z.unknown()),
        ...(max === undefined ? {} : { maxItems: max }),
      };
      break;
    }
    case 'record':
      shape = { kind: 'record', value: shapeOf(def.valueType ?? z.unknown()) };
      break;
    case 'object': {
      const fields: FieldShape[] = [];
      const byLower = new Map<string, FieldShape>();
      shape = { kind: 'object', id: metaOf(core)?.id ?? metaOf(schema)?.id, fields, byLower };
      cache.set(schema, shape); // before the members, so a recursive type ends
      cache.set(core, shape);
      for (const [name, member] of Object.entries(def.shape ?? {})) {
        const u = unwrap(member);
        const field: FieldShape = {
          name,
          lower: name.toLowerCase(),
          jsonKey: `${JSON.stringify(name)}:`,
          shape: shapeOf(member),
          required: !u.optional && !u.hasDefault,
          description: u.description,
          defaultValue: u.defaultValue,
        };
        fields.push(field);
        byLower.set(field.lower, field);
      }
      break;
    }
    default:
      shape = { kind: 'any' };
  }
  cache.set(schema, shape);
  return shape;
}

/**
 * The ObjectShape of an object schema.
 * @param schema - a `z.object(...)` schema, possibly wrapped
 * @throws TypeError when the schema is not an object
 */
export function objectShapeOf(schema: z.core.$ZodType): ObjectShape {
  const shape = shapeOf(schema);
  if (shape.kind !== 'object') {
    throw new TypeError(`Expected an object schema, got a ${shape.kind} schema`);
  }
  return shape;
}

/**
 * The shape at a path of field names and item indexes, or undefined when the path leaves the schema.
 * @param root - the object shape the path starts from
 * @param path - zod issue path (`['patient', 'age']`, `['cptCodes', 3]`)
 */
export function shapeAt(root: Shape, path: readonly PropertyKey[]): Shape | undefined {
  let s: Shape | undefined = root;
  for (const key of path) {
    if (s === undefined) {
      return undefined;
    }
    if (s.kind === 'object' && typeof key === 'string') {
      s = s.byLower.get(key.toLowerCase())?.shape;
    } else if (s.kind === 'array' && typeof key === 'number') {
      s = s.item;
    } else if (s.kind === 'record') {
      s = s.value;
    } else {
      return undefined;
    }
  }
  return s;
}

/**
 * Upper-cases the first letter (`sourceCodeCsv` → `SourceCodeCsv`), the XML and DataContract member name.
 * @param name - a camelCase field name
 */
export function pascal(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}
