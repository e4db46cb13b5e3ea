// FolderRename (ext): renames one of the caller's folders; 409 on a clash, 404 on an unknown id; JSON, CSV, XML.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startSignedServer, type SignedServer } from '../helpers.js';

let s: SignedServer;
beforeAll(async () => {
  s = await startSignedServer();
  const alice = { entityId: s.key.entityId, userName: 'alice' };
  s.accounts.createFolder(alice, { folderName: 'One' });
  s.accounts.createFolder(alice, { folderName: 'Two' });
});
afterAll(async () => {
  await s.close();
});

describe('FolderRename', () => {
  test('renames a folder and answers it (JSON, CSV, XML)', async () => {
    expect(await (await s.fetch('/json/reply/FolderRename?folderId=1&folderName=Uno')).json()).toEqual({
      result: { folderId: 1, folderName: 'Uno' },
      responseStatus: {},
    });
    expect(await (await s.fetch('/csv/reply/FolderRename?folderId=1&folderName=Eins')).text()).toBe(
      'result.folderId,result.folderName\r\n1,Eins\r\n',
    );
    expect(await (await s.fetch('/xml/reply/FolderRename?folderId=1&folderName=Un')).text()).toContain(
      '<Result><FolderId>1</FolderId><FolderName>Un</FolderName></Result>',
    );
  });

  test('a name another folder has is 409; an unknown id is 404; folderId must be a number', async () => {
    expect((await s.fetch('/api/FolderRename?folderId=1&folderName=two')).status).toBe(409);
    expect((await s.fetch('/api/FolderRename?folderId=77&folderName=Seven')).status).toBe(404);
    const bad = await s.fetch('/api/FolderRename?folderId=x&folderName=Seven');
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({
      responseStatus: { errorCode: 'InvalidValue', errors: [{ fieldName: 'folderId' }] },
    });
  });
});
