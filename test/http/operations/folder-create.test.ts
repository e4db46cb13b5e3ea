// FolderCreate (ext): creates an empty folder for the caller; a name in use (any case) is 409; JSON, CSV, XML.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startSignedServer, type SignedServer } from '../helpers.js';

let s: SignedServer;
beforeAll(async () => {
  s = await startSignedServer();
});
afterAll(async () => {
  await s.close();
});

describe('FolderCreate', () => {
  test('creates folders and answers them (JSON, CSV, XML)', async () => {
    expect(
      await (await s.fetch('/json/reply/FolderCreate', { method: 'POST', body: '{"folderName":"Oncology"}' })).json(),
    ).toEqual({ result: { folderId: 1, folderName: 'Oncology' }, responseStatus: {} });
    expect(await (await s.fetch('/csv/reply/FolderCreate?folderName=Renal')).text()).toBe(
      'result.folderId,result.folderName\r\n2,Renal\r\n',
    );
    expect(await (await s.fetch('/xml/reply/FolderCreate?folderName=Skin')).text()).toContain(
      '<Result><FolderId>3</FolderId><FolderName>Skin</FolderName></Result>',
    );
  });

  test('a name already used, in any case, is 409 Conflict', async () => {
    const res = await s.fetch('/api/FolderCreate?folderName=ONCOLOGY');
    expect(res.status).toBe(409);
    expect(await res.json()).toMatchObject({ responseStatus: { errorCode: 'Conflict' } });
  });
});
