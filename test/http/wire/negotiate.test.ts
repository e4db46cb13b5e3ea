// wire.md §6–7 and §14 rows: format precedence, the Accept rule, JSONP, content types and Vary.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { sanitizeCallback } from '../../../src/http/wire/negotiate.js';
import { startServer, type TestServer } from '../helpers.js';
import { testOperations } from '../test-operations.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer({ deps: { operations: testOperations } });
});
afterAll(async () => {
  await s.close();
});

const TYPES: Record<string, string> = {
  json: 'application/json; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  xml: 'application/xml; charset=utf-8',
  jsonp: 'text/javascript',
};

async function formatOf(path: string, headers: Record<string, string> = {}): Promise<string> {
  const res = await fetch(`${s.base}${path}`, { headers });
  await res.arrayBuffer();
  const type = res.headers.get('content-type');
  const found = Object.entries(TYPES).find(([, t]) => t === type);
  return found?.[0] ?? `unknown ${String(type)}`;
}

describe('format precedence: callback > ?format > suffix > Accept > route', () => {
  // Route /csv/reply (csv); ?format=xml; suffix .json; Accept: application/xml; callback → jsonp.
  const combos = Array.from({ length: 16 }, (_, i) => ({
    callback: (i & 8) !== 0,
    format: (i & 4) !== 0,
    suffix: (i & 2) !== 0,
    accept: (i & 1) !== 0,
  }));
  test.each(combos)('callback=$callback format=$format suffix=$suffix accept=$accept', async (c) => {
    const q = new URLSearchParams({ worldParam: 'w' });
    if (c.callback) {
      q.set('callback', 'cb');
    }
    if (c.format) {
      q.set('format', 'xml');
    }
    const path = `/csv/reply/Hello${c.suffix ? '.json' : ''}?${q.toString()}`;
    const expected = c.callback ? 'jsonp' : c.format ? 'xml' : c.suffix ? 'json' : c.accept ? 'xml' : 'csv';
    expect(await formatOf(path, c.accept ? { Accept: 'application/xml' } : {})).toBe(expected);
  });

  test('?format key and value are case-insensitive; other values are ignored', async () => {
    expect(await formatOf('/json/reply/Hello?worldParam=w&FORMAT=CSV')).toBe('csv');
    expect(await formatOf('/json/reply/Hello?worldParam=w&format=jsv')).toBe('json');
  });

  test('custom routes default to JSON and honour the same switches', async () => {
    expect(await formatOf('/lookupLtd/knee')).toBe('json');
    expect(await formatOf('/lookupLtd/knee', { Accept: 'text/csv' })).toBe('csv');
    expect(await formatOf('/lookupLtd/knee.csv?format=xml')).toBe('xml');
  });
});

describe('the Accept rule', () => {
  test.each([
    ['text/csv', 'csv'],
    ['text/csv, application/json', 'json'],
    ['*/*', 'json'],
    ['application/*', 'json'],
    ['text/xml', 'xml'],
    ['text/csv;q=0.5, text/html', 'csv'],
    ['application/xml, text/xml;q=0.9', 'xml'],
    ['text/csv, application/xml', 'json'],
    ['text/html', 'json'],
  ])('Accept: %s on /json/reply → %s', async (accept, expected) => {
    expect(await formatOf('/json/reply/Hello?worldParam=w', { Accept: accept })).toBe(expected);
  });

  test('the route’s own type wins when listed among others', async () => {
    expect(await formatOf('/xml/reply/Hello?worldParam=w', { Accept: 'application/json, application/xml' })).toBe(
      'xml',
    );
  });
});

describe('JSONP', () => {
  test('sanitises the callback name to [A-Za-z0-9._]', () => {
    expect(sanitizeCallback('a-b()')).toBe('a_b__');
    expect(sanitizeCallback('jQuery.cb_1')).toBe('jQuery.cb_1');
    expect(sanitizeCallback('</script><script>alert(1)</script>')).toBe('__script__script_alert_1___script_');
  });

  test('wraps the reply as name(JSON) with no semicolon, as text/javascript', async () => {
    const res = await fetch(`${s.base}/json/reply/Hello?worldParam=w&callback=${encodeURIComponent('a-b()')}`);
    expect(res.headers.get('content-type')).toBe('text/javascript');
    const body = await res.text();
    expect(body).toMatch(/^a_b__\(\{"hello":"Hello, w",.*"responseStatus":\{\}\}\)$/);
  });

  test('answers an invalid request 200 with the error envelope inside the callback', async () => {
    const res = await fetch(`${s.base}/json/reply/ProbeMap?callback=cb`);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(
      `cb({"responseStatus":{"errorCode":"NotEmpty","message":"'sourceCodeCsv' must not be empty.","errors":[{"errorCode":"NotEmpty","fieldName":"sourceCodeCsv","message":"'sourceCodeCsv' must not be empty."}]}})`,
    );
  });

  test('script characters in the callback never reach the body', async () => {
    const res = await fetch(
      `${s.base}/json/reply/Hello?worldParam=w&callback=${encodeURIComponent('alert(1);//<script>')}`,
    );
    const body = await res.text();
    expect(body.startsWith('alert_1_____script_(')).toBe(true);
    expect(body).not.toContain('<script>');
  });

  test('also answers JSONP on /xml/reply', async () => {
    expect(await formatOf('/xml/reply/Hello?worldParam=w&callback=f')).toBe('jsonp');
  });
});

describe('headers', () => {
  test('every reply carries Vary: Accept, errors included', async () => {
    for (const path of [
      '/json/reply/Hello?worldParam=w',
      '/csv/reply/Hello?worldParam=w',
      '/json/reply/Hello',
      '/nope',
      '/metadata',
      '/json/oneway/Hello?worldParam=w',
    ]) {
      const res = await fetch(`${s.base}${path}`);
      await res.arrayBuffer();
      expect(res.headers.get('vary'), path).toBe('Accept');
    }
  });

  test('errors use the format chosen for the request', async () => {
    const csv = await fetch(`${s.base}/csv/reply/ProbeMap`);
    expect(csv.status).toBe(400);
    expect(csv.headers.get('content-type')).toBe(TYPES['csv']);
    expect((await csv.text()).split('\r\n')[0]).toBe(
      'responseStatus.errorCode,responseStatus.message,responseStatus.errors',
    );
    const xml = await fetch(`${s.base}/json/reply/ProbeMap?format=xml`);
    expect(xml.status).toBe(400);
    expect(await xml.text()).toContain('<ProbeMapResponse');
  });
});
