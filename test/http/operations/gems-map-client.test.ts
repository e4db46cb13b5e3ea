// wire.md §13: the GemsMap round trip through @servicestack/client on both base paths (`/api/{Op}` and, with
// basePath = null, `/json/reply/{Op}`), with signed headers, and the custom route through client.get().
import { JsonServiceClient } from '@servicestack/client';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Reference } from '../../../src/reference/index.js';
import { GemsMap, type GemsMapResponse } from '../../fixtures/dtos.js';
import { openSharedReference } from '../../helpers/reference-db.js';
import { signed, startSignedServer, type SignedServer } from '../helpers.js';

let ref: Reference;
let s: SignedServer;
beforeAll(async () => {
  ref = await openSharedReference();
  s = await startSignedServer({ deps: { reference: ref } });
});
afterAll(async () => {
  await s.close();
  ref.close();
});

function client(urls: string[], basePath: 'api' | null): JsonServiceClient {
  const c = new JsonServiceClient(s.base);
  if (basePath === null) {
    c.basePath = null;
  }
  c.urlFilter = (url: string): void => {
    urls.push(url);
  };
  for (const [name, value] of Object.entries(signed(s.key, s.userName))) {
    c.headers.set(name, value);
  }
  return c;
}

describe.each([
  { label: '/api', basePath: 'api' as const, prefix: '/api' },
  { label: 'basePath = null', basePath: null, prefix: '/json/reply' },
])('GemsMap with JsonServiceClient on $label', ({ basePath, prefix }) => {
  test('success: A02.1 → two rows in scenario 1, isCombination 1', async () => {
    const urls: string[] = [];
    const result = await client(urls, basePath).api(new GemsMap({ sourceCodeCsv: 'A02.1' }));
    expect(urls).toEqual([`${s.base}${prefix}/GemsMap`]);
    expect(result.succeeded).toBe(true);
    expect(result.error).toBeUndefined();
    const rows = result.response?.result ?? [];
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      expect(row).toMatchObject({ sourceCode: 'A02.1', scenario: 1, isCombination: 1 });
    }
  });

  test('validation failure: {} → NotEmpty with fieldError(sourceCodeCsv)', async () => {
    const result = await client([], basePath).api(new GemsMap({}));
    expect(result.failed).toBe(true);
    expect(result.errorCode).toBe('NotEmpty');
    expect(result.fieldError('sourceCodeCsv')).toBeDefined();
    expect(result.fieldError('SourceCodeCsv')?.errorCode).toBe('NotEmpty');
  });
});

test('custom route through client.get(/medRef/GemsMap, args)', async () => {
  const urls: string[] = [];
  const res = await client(urls, 'api').get<GemsMapResponse>('/medRef/GemsMap', {
    sourceCodeCsv: 'A02.1',
    sourceCodeType: 'ICD-10 CM',
  });
  expect(urls[0]).toMatch(/\/medRef\/GemsMap\?sourceCodeCsv=A02\.1&sourceCodeType=ICD-10%20CM$/);
  expect(res.result).toHaveLength(2);
  await expect(client([], 'api').get('/medRef/GemsMap', { sourceCodeType: 'ICD-11' })).rejects.toMatchObject({
    responseStatus: { errorCode: 'NotEmpty' },
  });
});
