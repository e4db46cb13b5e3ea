// FolderDelete (ext): deletes one of the caller's folders with its favorites; 404 on an unknown id; JSON, CSV, XML.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startSignedServer, type SignedServer } from '../helpers.js';

let s: SignedServer;
beforeAll(async () => {
  s = await startSignedServer();
  const alice = { entityId: s.key.entityId, userName: 'alice' };
  s.accounts.addFavorite(alice, { folderName: 'A', label: 'a', value: 'a' });
  s.accounts.createFolder(alice, { folderName: 'B' });
  s.accounts.createFolder(alice, { folderName: 'C' });
});
afterAll(async () => {
  await s.close();
});

describe('FolderDelete', () => {
  test('deletes folders with their favorites and answers them (JSON, CSV, XML)', async () => {
    expect(await (await s.fetch('/json/reply/FolderDelete?folderId=1')).json()).toEqual({
      result: { folderId: 1, folderName: 'A' },
      responseStatus: {},
    });
    expect(s.accounts.favoritesByFolder({ entityId: s.key.entityId, userName: 'alice' }, 'A')).toEqual([]);
    expect(await (await s.fetch('/csv/reply/FolderDelete?folderId=2')).text()).toBe(
      'result.folderId,result.folderName\r\n2,B\r\n',
    );
    expect(await (await s.fetch('/xml/reply/FolderDelete?folderId=3')).text()).toContain(
      '<Result><FolderId>3</FolderId><FolderName>C</FolderName></Result>',
    );
  });

  test('an unknown id is 404', async () => {
    const res = await s.fetch('/api/FolderDelete?folderId=1');
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ responseStatus: { errorCode: 'NotFound' } });
  });
});
