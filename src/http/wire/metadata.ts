// GET /metadata (wire.md §12): one static HTML page, no scripts, rendered from the operations' schemas: per
// operation its custom and predefined routes and its request and response fields (name, type, required, rule).
import type { Operation } from './operation.js';
import type { ObjectShape, Shape } from './shape.js';

/**
 * A route served beside the operations (the FHIR facade): listed on /metadata and in /openapi from this description,
 * since it has no request DTO.
 */
export interface PlainRoute {
  /** As documented, e.g. `/fhir/CodeSystem/$lookup` (matched case-insensitively). */
  readonly path: string;
  /** The pseudo-operation its calls are authenticated, throttled and counted as. */
  readonly name: string;
  readonly summary: string;
  readonly verbs: readonly ('GET' | 'POST')[];
  /** Query parameters on GET; the same names as `parameter` entries of the POST body. */
  readonly parameters: readonly { readonly name: string; readonly required: boolean; readonly description: string }[];
  /** What a POST body is, and what a success and a failure answer are. */
  readonly body: { readonly contentType: string; readonly description: string };
  readonly success: { readonly contentType: string; readonly description: string };
  readonly failure: { readonly statuses: readonly number[]; readonly description: string };
}

const esc = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * The wire type of a shape as the metadata page and OpenAPI descriptions name it (`int`, `date`, `GemsMapItem[]`).
 * @param shape - a field's shape
 */
export function typeLabel(shape: Shape): string {
  switch (shape.kind) {
    case 'string':
    case 'number':
    case 'date':
      return shape.kind;
    case 'int':
      return shape.bits === 16 ? 'short' : 'int';
    case 'bool':
      return 'bool';
    case 'datetime':
      return 'date-time';
    case 'array':
      return `${typeLabel(shape.item)}[]`;
    case 'object':
      return shape.id ?? 'object';
    case 'record':
      return `dictionary<string, ${typeLabel(shape.value)}>`;
    case 'any':
      return 'any';
  }
}

/**
 * The rule column: description, allowed values, bounds, item limit and default.
 * @param shape - the field's shape
 * @param description - the schema description, if any
 * @param defaultValue - the default, if any
 */
export function ruleText(shape: Shape, description: string | undefined, defaultValue: unknown): string {
  const parts: string[] = [];
  if (description !== undefined) {
    parts.push(description);
  }
  if (shape.kind === 'string' && shape.values !== undefined) {
    parts.push(`One of: ${shape.values.join(', ')}.`);
  }
  if (shape.kind === 'int') {
    const full = shape.bits === 16 ? [-32768, 32767] : [-2147483648, 2147483647];
    if (shape.min !== full[0] || shape.max !== full[1]) {
      parts.push(`Between ${String(shape.min)} and ${String(shape.max)}.`);
    }
  }
  if (shape.kind === 'array' && shape.maxItems !== undefined) {
    parts.push(`At most ${String(shape.maxItems)} items.`);
  }
  if (defaultValue !== undefined) {
    parts.push(`Default: ${typeof defaultValue === 'string' ? defaultValue : JSON.stringify(defaultValue)}.`);
  }
  return parts.join(' ');
}

function fieldRows(shape: ObjectShape, prefix: string, depth: number): string {
  let rows = '';
  for (const f of shape.fields) {
    const name = `${prefix}${f.name}`;
    rows += `<tr><td><code>${esc(name)}</code></td><td>${esc(typeLabel(f.shape))}</td><td>${f.required ? 'yes' : 'no'}</td><td>${esc(ruleText(f.shape, f.description, f.defaultValue))}</td></tr>`;
    const inner = f.shape.kind === 'array' ? f.shape.item : f.shape.kind === 'record' ? f.shape.value : f.shape;
    const sep = f.shape.kind === 'array' ? '[].' : f.shape.kind === 'record' ? '{}.' : '.';
    if (inner.kind === 'object' && depth < 6 && f.name !== 'responseStatus') {
      rows += fieldRows(inner, `${name}${sep}`, depth + 1);
    }
  }
  return rows;
}

function fieldTable(title: string, shape: ObjectShape): string {
  const rows = fieldRows(shape, '', 0);
  return `<h3>${esc(title)}</h3>${
    rows === ''
      ? '<p>No fields.</p>'
      : `<table><thead><tr><th>Name</th><th>Type</th><th>Required</th><th>Rule</th></tr></thead><tbody>${rows}</tbody></table>`
  }`;
}

