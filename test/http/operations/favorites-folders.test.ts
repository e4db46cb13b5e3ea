// FavoritesFolders: the caller's folders by name, in JSON, CSV (list mode) and XML; another user's are not shown.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startSignedServer, type SignedServer } from '../helpers.js';

let s: SignedServer;
beforeAll(async () => {
  s = await startSignedServer();
  const alice = { entityId: s.key.entityId, userName: 'alice' };
  s.accounts.createFolder(alice, { folderName: 'Respiratory' });
  s.accounts.createFolder(alice, { folderName: 'cardiology' });
  s.accounts.createFolder({ ...alice, userName: 'bob' }, { folderName: 'Bob only' });
});
afterAll(async () => {
  await s.close();
});

describe('FavoritesFolders', () => {
  test('lists the caller’s folders by name (JSON)', async () => {
    expect(await (await s.fetch('/json/reply/FavoritesFolders')).json()).toEqual({
      result: [
        { folderId: 2, folderName: 'cardiology' },
        { folderId: 1, folderName: 'Respiratory' },
      ],
      responseStatus: {},
    });
  });

  test('answers in CSV (one row per folder) and XML', async () => {
    expect(await (await s.fetch('/csv/reply/FavoritesFolders')).text()).toBe(
      'folderId,folderName\r\n2,cardiology\r\n1,Respiratory\r\n',
    );
    expect(await (await s.fetch('/xml/reply/FavoritesFolders')).text()).toContain(
      '<Result><FolderItem><FolderId>2</FolderId><FolderName>cardiology</FolderName></FolderItem><FolderItem>',
    );
  });
});
