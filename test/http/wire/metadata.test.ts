// wire.md §12 and the §14 metadata row: /metadata HTML, /openapi 3.1, /types/typescript (compiled with tsc and
// compared byte for byte with the committed test/fixtures/dtos.ts; UPDATE_DTOS=1 rewrites that file).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { allOperations } from '../../../src/http/operations/index.js';
import { renderTypeScriptDtos } from '../../../src/http/wire/typescript.js';
import { raw, startServer, type TestServer } from '../helpers.js';
import { testOperations } from '../test-operations.js';

const FIXED_NOW = new Date('2025-01-01T00:00:00Z');
let s: TestServer;
let product: TestServer;
beforeAll(async () => {
  s = await startServer({ deps: { operations: testOperations } });
  product = await startServer({ deps: { now: () => FIXED_NOW } });
});
afterAll(async () => {
  await s.close();
  await product.close();
});

describe('/metadata', () => {
  test('is static HTML without scripts listing every operation with routes and fields', async () => {
    const res = await fetch(`${s.base}/metadata`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const html = await res.text();
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html).not.toMatch(/<script/i);
    for (const op of testOperations) {
      expect(html).toContain(`<section id="${op.name}">`);
      expect(html).toContain(`<code>/json/${op.oneWay ? 'oneway' : 'reply'}/${op.name}</code>`);
    }
    expect(html).toContain('<tr><td>GET, POST</td><td><code>/lookupLtd/{search}</code></td></tr>');
    expect(html).toContain(
      '<tr><td><code>worldParam</code></td><td>string</td><td>yes</td><td>Who to greet.</td></tr>',
    );
    expect(html).toContain(
      '<tr><td><code>endRow</code></td><td>int</td><td>no</td><td>Between 1 and 200. Default: 10.</td></tr>',
    );
    expect(html).toContain('<tr><td><code>result[].sourceCode</code></td><td>string</td><td>yes</td>');
    expect(html).toContain(
      'The response content type can be overridden by any of: the HTTP <code>Accept</code> header',
    );
    expect(html).toContain('to wrap the response in a JSONP callback.');
  });

  test('/metadata/ redirects to /metadata; other verbs are 405', async () => {
    const r = await raw(s.port, { path: '/metadata/' });
    expect(r.status).toBe(301);
    expect(r.headers.location).toBe('/metadata');
    const post = await fetch(`${s.base}/metadata`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });
});

describe('/openapi', () => {
  test('is a valid-looking OpenAPI 3.1 document whose references all resolve', async () => {
    const res = await fetch(`${s.base}/openapi`);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    const doc = (await res.json()) as {
      openapi: string;
      info: { title: string; version: string };
      paths: Record<
        string,
        Record<
          string,
          {
            operationId: string;
            parameters?: { name: string; in: string }[];
            responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
          }
        >
      >;
      components: { schemas: Record<string, unknown> };
    };
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.title).toBeTruthy();
    const schemas = doc.components.schemas;
    for (const id of [
      'ResponseStatus',
      'ResponseError',
      'Hello',
      'HelloResponse',
      'ProbeMapItem',
      'ProbeMap',
      'ProbeMapResponse',
    ]) {
      expect(schemas[id], id).toBeDefined();
    }
    const refs: string[] = [];
    const walk = (v: unknown): void => {
      if (Array.isArray(v)) {
        v.forEach(walk);
      } else if (typeof v === 'object' && v !== null) {
        for (const [k, inner] of Object.entries(v)) {
          if (k === '$ref') {
            refs.push(String(inner));
          } else {
            walk(inner);
          }
        }
      }
    };
    walk(doc);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) {
      expect(ref).toMatch(/^#\/components\/schemas\//);
      expect(schemas[ref.slice('#/components/schemas/'.length)], ref).toBeDefined();
    }
    const ids = new Set<string>();
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [verb, op] of Object.entries(item)) {
        expect(['get', 'post', 'put', 'delete', 'patch']).toContain(verb);
        expect(ids.has(op.operationId)).toBe(false);
        ids.add(op.operationId);
        for (const name of [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1])) {
          expect(
            op.parameters?.some((p) => p.in === 'path' && p.name === name),
            `${verb} ${path} ${String(name)}`,
          ).toBe(true);
        }
        for (const [status, response] of Object.entries(op.responses)) {
          if (Number(status) >= 400 && !path.startsWith('/fhir/')) {
            expect(JSON.stringify(response.content?.['application/json']?.schema)).toContain(
              '#/components/schemas/ResponseStatus',
            );
          }
        }
      }
    }
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/Hello',
        '/lookupLtd',
        '/lookupLtd/{search}',
        '/resource/{Name}',
        '/medRef/ProbeMap',
      ]),
    );
    expect(Object.keys(doc.paths['/resource/{Name}'] ?? {})).toEqual(['get', 'post', 'put', 'delete', 'patch']);
    expect(Object.keys(doc.paths['/medRef/ProbeMap'] ?? {})).toEqual(['get', 'post']);
    expect(doc.paths['/api/ProbeOneWay']?.['post']?.responses['204']).toBeDefined();
  });
});

