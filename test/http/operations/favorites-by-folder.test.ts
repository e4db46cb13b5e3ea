// FavoritesByFolder: the caller's favorites in one folder (case-insensitive name), in JSON, CSV and XML.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startSignedServer, type SignedServer } from '../helpers.js';

let s: SignedServer;
beforeAll(async () => {
  s = await startSignedServer();
  const alice = { entityId: s.key.entityId, userName: 'alice' };
  s.accounts.addFavorite(alice, { folderName: 'Diabetes', label: 'Type 2, no complications', value: 'E11.9' });
  s.accounts.addFavorite(alice, { folderName: 'Diabetes', label: 'Type 1', value: 'E10.9' });
  s.accounts.addFavorite({ ...alice, userName: 'bob' }, { folderName: 'Diabetes', label: 'Bob', value: 'E13.9' });
});
afterAll(async () => {
  await s.close();
});

describe('FavoritesByFolder', () => {
  test('lists the favorites of one of the caller’s folders, matched case-insensitively (JSON)', async () => {
    expect(await (await s.fetch('/json/reply/FavoritesByFolder?folderName=diabetes')).json()).toEqual({
      result: [
        { folderName: 'Diabetes', id: 1, label: 'Type 2, no complications', value: 'E11.9' },
        { folderName: 'Diabetes', id: 2, label: 'Type 1', value: 'E10.9' },
      ],
      responseStatus: {},
    });
    expect(await (await s.fetch('/json/reply/FavoritesByFolder?folderName=none')).json()).toEqual({
      result: [],
      responseStatus: {},
    });
  });

  test('answers in CSV (one row per favorite) and XML', async () => {
    expect(await (await s.fetch('/csv/reply/FavoritesByFolder?folderName=Diabetes')).text()).toBe(
      'folderName,id,label,value\r\nDiabetes,1,"Type 2, no complications",E11.9\r\nDiabetes,2,Type 1,E10.9\r\n',
    );
    expect(await (await s.fetch('/xml/reply/FavoritesByFolder?folderName=Diabetes')).text()).toContain(
      '<Result><FavoriteItem><FolderName>Diabetes</FolderName><Id>1</Id><Label>Type 2, no complications</Label><Value>E11.9</Value></FavoriteItem>',
    );
  });

  test('folderName is required', async () => {
    const res = await s.fetch('/json/reply/FavoritesByFolder');
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({
      responseStatus: { errorCode: 'NotEmpty', errors: [{ fieldName: 'folderName' }] },
    });
  });
});
