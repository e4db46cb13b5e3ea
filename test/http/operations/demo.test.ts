import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServer, type TestServer } from '../helpers.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => {
  await s.close();
});

describe('Demo', () => {
  test('returns the fixed sample, the same on every call and for any input', async () => {
    const a = (await (await fetch(`${s.base}/json/reply/Demo`)).json()) as { response: Record<string, unknown> };
    const b = (await (await fetch(`${s.base}/api/Demo`, { method: 'POST', body: '{"anything":1}' })).json()) as {
      response: unknown;
    };
    expect(a.response).toEqual(b.response);
    expect(a.response).toMatchObject({ service: 'claim-scrubber', example: { code: 'E11.9', billable: true } });
  });

  test('writes the free-form sample as one JSON cell in CSV', async () => {
    const csv = await (await fetch(`${s.base}/csv/reply/Demo`)).text();
    expect(csv.startsWith('response\r\n"{""service"":""claim-scrubber""')).toBe(true);
  });
});
