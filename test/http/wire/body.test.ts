// wire.md §5 and the bad-input rows of §14: malformed JSON/XML/CSV, DOCTYPE and entities, size and type limits.
// Every case is followed by a good request on the same server, which must still be served.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { json, raw, startServer, type TestServer } from '../helpers.js';
import { testOperations } from '../test-operations.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer({ deps: { operations: testOperations } });
});
afterAll(async () => {
  await s.close();
});

async function stillServes(): Promise<void> {
  const res = await fetch(`${s.base}/api/Hello?worldParam=still`);
  expect(res.status).toBe(200);
  expect((await json(res))['hello']).toBe('Hello, still');
}

async function post(
  path: string,
  body: string | Buffer,
  headers: Record<string, string> = {},
): Promise<{ status: number; rs: Record<string, unknown> }> {
  const r = await raw(s.port, { method: 'POST', path, body, headers });
  return { status: r.status, rs: (JSON.parse(r.body) as { responseStatus: Record<string, unknown> }).responseStatus };
}

describe('unreadable bodies are 400 SerializationException', () => {
  test.each([
    ['malformed JSON', '/json/reply/Hello', '{"worldParam": "x"'],
    ['a JSON array at the top level', '/json/reply/Hello', '[{"worldParam":"x"}]'],
    ['a JSON string at the top level', '/json/reply/Hello', '"x"'],
    ['malformed XML', '/xml/reply/Hello?format=json', '<Hello><WorldParam>x</Hello>'],
    ['an undefined XML entity', '/xml/reply/Hello?format=json', '<Hello><WorldParam>&nope;</WorldParam></Hello>'],
    ['malformed CSV', '/csv/reply/Hello?format=json', 'worldParam\r\n"unclosed\r\n'],
    ['invalid UTF-8', '/json/reply/Hello', Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d])],
  ])('%s', async (_name, path, body) => {
    const r = await post(path, body);
    expect(r.status).toBe(400);
    expect(r.rs['errorCode']).toBe('SerializationException');
    expect(r.rs['errors']).toEqual([]);
    await stillServes();
  });

  test('a CSV body without exactly one data row is 400 InvalidValue', async () => {
    for (const body of ['worldParam\r\n', 'worldParam\r\na\r\nb\r\n']) {
      const r = await post('/csv/reply/Hello?format=json', body);
      expect(r.status).toBe(400);
      expect(r.rs['errorCode']).toBe('InvalidValue');
    }
    await stillServes();
  });
});

describe('XML safety', () => {
  test('a DOCTYPE with an external entity is rejected and nothing is resolved', async () => {
    const body =
      '<?xml version="1.0"?><!DOCTYPE Hello [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><Hello><WorldParam>&xxe;</WorldParam></Hello>';
    const r = await post('/xml/reply/Hello?format=json', body);
    expect(r.status).toBe(400);
    expect(r.rs['errorCode']).toBe('SerializationException');
    expect(JSON.stringify(r.rs)).not.toContain('root:');
    await stillServes();
  });

  test('billion laughs is rejected at the DOCTYPE', async () => {
    const lol = [
      '<!ENTITY lol "lol">',
      ...Array.from(
        { length: 9 },
        (_, i) => `<!ENTITY lol${String(i + 1)} "${`&lol${i === 0 ? '' : String(i)};`.repeat(10)}">`,
      ),
    ];
    const body = `<?xml version="1.0"?><!DOCTYPE lolz [${lol.join('')}]><Hello><WorldParam>&lol9;</WorldParam></Hello>`;
    const r = await post('/xml/reply/Hello?format=json', body);
    expect(r.rs['errorCode']).toBe('SerializationException');
    expect(r.status).toBe(400);
    await stillServes();
  });

  test('expands only the five predefined entities and character references', async () => {
    const r = await raw(s.port, {
      method: 'POST',
      path: '/xml/reply/Hello?format=json',
      body: '<Hello><WorldParam>&lt;a&amp;b&gt; &#65;&#x42;</WorldParam></Hello>',
    });
    expect(JSON.parse(r.body)).toMatchObject({ hello: 'Hello, <a&b> AB' });
  });

  test('a nil element is absent', async () => {
    const r = await post(
      '/xml/reply/Hello?format=json',
      '<Hello xmlns:i="http://www.w3.org/2001/XMLSchema-instance"><WorldParam i:nil="true"/></Hello>',
    );
    expect(r.status).toBe(400);
    expect(r.rs['errorCode']).toBe('NotEmpty');
  });
});

describe('size and type limits', () => {
  test('a 2 MiB body is 413 PayloadTooLarge by its Content-Length', async () => {
    const big = `{"worldParam":"${'x'.repeat(2 * 1024 * 1024)}"}`;
    const r = await raw(s.port, {
      method: 'POST',
      path: '/json/reply/Hello',
      body: big,
      headers: { 'Content-Type': 'application/json' },
    });
    expect(r.status).toBe(413);
    expect(JSON.parse(r.body)).toMatchObject({ responseStatus: { errorCode: 'PayloadTooLarge', errors: [] } });
    await stillServes();
  });

  test('a chunked body is 413 once it passes the limit while reading', async () => {
    const small = await startServer({ http: { maxBodyBytes: 64 }, deps: { operations: testOperations } });
    try {
      const r = await raw(small.port, {
        method: 'POST',
        path: '/json/reply/Hello',
        body: `{"worldParam":"${'y'.repeat(200)}"}`,
        chunked: true,
      });
      expect(r.status).toBe(413);
      const ok = await raw(small.port, {
        method: 'POST',
        path: '/json/reply/Hello',
        body: '{"worldParam":"y"}',
        chunked: true,
      });
      expect(ok.status).toBe(200);
    } finally {
      await small.close();
    }
  });

  test('multipart/form-data is 415 on any route', async () => {
    for (const path of ['/json/reply/Hello', '/lookupLtd']) {
      const r = await post(path, '--x\r\n\r\n--x--', { 'Content-Type': 'multipart/form-data; boundary=x' });
      expect(r.status, path).toBe(415);
      expect(r.rs['errorCode']).toBe('UnsupportedMediaType');
    }
    await stillServes();
  });

  test('other Content-Types on a custom route and non-UTF-8 charsets are 415', async () => {
    expect((await post('/lookupLtd', 'search=x', { 'Content-Type': 'text/plain' })).status).toBe(415);
    expect(
      (
        await post('/json/reply/Hello', '{"worldParam":"x"}', {
          'Content-Type': 'application/json; charset=iso-8859-1',
        })
      ).status,
    ).toBe(415);
    expect(
      (await post('/json/reply/Hello', '{"worldParam":"x"}', { 'Content-Type': 'application/json; charset=UTF-8' }))
        .status,
    ).toBe(200);
  });
});
