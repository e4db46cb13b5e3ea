import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServer, type TestServer } from '../helpers.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => {
  await s.close();
});

describe('Hello', () => {
  test('greets worldParam and reports env, apiUrl, webRoot and webRootWdb from configuration, echoing the request', async () => {
    const res = await fetch(`${s.base}/json/reply/Hello`, {
      method: 'POST',
      body: JSON.stringify({ worldParam: 'World' }),
    });
    expect(await res.text()).toBe(
      '{"hello":"Hello, World","env":"test","apiUrl":"http://localhost:8080/api","webRoot":"http://localhost:8080/","webRootWdb":"http://localhost:8080/wdb/","request":{"worldParam":"World"},"responseStatus":{}}',
    );
  });

  test('answers in CSV and XML', async () => {
    const csv = await (await fetch(`${s.base}/csv/reply/Hello?worldParam=W`)).text();
    expect(csv).toBe(
      'hello,env,apiUrl,webRoot,webRootWdb,request.worldParam\r\n"Hello, W",test,http://localhost:8080/api,http://localhost:8080/,http://localhost:8080/wdb/,W\r\n',
    );
    const xml = await (await fetch(`${s.base}/xml/reply/Hello?worldParam=W`)).text();
    expect(xml).toContain(
      '<ApiUrl>http://localhost:8080/api</ApiUrl><Env>test</Env><Hello>Hello, W</Hello><Request><WorldParam>W</WorldParam></Request>',
    );
  });

  test('requires worldParam', async () => {
    const res = await fetch(`${s.base}/api/Hello`, { method: 'POST', body: '{"worldParam":""}' });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      responseStatus: { errorCode: 'NotEmpty', errors: [{ fieldName: 'worldParam' }] },
    });
  });
});
