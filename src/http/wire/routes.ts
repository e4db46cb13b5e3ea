// Routing (wire.md §2–3): predefined routes `/{format}/{reply|oneway}/{Op}` and `/api/{Op}`, custom routes with
// `{var}` and a final `{Name*}`, and the metadata pages. Paths are split on `/` with empty segments dropped, a final
// `.json`/`.csv`/`.xml` is stripped and becomes the suffix format, and segments are percent-decoded after splitting.
import type { Operation, ReplyFormat } from './operation.js';

/** The metadata pages served besides the operations (wire.md §12). */
export type BuiltinPage = 'metadata' | 'metadata-redirect' | 'openapi' | 'typescript';

/** Where a request goes. `suffix` is the format named by a path suffix, if any. */
export type RouteMatch =
  | {
      readonly kind: 'predefined';
      readonly operation: Operation;
      /** The route as a template for the access log: `/json/reply/CodeValidate`, `/api/CodeValidate`. */
      readonly route: string;
      readonly routeFormat: ReplyFormat;
      readonly oneWay: boolean;
      readonly suffix: ReplyFormat | undefined;
    }
  | {
      readonly kind: 'custom';
      readonly operation: Operation;
      /** The operation's route template that matched (`/codes/{codeSet}`). */
      readonly route: string;
      readonly vars: ReadonlyMap<string, string>;
      readonly suffix: ReplyFormat | undefined;
    }
  | { readonly kind: 'builtin'; readonly page: BuiltinPage; readonly route: string }
  | {
      readonly kind: 'notAllowed';
      readonly allow: readonly string[];
      readonly routeFormat: ReplyFormat;
      readonly suffix: ReplyFormat | undefined;
    }
  | {
      readonly kind: 'notFound';
      readonly routeFormat: ReplyFormat;
      readonly suffix: ReplyFormat | undefined;
      readonly message: string;
    };

type Segment = { readonly lit: string } | { readonly name: string; readonly wild: boolean };

interface CompiledRoute {
  readonly operation: Operation;
  readonly template: string;
  readonly segments: readonly Segment[];
  readonly literals: number;
  readonly wildcard: boolean;
  readonly verbs: ReadonlySet<string> | 'any';
}

/** The compiled routes of a set of operations. */
export interface RouteTable {
  /** Operations by lower-cased name. */
  readonly operations: ReadonlyMap<string, Operation>;
  /** Custom routes, most specific first: no wildcard before wildcard, then more literal segments first. */
  readonly custom: readonly CompiledRoute[];
  /**
   * Predefined-route answers by verb and path, so the paths clients repeat skip splitting and decoding. Bounded:
   * once full, new paths are matched without being remembered (arbitrary casing cannot grow it).
   */
  readonly remembered: Map<string, RouteMatch>;
}

const MAX_REMEMBERED_ROUTES = 1024;

const FORMATS: ReadonlyMap<string, ReplyFormat> = new Map([
  ['json', 'json'],
  ['csv', 'csv'],
  ['xml', 'xml'],
]);
const ACTIONS: ReadonlyMap<string, boolean> = new Map([
  ['reply', false],
  ['syncreply', false],
  ['oneway', true],
  ['asynconeway', true],
]);
const SUFFIX = /\.(json|csv|xml)$/i;
const BUILTINS: ReadonlyMap<string, BuiltinPage> = new Map([
  ['metadata', 'metadata'],
  ['openapi', 'openapi'],
  ['types/typescript', 'typescript'],
]);

function compileRoute(operation: Operation, template: string, verbs: readonly string[] | 'any'): CompiledRoute {
  const parts = template.split('/').filter((p) => p !== '');
  const segments = parts.map((p, i): Segment => {
    const m = /^\{([A-Za-z_][A-Za-z0-9_]*)(\*)?\}$/.exec(p);
    if (!m) {
      if (/[{}]/.test(p)) {
        throw new TypeError(`Operation ${operation.name}: malformed route segment "${p}" in "${template}"`);
      }
      return { lit: p.toLowerCase() };
    }
    const wild = m[2] === '*';
    if (wild && i !== parts.length - 1) {
      throw new TypeError(`Operation ${operation.name}: {${m[1] ?? ''}*} must be the last segment of "${template}"`);
    }
    return { name: m[1] ?? '', wild };
  });
  return {
    operation,
    template,
    segments,
    literals: segments.filter((s) => 'lit' in s).length,
    wildcard: segments.some((s) => 'wild' in s && s.wild),
    verbs: verbs === 'any' ? 'any' : new Set(verbs.map((v) => v.toUpperCase())),
  };
}

/**
 * Compiles the routes of the operations.
 * @param operations - the registered operations
 * @throws TypeError on a duplicate operation name or a malformed route template
 */
export function buildRouteTable(operations: readonly Operation[]): RouteTable {
  const byName = new Map<string, Operation>();
  const custom: CompiledRoute[] = [];
  for (const op of operations) {
    const key = op.name.toLowerCase();
    if (byName.has(key)) {
      throw new TypeError(`Operation ${op.name} is registered twice`);
    }
    byName.set(key, op);
    for (const r of op.routes) {
      custom.push(compileRoute(op, r.path, r.verbs));
    }
  }
  custom.sort((a, b) => Number(a.wildcard) - Number(b.wildcard) || b.literals - a.literals);
  return { operations: byName, custom, remembered: new Map() };
}

