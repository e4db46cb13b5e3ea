// Entity: creates an organisation inside the caller's own, in JSON, CSV and XML; the documented 400/404/409 answers.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startSignedServer, type SignedServer } from '../helpers.js';

let s: SignedServer;
beforeAll(async () => {
  s = await startSignedServer();
});
afterAll(async () => {
  await s.close();
});

const post = (path: string, body: unknown): Promise<Response> =>
  s.fetch(path, { method: 'POST', body: JSON.stringify(body) });

describe('Entity', () => {
  test('creates an entity under the caller’s own and answers its id (JSON)', async () => {
    const res = await post('/json/reply/Entity', {
      entityName: 'North Clinic',
      state: 'ny',
      postalCode: '10001',
      emailAddress: 'billing@north.example',
      url: 'https://north.example',
      isTest: true,
    });
    const text = await res.text();
    expect(text).toMatch(/^\{"entityId":\d+,"responseStatus":\{\}\}$/);
    const { entityId } = JSON.parse(text) as { entityId: number };
    expect(s.accounts.getEntity(entityId)).toMatchObject({
      parentEntityId: s.key.entityId,
      entityName: 'North Clinic',
      state: 'NY',
      isTest: true,
    });
  });

  test('answers in CSV and XML', async () => {
    const csv = await s.fetch('/csv/reply/Entity?entityName=South%20Clinic');
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(await csv.text()).toMatch(/^entityId\r\n\d+\r\n$/);
    const xml = await s.fetch('/xml/reply/Entity', {
      method: 'POST',
      body:
        '<Entity><EntityName>East Clinic</EntityName><ParentEntityId>' +
        String(s.key.entityId) +
        '</ParentEntityId></Entity>',
    });
    expect(xml.status).toBe(200);
    expect(await xml.text()).toMatch(
      /<EntityResponse [^>]*><EntityId>\d+<\/EntityId><ResponseStatus><s:ErrorCode i:nil="true"\/>/,
    );
  });

  test('a duplicate name under the same parent is 409 Conflict, whatever its case', async () => {
    await post('/api/Entity', { entityName: 'West Clinic' });
    const res = await post('/api/Entity', { entityName: 'WEST CLINIC' });
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ responseStatus: { errorCode: 'Conflict', errors: [] } });
  });

  test('a parent that does not exist is 404', async () => {
    const res = await post('/api/Entity', { entityName: 'Orphan', parentEntityId: 9999 });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ responseStatus: { errorCode: 'NotFound' } });
  });

  test('field errors: entityName required, state, postal code, e-mail and URL syntax-checked', async () => {
    const missing = await post('/api/Entity', {});
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({
      responseStatus: { errorCode: 'NotEmpty', errors: [{ fieldName: 'entityName' }] },
    });
    const bad = await post('/api/Entity', {
      entityName: 'Bad Fields',
      state: 'ZZ',
      postalCode: '123',
      emailAddress: 'nobody',
      url: 'ftp://x',
    });
    expect(bad.status).toBe(400);
    const { responseStatus } = (await bad.json()) as { responseStatus: { errors: { fieldName: string }[] } };
    expect(responseStatus.errors.map((e) => e.fieldName)).toEqual(['state', 'postalCode', 'emailAddress', 'url']);
  });
});
