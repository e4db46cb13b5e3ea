// GET /openapi (wire.md §12): an OpenAPI 3.1 document from the same zod schemas, through zod's JSON Schema export.
// Components are named by schema id; paths are each custom route with its verbs plus `POST /api/{Op}`; every error
// response references the ResponseStatus schema.
import { z } from 'zod';
import type { PlainRoute } from './metadata.js';
import type { Operation } from './operation.js';
import { ResponseStatus } from './response-status.js';

type Json = Record<string, unknown>;

const ANY_VERBS = ['get', 'post', 'put', 'delete', 'patch'];
const ERROR_STATUSES: readonly [string, string][] = [
  ['400', 'Validation failed or the body could not be read'],
  ['404', 'Unknown route, operation or resource'],
  ['413', 'Body over the size limit'],
  ['415', 'Unsupported Content-Type or charset'],
  ['500', 'Internal error'],
];

/** Moves `$defs` of one exported schema into the components and points its `$ref`s there. */
function hoist(schema: Json, components: Json): Json {
  const defs = (schema['$defs'] ?? {}) as Record<string, Json>;
  const rewrite = (v: unknown): unknown => {
    if (Array.isArray(v)) {
      return v.map(rewrite);
    }
    if (typeof v === 'object' && v !== null) {
      const out: Json = {};
      for (const [k, inner] of Object.entries(v as Json)) {
        out[k] =
          k === '$ref' && typeof inner === 'string'
            ? inner.replace('#/$defs/', '#/components/schemas/')
            : rewrite(inner);
      }
      return out;
    }
    return v;
  };
  for (const [id, def] of Object.entries(defs)) {
    components[id] ??= rewrite(def);
  }
  const rest: Json = { ...schema };
  delete rest['$defs'];
  delete rest['$schema'];
  return rewrite(rest) as Json;
}

function toComponent(schema: z.core.$ZodType, components: Json): Json {
  return hoist(z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input', unrepresentable: 'any' }), components);
}

const ref = (id: string): Json => ({ $ref: `#/components/schemas/${id}` });

function responses(op: Operation): Json {
  const out: Json = op.oneWay
    ? { '204': { description: 'Success (one-way)' } }
    : { '200': { description: 'Success', content: { 'application/json': { schema: ref(`${op.name}Response`) } } } };
  for (const [status, description] of ERROR_STATUSES) {
    out[status] = {
      description,
      content: {
        'application/json': {
          schema: {
            type: 'object',
            properties: { responseStatus: ref('ResponseStatus') },
            required: ['responseStatus'],
          },
        },
      },
    };
  }
  return out;
}

/**
 * Builds the OpenAPI document.
 * @param operations - the registered operations
 * @param info - title and version of the API
 * @param info.title - the API title
 * @param info.version - the API version
 */
export function buildOpenApi(
  operations: readonly Operation[],
  info: { title: string; version: string },
  plain: readonly PlainRoute[] = [],
): Json {
  const components: Json = {};
  toComponent(ResponseStatus, components);
  const paths: Record<string, Json> = {};
  for (const op of operations) {
    toComponent(op.request, components);
    toComponent(op.response, components);
    const body = { required: false, content: { 'application/json': { schema: ref(op.name) } } };
    const summary = op.summary ?? op.name;
    paths[`/api/${op.name}`] = {
      post: { operationId: op.name, summary, tags: [op.name], requestBody: body, responses: responses(op) },
    };
    op.routes.forEach((route, i) => {
      const vars = [...route.path.matchAll(/\{([A-Za-z_][A-Za-z0-9_]*)\*?\}/g)].map((m) => m[1] ?? '');
      const path = route.path.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\*\}/g, '{$1}');
      const lowerVars = new Set(vars.map((v) => v.toLowerCase()));
      const pathParams = vars.map((name) => {
        const field = op.requestShape.byLower.get(name.toLowerCase());
        return {
          name,
          in: 'path',
          required: true,
          schema: field?.shape.kind === 'int' ? { type: 'integer' } : { type: 'string' },
        };
      });
      const queryParams = op.requestShape.fields
        .filter((f) => !lowerVars.has(f.lower))
        .map((f) => ({
          name: f.name,
          in: 'query',
          required: false,
          schema: { type: 'string' },
          description: 'Bound with the same rules as a body field.',
        }));
      const item: Json = paths[path] ?? {};
      for (const verb of route.verbs === 'any' ? ANY_VERBS : route.verbs.map((v) => v.toLowerCase())) {
        const hasBody = verb !== 'get' && verb !== 'delete';
        item[verb] = {
          operationId: `${op.name}_${verb}_${String(i)}`,
          summary,
          tags: [op.name],
          parameters: hasBody ? pathParams : [...pathParams, ...queryParams],
          ...(hasBody ? { requestBody: body } : {}),
          responses: responses(op),
        };
      }
      paths[path] = item;
    });
  }
  for (const r of plain) {
    const item: Json = {};
    const resourceOf = (contentType: string, description: string): Json => ({
      description,
      content: { [contentType]: { schema: { type: 'object', properties: { resourceType: { type: 'string' } }, required: ['resourceType'] } } },
    });
    const answers: Json = { '200': resourceOf(r.success.contentType, r.success.description) };
    for (const status of r.failure.statuses) {
      answers[String(status)] = resourceOf(r.success.contentType, r.failure.description);
    }
    for (const verb of r.verbs) {
      item[verb.toLowerCase()] = {
        operationId: `${r.name}_${verb.toLowerCase()}`,
        summary: r.summary,
        tags: ['FHIR'],
        ...(verb === 'GET'
          ? { parameters: r.parameters.map((p) => ({ name: p.name, in: 'query', required: p.required, description: p.description, schema: { type: 'string' } })) }
          : { requestBody: { required: true, ...resourceOf(r.body.contentType, r.body.description) } }),
        responses: answers,
      };
    }
    paths[r.path] = item;
  }
  return { openapi: '3.1.0', info, paths, components: { schemas: components } };
}