/** A path split into decoded segments, with its suffix format and the suffix as written. */
interface SplitPath {
  readonly segments: readonly string[];
  readonly suffix: ReplyFormat | undefined;
  readonly suffixText: string;
}

function splitPath(path: string): SplitPath | undefined {
  const raw = path.split('/').filter((p) => p !== '');
  let suffix: ReplyFormat | undefined;
  let suffixText = '';
  const last = raw.at(-1);
  if (last !== undefined) {
    const m = SUFFIX.exec(last);
    if (m) {
      suffixText = m[0];
      suffix = FORMATS.get((m[1] ?? '').toLowerCase());
      const rest = last.slice(0, -suffixText.length);
      if (rest === '') {
        raw.pop();
      } else {
        raw[raw.length - 1] = rest;
      }
    }
  }
  try {
    return { segments: raw.map((s) => decodeURIComponent(s)), suffix, suffixText };
  } catch {
    return undefined; // malformed percent-encoding cannot name any route
  }
}

function matchCustom(route: CompiledRoute, split: SplitPath): Map<string, string> | undefined {
  const { segments } = split;
  const vars = new Map<string, string>();
  for (let i = 0; i < route.segments.length; i++) {
    const seg = route.segments[i];
    if (seg === undefined) {
      return undefined;
    }
    if ('wild' in seg && seg.wild) {
      const rest = segments.slice(i);
      // ServiceStack keeps the suffix in a wildcard value: /resource/widget.xml → widget.xml, with an XML reply.
      const value = rest.join('/') + (rest.length > 0 ? split.suffixText : '');
      if (value.split(/[/\\]/).includes('..')) {
        return undefined;
      }
      if (value !== '') {
        vars.set(seg.name, value);
      }
      return vars;
    }
    const actual = segments[i];
    if (actual === undefined) {
      return undefined;
    }
    if ('lit' in seg) {
      if (actual.toLowerCase() !== seg.lit) {
        return undefined;
      }
    } else {
      vars.set(seg.name, actual);
    }
  }
  return segments.length === route.segments.length ? vars : undefined;
}

/**
 * Finds where a request goes.
 * @param table - the compiled routes
 * @param verb - the upper-case HTTP verb
 * @param path - the request path without the query string, still percent-encoded
 */
export function matchRoute(table: RouteTable, verb: string, path: string): RouteMatch {
  const id = `${verb} ${path}`;
  const known = table.remembered.get(id);
  if (known !== undefined) {
    return known;
  }
  const match = matchPath(table, verb, path);
  if (match.kind === 'predefined' && table.remembered.size < MAX_REMEMBERED_ROUTES) {
    table.remembered.set(id, match);
  }
  return match;
}

function matchPath(table: RouteTable, verb: string, path: string): RouteMatch {
  const split = splitPath(path);
  if (split === undefined) {
    return { kind: 'notFound', routeFormat: 'json', suffix: undefined, message: `No route matches '${path}'.` };
  }
  const { segments, suffix } = split;
  const lower = segments.map((s) => s.toLowerCase());

  // Metadata pages.
  if (suffix === undefined) {
    const page = BUILTINS.get(lower.join('/'));
    if (page !== undefined) {
      if (verb !== 'GET' && verb !== 'HEAD') {
        return { kind: 'notAllowed', allow: ['GET', 'HEAD'], routeFormat: 'json', suffix };
      }
      const route = `/${lower.join('/')}`;
      return { kind: 'builtin', page: page === 'metadata' && path.endsWith('/') ? 'metadata-redirect' : page, route };
    }
  }

  // Predefined routes: /{format}/{action}/{Op} and /api/{Op}.
  let routeFormat: ReplyFormat = 'json';
  if (lower.length === 2 && lower[0] === 'api') {
    const op = table.operations.get(lower[1] ?? '');
    if (op) {
      return { kind: 'predefined', operation: op, route: `/api/${op.name}`, routeFormat, oneWay: false, suffix };
    }
    return { kind: 'notFound', routeFormat, suffix, message: `Unknown operation '${segments[1] ?? ''}'.` };
  }
  if (lower.length === 3) {
    const format = FORMATS.get(lower[0] ?? '');
    const oneWay = ACTIONS.get(lower[1] ?? '');
    if (format !== undefined && oneWay !== undefined) {
      routeFormat = format;
      const op = table.operations.get(lower[2] ?? '');
      if (op) {
        const route = `/${lower[0] ?? ''}/${lower[1] ?? ''}/${op.name}`;
        return { kind: 'predefined', operation: op, route, routeFormat, oneWay, suffix };
      }
      return { kind: 'notFound', routeFormat, suffix, message: `Unknown operation '${segments[2] ?? ''}'.` };
    }
  }

  // Custom routes, most specific first; a path that matches only with other verbs is a 405.
  const allow = new Set<string>();
  for (const route of table.custom) {
    const vars = matchCustom(route, split);
    if (vars === undefined) {
      continue;
    }
    if (route.verbs === 'any' || route.verbs.has(verb)) {
      return { kind: 'custom', operation: route.operation, route: route.template, vars, suffix };
    }
    for (const v of route.verbs) {
      allow.add(v);
    }
  }
  if (allow.size > 0) {
    return { kind: 'notAllowed', allow: [...allow], routeFormat, suffix };
  }
  return { kind: 'notFound', routeFormat, suffix, message: `No route matches '${path}'.` };
}
