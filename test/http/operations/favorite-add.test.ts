// FavoriteAdd (ext): adds a favorite, creating its folder when needed; 409 for a value already there; JSON, CSV, XML.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startSignedServer, type SignedServer } from '../helpers.js';

let s: SignedServer;
beforeAll(async () => {
  s = await startSignedServer();
});
afterAll(async () => {
  await s.close();
});

describe('FavoriteAdd', () => {
  test('adds a favorite to a new folder and answers it (JSON)', async () => {
    const res = await s.fetch('/json/reply/FavoriteAdd', {
      method: 'POST',
      body: JSON.stringify({ folderName: 'Asthma', label: 'Mild intermittent', value: 'J45.20' }),
    });
    expect(await res.json()).toEqual({
      result: { folderName: 'Asthma', id: 1, label: 'Mild intermittent', value: 'J45.20' },
      responseStatus: {},
    });
    expect(s.accounts.folders({ entityId: s.key.entityId, userName: 'alice' })).toEqual([
      { folderId: 1, folderName: 'Asthma' },
    ]);
  });

  test('answers in CSV and XML', async () => {
    expect(await (await s.fetch('/csv/reply/FavoriteAdd?folderName=asthma&label=Severe&value=J45.50')).text()).toBe(
      'result.folderName,result.id,result.label,result.value\r\nAsthma,2,Severe,J45.50\r\n',
    );
    const xml = await s.fetch('/xml/reply/FavoriteAdd', {
      method: 'POST',
      body: '<FavoriteAdd><FolderName>Asthma</FolderName><Label>Moderate</Label><Value>J45.40</Value></FavoriteAdd>',
    });
    expect(await xml.text()).toContain('<Result><FolderName>Asthma</FolderName><Id>3</Id><Label>Moderate</Label>');
  });

  test('the same value twice in a folder is 409; every field is required', async () => {
    const dup = await s.fetch('/api/FavoriteAdd?folderName=Asthma&label=Again&value=J45.20');
    expect(dup.status).toBe(409);
    expect(await dup.json()).toMatchObject({ responseStatus: { errorCode: 'Conflict' } });
    const empty = await s.fetch('/api/FavoriteAdd', { method: 'POST', body: '{"folderName":"A","label":"  "}' });
    expect(empty.status).toBe(400);
    const { responseStatus } = (await empty.json()) as { responseStatus: { errors: { fieldName: string }[] } };
    expect(responseStatus.errors.map((e) => e.fieldName)).toEqual(['value']);
  });
});