/**
 * The predefined routes of an operation (wire.md §2).
 * @param op - the operation
 */
export function predefinedRoutes(op: Operation): string[] {
  const action = op.oneWay ? 'oneway' : 'reply';
  return [`/api/${op.name}`, `/json/${action}/${op.name}`, `/csv/${action}/${op.name}`, `/xml/${action}/${op.name}`];
}

/**
 * Renders the metadata page.
 * @param operations - the registered operations
 * @param title - the page title
 */
export function renderMetadataPage(operations: readonly Operation[], title: string, plain: readonly PlainRoute[] = []): string {
  const ops = [...operations].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const index = ops.map((op) => `<li><a href="#${esc(op.name)}">${esc(op.name)}</a></li>`).join('');
  const sections = ops
    .map((op) => {
      const routes = [
        ...op.routes.map((r) => [r.verbs === 'any' ? 'any' : r.verbs.join(', '), r.path]),
        ...predefinedRoutes(op).map((p) => ['any', p]),
      ]
        .map(([verbs = '', path = '']) => `<tr><td>${esc(verbs)}</td><td><code>${esc(path)}</code></td></tr>`)
        .join('');
      return (
        `<section id="${esc(op.name)}"><h2>${esc(op.name)}</h2>` +
        (op.summary === undefined ? '' : `<p>${esc(op.summary)}</p>`) +
        (op.oneWay ? '<p>One-way: a successful call is answered 204 with no body.</p>' : '') +
        `<h3>Routes</h3><table><thead><tr><th>Verbs</th><th>Path</th></tr></thead><tbody>${routes}</tbody></table>` +
        fieldTable(`Request: ${op.name}`, op.requestShape) +
        fieldTable(`Response: ${op.name}Response`, op.responseShape) +
        '</section>'
      );
    })
    .join('');
  const plainSections = plain
    .map(
      (r) =>
        `<section id="${esc(r.name)}"><h2>${esc(r.path)}</h2><p>${esc(r.summary)}</p>` +
        `<h3>Routes</h3><table><thead><tr><th>Verbs</th><th>Path</th></tr></thead><tbody><tr><td>${esc(r.verbs.join(', '))}</td><td><code>${esc(r.path)}</code></td></tr></tbody></table>` +
        '<h3>Parameters</h3><table><thead><tr><th>Name</th><th>Required</th><th>Rule</th></tr></thead><tbody>' +
        r.parameters.map((p) => `<tr><td><code>${esc(p.name)}</code></td><td>${p.required ? 'yes' : 'no'}</td><td>${esc(p.description)}</td></tr>`).join('') +
        '</tbody></table>' +
        `<p>POST body (<code>${esc(r.body.contentType)}</code>): ${esc(r.body.description)}</p>` +
        `<p>Answer (<code>${esc(r.success.contentType)}</code>): ${esc(r.success.description)} ` +
        `Failures (${esc(r.failure.statuses.join(', '))}): ${esc(r.failure.description)}</p></section>`,
    )
    .join('');
  const plainIndex = plain.map((r) => `<li><a href="#${esc(r.name)}">${esc(r.path)}</a></li>`).join('');
  return (
    `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>${esc(title)}</title>` +
    '<style>body{font-family:sans-serif;margin:2em;max-width:70em}table{border-collapse:collapse;margin-bottom:1em}' +
    'td,th{border:1px solid #ccc;padding:.25em .5em;text-align:left;vertical-align:top}code{font-size:90%}</style></head>' +
    `<body><h1>${esc(title)}</h1><p>Operations: </p><ul>${index}</ul>` +
    (plain.length === 0 ? '' : `<p>FHIR R4 terminology routes: </p><ul>${plainIndex}</ul>`) +
    `${sections}${plain.length === 0 ? '' : `<h2>FHIR R4 terminology</h2>${plainSections}`}` +
    '<h2>Formats</h2>' +
    '<p>The response content type can be overridden by any of: the HTTP <code>Accept</code> header, a format suffix on the path ' +
    '(<code>.json</code>, <code>.csv</code>, <code>.xml</code>), or the query parameter <code>?format=&lt;json|csv|xml&gt;</code>.</p>' +
    '<p>JSON operations accept the query parameter <code>?callback=&lt;function_name&gt;</code> to wrap the response in a JSONP callback.</p>' +
    '<p>Also: <a href="/openapi">/openapi</a> (OpenAPI 3.1) and <a href="/types/typescript">/types/typescript</a> (DTOs for @servicestack/client).</p>' +
    '</body></html>'
  );
}
