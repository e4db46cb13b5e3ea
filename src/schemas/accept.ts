// A fast yes for values a zod schema accepts as they are. The claim readers build hundreds of thousands of claims a
// minute, each already in the claim model's shape; `safeParse` re-walks every one and copies every object and array
// (about 9 us and most of the readers' garbage per claim). `compileAcceptance` reads the schema's definition once
// and returns a predicate that says "zod would accept this value and return an equal value, same members in the
// same order": then the value itself is the parse result. When the predicate says no (a wrong value, an unknown or
// out-of-order member, a schema feature it does not know), the caller runs zod, which stays the one judge of what is
// valid and the one source of the error message.
import type { z } from 'zod';

/** `value` is, as it stands, what the schema would return for it. */
export type Acceptance = (value: unknown) => boolean;

/** The parts of zod's internal definition this module reads. */
interface Def {
  readonly type: string;
  readonly format?: string;
  readonly pattern?: RegExp;
  readonly innerType?: z.core.$ZodType;
  readonly element?: z.core.$ZodType;
  readonly shape?: Readonly<Record<string, z.core.$ZodType>>;
  readonly catchall?: z.core.$ZodType;
  readonly checks?: readonly { readonly _zod: { readonly def: CheckDef } }[];
}

interface CheckDef {
  readonly check: string;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly value?: number;
  readonly inclusive?: boolean;
  readonly format?: string;
  readonly pattern?: RegExp;
}

const never: Acceptance = () => false;

/** A compiled schema: the predicate, and the parts of the schema it does not understand (it says no for them). */
export interface CompiledAcceptance {
  readonly accepts: Acceptance;
  /** Paths (`lines[].units`) and kinds of the schema parts that compiled to "no"; empty when the schema is fully understood. */
  readonly gaps: readonly string[];
}

/**
 * Compiles a zod schema into an {@link Acceptance}. Understood: objects (zod's default strip mode, no object-level
 * checks), optional members, arrays, strings (and the ISO date format), numbers and safe integers, booleans, enums,
 * and the length, bound and regex checks on them. Anything else (refinements, transforms, defaults, unions...)
 * compiles to a predicate that always says no, listed in `gaps`, so the caller falls back to zod and loses only
 * speed.
 */
export function compileAcceptance(schema: z.core.$ZodType): CompiledAcceptance {
  const gaps: string[] = [];
  return { accepts: compile(schema, '', gaps), gaps };
}

/** Schemas compiled by {@link acceptanceOf}. */
const compiled = new WeakMap<z.core.$ZodType, Acceptance>();

/** The predicate of a schema, compiled on first use and kept while the schema lives. */
export function acceptanceOf(schema: z.core.$ZodType): Acceptance {
  let accepts = compiled.get(schema);
  if (accepts === undefined) {
    accepts = compileAcceptance(schema).accepts;
    compiled.set(schema, accepts);
  }
  return accepts;
}

function compile(schema: z.core.$ZodType, path: string, gaps: string[]): Acceptance {
  const def = schema._zod.def as Def;
  const gap = (what: string): Acceptance => {
    gaps.push(`${path || '(root)'}: ${what}`);
    return never;
  };
  switch (def.type) {
    case 'object':
      // An object-level check (refine, superRefine) is a rule the predicate cannot know.
      return def.catchall !== undefined || def.shape === undefined || (def.checks?.length ?? 0) > 0
        ? gap('object with a catch-all or checks')
        : objectAcceptance(def.shape, path, gaps);
    case 'array': {
      const bounds = checksOf(def);
      return def.element === undefined || bounds === undefined
        ? gap('array check')
        : arrayAcceptance(compile(def.element, `${path}[]`, gaps), bounds);
    }
    case 'string': {
      const bounds = checksOf(def);
      if (bounds === undefined || (def.format !== undefined && def.format !== 'date')) {
        return gap(`string check or format ${def.format ?? ''}`);
      }
      const patterns = def.format === undefined ? bounds.patterns : [...bounds.patterns, def.pattern];
      const tests = patterns.filter((p): p is RegExp => p !== undefined && !p.global && !p.sticky);
      return tests.length < patterns.length ? gap('string pattern') : stringAcceptance(bounds, tests);
    }
    case 'number': {
      const bounds = checksOf(def);
      return bounds === undefined || (def.format !== undefined && def.format !== 'safeint')
        ? gap(`number check or format ${def.format ?? ''}`)
        : numberAcceptance(bounds, def.format === 'safeint');
    }
    case 'boolean':
      return checksOf(def) !== undefined && (def.checks?.length ?? 0) === 0
        ? (value) => typeof value === 'boolean'
        : gap('boolean check');
    case 'enum': {
      // zod's own set of the enum's values (a TypeScript numeric enum's reverse-mapped names left out).
      const values = (schema._zod as { readonly values?: unknown }).values;
      return values instanceof Set && checksOf(def) !== undefined ? enumAcceptance(values) : gap('enum');
    }
    default:
      return gap(def.type);
  }
}

