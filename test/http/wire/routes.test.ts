// wire.md §2–3 and §14 rows: predefined reply route, one-way, slashes and case, wildcard, wrong verb, unknown Op.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { defineOperation } from '../../../src/http/wire/operation.js';
import { responseOf } from '../../../src/http/wire/response-status.js';
import { buildRouteTable, matchRoute } from '../../../src/http/wire/routes.js';
import { json, raw, startServer, type TestServer } from '../helpers.js';
import { oneWayCalls, testOperations } from '../test-operations.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer({ deps: { operations: testOperations } });
});
afterAll(async () => {
  await s.close();
});

describe('predefined routes', () => {
  test('answers /{format}/reply/{Op} for any verb with format, action and Op in any case', async () => {
    for (const method of ['POST', 'GET', 'PUT', 'DELETE', 'PATCH']) {
      const res = await fetch(`${s.base}/JSON/Reply/hello?worldParam=w`, { method });
      expect(res.status, method).toBe(200);
      expect((await json(res))['hello']).toBe('Hello, w');
    }
  });

  test('accepts syncreply and asynconeway as aliases and /api/{Op} as JSON', async () => {
    expect((await fetch(`${s.base}/json/syncreply/Hello?worldParam=w`)).status).toBe(200);
    expect((await fetch(`${s.base}/json/asynconeway/Hello?worldParam=w`)).status).toBe(204);
    const res = await fetch(`${s.base}/api/Hello?worldParam=w`);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
  });

  test('answers one-way routes 204 with an empty body and Content-Length 0', async () => {
    const before = oneWayCalls.length;
    const r = await raw(s.port, {
      method: 'POST',
      path: '/json/oneway/ProbeOneWay',
      headers: { 'Content-Type': 'application/json' },
      body: '{"note":"x"}',
    });
    expect(r.status).toBe(204);
    expect(r.body).toBe('');
    expect(r.headers['content-length']).toBe('0');
    expect(oneWayCalls.length).toBe(before + 1);
    // a one-way operation is 204 on its reply route too; any Op is 204 on a oneway route
    expect((await fetch(`${s.base}/api/ProbeOneWay`, { method: 'POST' })).status).toBe(204);
    expect((await fetch(`${s.base}/xml/oneway/Hello?worldParam=w`, { method: 'POST' })).status).toBe(204);
  });

  test('answers an unknown format, an unknown Op and a batched Op[] with a 404 NotFound envelope', async () => {
    for (const path of [
      '/jsv/reply/Hello',
      '/soap12/reply/Hello',
      '/json/reply/Nope',
      '/json/reply/Hello[]',
      '/api/Nope',
    ]) {
      const res = await fetch(`${s.base}${path}`, { method: 'POST' });
      expect(res.status, path).toBe(404);
      const body = await json(res);
      expect(body, path).toEqual({
        responseStatus: expect.objectContaining({ errorCode: 'NotFound', errors: [] }) as unknown,
      });
    }
  });

  test('answers an unknown path 404 in the negotiated format', async () => {
    const x = await fetch(`${s.base}/nope.xml`);
    expect(x.status).toBe(404);
    expect(x.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    expect(await x.text()).toContain('<ErrorResponse');
    const j = await fetch(`${s.base}/nope`);
    expect((await json(j))['responseStatus']).toMatchObject({ errorCode: 'NotFound' });
    const c = await fetch(`${s.base}/xml/reply/Nope`);
    expect(c.headers.get('content-type')).toBe('application/xml; charset=utf-8');
  });
});

describe('custom routes', () => {
  test('ignores empty segments and matches literals case-insensitively', async () => {
    for (const path of [
      '//medref//probemap/?sourceCodeCsv=A02.1',
      '/MEDREF/ProbeMap?sourceCodeCsv=A02.1',
      '/medRef/ProbeMap/?sourceCodeCsv=A02.1',
    ]) {
      const r = await raw(s.port, { path });
      expect(r.status, path).toBe(200);
    }
  });

  test('binds {var} from one segment, percent-decoded after splitting', async () => {
    const r = await fetch(`${s.base}/lookupLtd/a%2Fb`);
    expect((await json(r))['request']).toMatchObject({ search: 'a/b' });
  });

  test('treats other extensions as data and strips .json/.csv/.xml to set the reply format', async () => {
    const a = await fetch(`${s.base}/lookupLtd/S52.521A`);
    expect((await json(a))['request']).toMatchObject({ search: 'S52.521A' });
    const b = await fetch(`${s.base}/lookupLtd/knee.XML`);
    expect(b.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    expect(await b.text()).toContain('<Search>knee</Search>');
  });

  test('lets {Name*} take the rest of the path, possibly nothing, keeping its suffix', async () => {
    const empty = await fetch(`${s.base}/resource`);
    expect(await json(empty)).toEqual({ responseStatus: {} });
    const nested = await fetch(`${s.base}/resource/a/b.js`, { method: 'DELETE' });
    expect((await json(nested))['name']).toBe('a/b.js');
    const xml = await fetch(`${s.base}/resource/widget.xml`);
    expect(xml.headers.get('content-type')).toBe('application/xml; charset=utf-8');
    expect(await xml.text()).toContain('<Name>widget.xml</Name>');
  });

  test('answers a {Name*} value with a .. segment 404, also when encoded', async () => {
    for (const path of [
      '/resource/../x',
      '/resource/a/../../x',
      '/resource/..%2fx',
      '/resource/..%2F..%2Fetc%2Fpasswd',
      '/resource/..',
    ]) {
      const r = await raw(s.port, { path });
      expect(r.status, path).toBe(404);
      expect(JSON.parse(r.body)).toMatchObject({ responseStatus: { errorCode: 'NotFound' } });
    }
  });

  test('answers a wrong verb on a custom route 405 MethodNotAllowed with Allow', async () => {
    const r = await fetch(`${s.base}/medRef/ProbeMap`, { method: 'DELETE' });
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('GET, POST');
    expect(await json(r)).toEqual({
      responseStatus: {
        errorCode: 'MethodNotAllowed',
        message: "The verb 'DELETE' is not accepted on this route.",
        errors: [],
      },
    });
  });

  test('passes an Outcome from a handler through statusFor', async () => {
    const r = await fetch(`${s.base}/resource/missing`);
    expect(r.status).toBe(404);
    expect((await json(r))['responseStatus']).toMatchObject({ errorCode: 'NotFound', message: 'No such resource.' });
  });

  test('answers a path with malformed percent-encoding 404', async () => {
    expect((await raw(s.port, { path: '/lookupLtd/%E0%A4%A' })).status).toBe(404);
  });
});

describe('route specificity', () => {
  const Req = z.object({ x: z.string().optional(), rest: z.string().optional() }).meta({ id: 'ProbeRoutes' });
  const op = defineOperation({
    name: 'ProbeRoutes',
    request: Req,
    response: responseOf('ProbeRoutesResponse', {}),
    routes: [
      { path: '/a/{rest*}', verbs: 'any' },
      { path: '/a/{x}', verbs: ['GET'] },
      { path: '/a/b', verbs: ['GET'] },
      { path: '/a/b/{x}', verbs: ['POST'] },
    ],
    handler: () => ({}),
  });
  const table = buildRouteTable([op]);
  const template = (verb: string, path: string): string => {
    const m = matchRoute(table, verb, path);
    return m.kind === 'custom' ? JSON.stringify(Object.fromEntries(m.vars)) : m.kind;
  };

  test('prefers routes without a wildcard, then more literal segments', () => {
    expect(template('GET', '/a/b')).toBe('{}');
    expect(template('GET', '/a/c')).toBe('{"x":"c"}');
    expect(template('GET', '/a/b/c/d')).toBe('{"rest":"b/c/d"}');
    expect(template('POST', '/a/b/c')).toBe('{"x":"c"}');
  });

  test('falls back to a less specific route that accepts the verb', () => {
    expect(template('DELETE', '/a/c')).toBe('{"rest":"c"}');
    expect(template('PUT', '/a/b/c')).toBe('{"rest":"b/c"}');
  });
});