describe('the FHIR facade on /metadata and /openapi', () => {
  test('lists each FHIR route with its verbs and parameters, and each listed route answers (never 404)', async () => {
    const html = await (await fetch(`${product.base}/metadata`)).text();
    const doc = (await (await fetch(`${product.base}/openapi`)).json()) as {
      paths: Record<string, Record<string, { parameters?: { name: string; in: string; required: boolean }[]; requestBody?: { content: Record<string, unknown> }; responses: Record<string, { content: Record<string, unknown> }> }>>;
    };
    const fhirPaths = Object.keys(doc.paths).filter((p) => p.startsWith('/fhir/'));
    expect(fhirPaths.sort()).toEqual(['/fhir/CodeSystem/$lookup', '/fhir/CodeSystem/$validate-code', '/fhir/ConceptMap/$translate']);
    for (const path of fhirPaths) {
      expect(html).toContain(`<tr><td>GET, POST</td><td><code>${path}</code></td></tr>`);
      const item = doc.paths[path] ?? {};
      expect(Object.keys(item)).toEqual(['get', 'post']);
      expect(item['get']?.parameters?.filter((p) => p.required).map((p) => p.name)).toEqual(
        path === '/fhir/CodeSystem/$validate-code' ? ['url', 'code'] : ['system', 'code'],
      );
      expect(Object.keys(item['post']?.requestBody?.content ?? {})).toEqual(['application/fhir+json']);
      expect(Object.keys(item['get']?.responses['400']?.content ?? {})).toEqual(['application/fhir+json']);
      // The route is real: this server has no reference database, so it answers 503, not the facade's 404.
      const res = await fetch(`${product.base}${path}?system=x&code=y`);
      expect(res.status, path).toBe(503);
      expect(((await res.json()) as { resourceType: string }).resourceType).toBe('OperationOutcome');
    }
    expect((await fetch(`${product.base}/fhir/CodeSystem/$nothing`)).status).toBe(404);
    expect(html).toContain('<tr><td><code>targetsystem</code></td><td>no</td><td>The other side of the GEM, when given.</td></tr>');
  });
});

describe('/types/typescript', () => {
  test('matches the committed test/fixtures/dtos.ts byte for byte', async () => {
    const res = await fetch(`${product.base}/types/typescript`);
    expect(res.status).toBe(200);
    const text = await res.text();
    if (process.env['UPDATE_DTOS'] === '1') {
      writeFileSync('test/fixtures/dtos.ts', text);
    }
    expect(text).toBe(readFileSync('test/fixtures/dtos.ts', 'utf8'));
    expect(text).toContain('Date: 2025-01-01 00:00:00\nVersion: 0.1.0\n');
    expect(text).toContain('BaseUrl: http://localhost:8080\n');
  });

  test('compiles with tsc --noEmit --strict, for the product operations and for every field kind', () => {
    const dir = mkdtempSync(join(tmpdir(), 'dtos-'));
    try {
      writeFileSync(
        join(dir, 'probe-dtos.ts'),
        renderTypeScriptDtos(testOperations, { date: FIXED_NOW, version: '0', baseUrl: 'http://x' }),
      );
      writeFileSync(
        join(dir, 'product-dtos.ts'),
        renderTypeScriptDtos(allOperations, { date: FIXED_NOW, version: '0', baseUrl: 'http://x' }),
      );
      const tsc = spawnSync(
        process.execPath,
        [
          'node_modules/typescript/bin/tsc',
          '--ignoreConfig',
          '--noEmit',
          '--strict',
          '--exactOptionalPropertyTypes',
          '--noUnusedLocals',
          '--target',
          'ES2022',
          '--module',
          'NodeNext',
          '--moduleResolution',
          'NodeNext',
          '--types',
          'node',
          'test/fixtures/dtos.ts',
          join(dir, 'probe-dtos.ts'),
          join(dir, 'product-dtos.ts'),
        ],
        { encoding: 'utf8' },
      );
      expect(tsc.stdout + tsc.stderr).toBe('');
      expect(tsc.status).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('declares one-way operations with IReturnVoid and every field optional', () => {
    const text = renderTypeScriptDtos(testOperations, { date: FIXED_NOW, version: '0', baseUrl: 'http://x' });
    expect(text).toContain('export class ProbeOneWay implements IReturnVoid {');
    expect(text).toContain('  public createResponse(): void {}\n');
    expect(text).toContain('  public cptIcdMapping?: { [index: string]: string[] };\n');
    expect(text).toContain('  public result?: ProbeMapItem[];\n');
    expect(text).toContain('export class ProbeMapItem {');
    expect(text).not.toMatch(/public \w+: /);
  });
});