/** One member of an object, in the schema's order. */
interface Member {
  readonly key: string;
  readonly optional: boolean;
  readonly accepts: Acceptance;
}

function objectAcceptance(
  shape: Readonly<Record<string, z.core.$ZodType>>,
  path: string,
  gaps: string[],
): Acceptance {
  const members: Member[] = Object.entries(shape).map(([key, schema]) => {
    const d = schema._zod.def as Def;
    const optional = d.type === 'optional' && d.innerType !== undefined;
    const at = path === '' ? key : `${path}.${key}`;
    return { key, optional, accepts: compile(optional ? (d.innerType ?? schema) : schema, at, gaps) };
  });
  const count = members.length;
  return (value) => {
    if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype) {
      return false;
    }
    const record = value as Record<string, unknown>;
    // The value's own members must be schema members, in the schema's order (zod's output order), none undefined;
    // the schema's required members must all be there.
    let next = 0;
    for (const key in record) {
      while (next < count && members[next]!.key !== key) {
        if (!members[next]!.optional) {
          return false;
        }
        next++;
      }
      if (next === count) {
        return false;
      }
      const v = record[key];
      if (v === undefined || !members[next]!.accepts(v)) {
        return false;
      }
      next++;
    }
    for (; next < count; next++) {
      if (!members[next]!.optional) {
        return false;
      }
    }
    return true;
  };
}

function arrayAcceptance(element: Acceptance, bounds: Bounds): Acceptance {
  const { minLength, maxLength } = bounds;
  return (value) => {
    if (!Array.isArray(value) || value.length < minLength || value.length > maxLength) {
      return false;
    }
    for (let i = 0; i < value.length; i++) {
      if (!element(value[i])) {
        return false;
      }
    }
    return true;
  };
}

/** @param tests - the check patterns, and the format's own (z.iso.date()) */
function stringAcceptance(bounds: Bounds, tests: readonly RegExp[]): Acceptance {
  const { minLength, maxLength } = bounds;
  if (tests.length === 0) {
    return (value) => typeof value === 'string' && value.length >= minLength && value.length <= maxLength;
  }
  // The last value that passed the patterns: claims repeat their dates, places of service and modifiers.
  let passed: string | undefined;
  return (value) => {
    if (typeof value !== 'string' || value.length < minLength || value.length > maxLength) {
      return false;
    }
    if (value === passed) {
      return true;
    }
    for (let i = 0; i < tests.length; i++) {
      if (!tests[i]!.test(value)) {
        return false;
      }
    }
    passed = value;
    return true;
  };
}

function numberAcceptance(bounds: Bounds, integer: boolean): Acceptance {
  const { low, lowInclusive, high, highInclusive } = bounds;
  return (value) =>
    typeof value === 'number' &&
    (integer ? Number.isSafeInteger(value) : Number.isFinite(value)) &&
    (lowInclusive ? value >= low : value > low) &&
    (highInclusive ? value <= high : value < high);
}

function enumAcceptance(values: ReadonlySet<unknown>): Acceptance {
  return (value) => values.has(value);
}

/** What a schema's checks ask, or undefined when one of them is of a kind not understood here. */
interface Bounds {
  readonly minLength: number;
  readonly maxLength: number;
  readonly low: number;
  readonly lowInclusive: boolean;
  readonly high: number;
  readonly highInclusive: boolean;
  readonly patterns: readonly (RegExp | undefined)[];
}

function checksOf(def: Def): Bounds | undefined {
  let minLength = 0;
  let maxLength = Infinity;
  let low = -Infinity;
  let lowInclusive = true;
  let high = Infinity;
  let highInclusive = true;
  const patterns: (RegExp | undefined)[] = [];
  for (const check of def.checks ?? []) {
    const c = check._zod.def;
    switch (c.check) {
      case 'min_length':
        minLength = Math.max(minLength, c.minimum ?? 0);
        break;
      case 'max_length':
        maxLength = Math.min(maxLength, c.maximum ?? Infinity);
        break;
      case 'length_equals':
        return undefined;
      case 'greater_than':
        if (c.value === undefined) {
          return undefined;
        }
        if (c.value > low || (c.value === low && c.inclusive !== true)) {
          low = c.value;
          lowInclusive = c.inclusive === true;
        }
        break;
      case 'less_than':
        if (c.value === undefined) {
          return undefined;
        }
        if (c.value < high || (c.value === high && c.inclusive !== true)) {
          high = c.value;
          highInclusive = c.inclusive === true;
        }
        break;
      case 'string_format':
        if (c.format !== 'regex') {
          return undefined;
        }
        patterns.push(c.pattern);
        break;
      default:
        return undefined;
    }
  }
  return { minLength, maxLength, low, lowInclusive, high, highInclusive, patterns };
}
