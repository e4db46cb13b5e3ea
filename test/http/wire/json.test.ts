// wire.md §8–9 and §14 rows: JSON casing and nulls (golden file), the success envelope, WCF dates, the error shape.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { z } from 'zod';
import { writeJson } from '../../../src/http/wire/json.js';
import { objectShapeOf } from '../../../src/http/wire/shape.js';
import { startServer, type TestServer } from '../helpers.js';
import { ProbeMapResponse, testOperations } from '../test-operations.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer({ deps: { operations: testOperations } });
});
afterAll(async () => {
  await s.close();
});

describe('JSON output', () => {
  test('matches the golden GemsMap-like reply: schema order, spec spelling, nulls omitted, [] 0 false kept, responseStatus last', async () => {
    const res = await fetch(`${s.base}/json/reply/ProbeMap?sourceCodeCsv=A02.1`);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await res.text()).toBe(readFileSync('test/fixtures/http/probe-map.json.golden', 'utf8'));
  });

  test('writes members in declaration order whatever order the handler used, and drops undeclared ones', () => {
    const shape = objectShapeOf(ProbeMapResponse);
    expect(
      writeJson(shape, {
        responseStatus: {},
        result: [],
        request: { sourceCodeType: 'T', sourceCodeCsv: 'C' },
        stray: 1,
      }),
    ).toBe('{"request":{"sourceCodeCsv":"C","sourceCodeType":"T"},"result":[],"responseStatus":{}}');
  });

  test('string maps and lists of them (the one-call path) come out as the member-by-member writer would', () => {
    const shape = objectShapeOf(z.object({ one: z.record(z.string(), z.string()), list: z.array(z.record(z.string(), z.string())) }));
    const plain = { text: 'chest "pain"', begin: '7', odd: 'lone \ud800 here' };
    expect(writeJson(shape, { one: plain, list: [plain, Object.assign(Object.create(null) as object, { a: 'b' })] })).toBe(
      `{"one":${JSON.stringify(plain)},"list":[${JSON.stringify(plain)},{"a":"b"}]}`,
    );
    // Not plain objects: a class with toJSON, a Date, a boxed string are written member by member, never by toJSON.
    class WithToJson {
      a = 'x';
      toJSON(): string {
        return 'custom';
      }
    }
    expect(writeJson(shape, { one: new WithToJson(), list: [new WithToJson()] })).toBe('{"one":{"a":"x"},"list":[{"a":"x"}]}');
    expect(writeJson(shape, { one: new Date(0), list: [] })).toBe('{"one":{},"list":[]}');
    expect(writeJson(shape, { one: new String('ab'), list: [] })).toBe('{"one":{"0":"a","1":"b"},"list":[]}');
    // A value that is not a string goes member by member too (numbers written as numbers, nulls left out).
    expect(writeJson(shape, { one: { a: 'x', n: 1, z: null }, list: [] })).toBe('{"one":{"a":"x","n":1},"list":[]}');
  });

  test('records keep every key as a member, __proto__ included, and leave null members and undeclared fields out', () => {
    const item = z.object({ id: z.number(), desc: z.string().optional() });
    const shape = objectShapeOf(z.object({ byKey: z.record(z.string(), item), list: z.array(item), n: z.record(z.string(), z.number()) }));
    const byKey = JSON.parse('{"__proto__":{"id":1,"extra":2},"b":{"id":2,"desc":null},"c":null}') as object;
    const value = { byKey, list: [{ desc: 'd', id: 3, x: 1 }, null], n: { z: 1, a: null, 2: 2 } };
    expect(writeJson(shape, value)).toBe('{"byKey":{"__proto__":{"id":1},"b":{"id":2}},"list":[{"id":3,"desc":"d"},null],"n":{"2":2,"z":1}}');
  });

  test('strings, numbers and booleans come out exactly as JSON.stringify writes them, escapes included', () => {
    const shape = objectShapeOf(z.object({ s: z.string(), n: z.number(), b: z.boolean(), a: z.any() }));
    const strings = ['plain', '', 'quote " here', 'back\\slash', 'tab\tnew\nline', '\u0000\u001f', 'lone \ud800 high',
      'lone \udfff low', 'pair 😀', 'line\u2028sep', 'Zoë – 東京', '</script>'];
    // Long strings take the native encoder, short ones a byte loop: both, for every case.
    strings.push(...strings.map((str) => `${str.repeat(4)} and enough text to pass 32 characters`));
    const numbers = [0, -0, 1.5, -2e-7, 1e21, Number.NaN, Number.POSITIVE_INFINITY, Number.MAX_SAFE_INTEGER];
    for (const [i, str] of strings.entries()) {
      const value = { s: str, n: numbers[i % numbers.length] ?? 0, b: i % 2 === 0, a: { k: str } };
      const expected = `{"s":${JSON.stringify(str)},"n":${JSON.stringify(value.n)},"b":${String(value.b)},"a":${JSON.stringify(value.a)}}`;
      expect(writeJson(shape, value)).toBe(expected);
      expect(JSON.parse(writeJson(shape, value))).toEqual(JSON.parse(expected));
    }
  });

  test('a deeply frozen value is written once and its bytes reused; a value holding anything mutable never is', () => {
    const item = z.object({ code: z.string(), notes: z.array(z.string()) });
    const shape = objectShapeOf(z.object({ items: z.array(item) }));
    const frozen = Object.freeze({ code: 'E11.9', notes: Object.freeze(['a "note"', 'Zoë']) });
    const shallow = Object.freeze({ code: 'I10', notes: ['before'] });
    const first = writeJson(shape, { items: [frozen, shallow] });
    expect(first).toBe('{"items":[{"code":"E11.9","notes":["a \\"note\\"","Zoë"]},{"code":"I10","notes":["before"]}]}');
    shallow.notes[0] = 'after';
    expect(writeJson(shape, { items: [frozen, shallow, frozen] })).toBe(
      '{"items":[{"code":"E11.9","notes":["a \\"note\\"","Zoë"]},{"code":"I10","notes":["after"]},{"code":"E11.9","notes":["a \\"note\\"","Zoë"]}]}',
    );
  });

  test('writes non-ASCII characters as raw UTF-8', async () => {
    const res = await fetch(`${s.base}/json/reply/Hello?worldParam=${encodeURIComponent('Zoë – 東京')}`);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.toString('utf8')).toContain('"hello":"Hello, Zoë – 東京"');
    expect(bytes[0]).toBe(0x7b); // no BOM
  });

  test('every successful reply that is not one-way carries responseStatus {}', async () => {
    for (const path of ['/json/reply/Hello?worldParam=w', '/json/reply/Demo', '/api/ProbeBoard', '/lookupLtd/x']) {
      const body = (await (await fetch(`${s.base}${path}`)).json()) as Record<string, unknown>;
      expect(body['responseStatus'], path).toEqual({});
    }
  });

  test('writes Dashboard-style dates as "\\/Date(ms+0000)\\/"', async () => {
    const text = await (await fetch(`${s.base}/json/reply/ProbeBoard`)).text();
    expect(text).toMatch(/"scheduleOn":"\\\/Date\(1700000000000\+0000\)\\\/"/);
  });

  test('an error body holds responseStatus and nothing else, errors always present', async () => {
    const body = (await (await fetch(`${s.base}/json/reply/ProbeMap`)).json()) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(['responseStatus']);
    expect(Object.keys(body['responseStatus'] as object)).toEqual(['errorCode', 'message', 'errors']);
  });
});
