import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { NO_SNOMED_MAP } from '../../../src/http/operations/snomed-map.js';
import { startServer, type TestServer } from '../helpers.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => {
  await s.close();
});

describe('SnomedMap', () => {
  test('answers an empty response saying no map is loaded', async () => {
    const res = await fetch(`${s.base}/json/reply/SnomedMap?sourceCode=44054006`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ responseStatus: { message: NO_SNOMED_MAP } });
    const xml = await (await fetch(`${s.base}/xml/reply/SnomedMap?sourceCode=44054006`)).text();
    expect(xml).toContain(`<s:Message>${NO_SNOMED_MAP}</s:Message>`);
  });

  test('validates its request', async () => {
    const res = await fetch(`${s.base}/json/reply/SnomedMap`);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      responseStatus: { errorCode: 'NotEmpty', errors: [{ fieldName: 'sourceCode' }] },
    });
  });
});
