// FavoriteRemove (ext): removes one of the caller's favorites by id; another user's id is 404; JSON, CSV, XML.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startSignedServer, type SignedServer } from '../helpers.js';

let s: SignedServer;
const ids: number[] = [];
let bobs = 0;
beforeAll(async () => {
  s = await startSignedServer();
  const alice = { entityId: s.key.entityId, userName: 'alice' };
  for (const value of ['R07.9', 'R50.9', 'R51.9']) {
    const added = s.accounts.addFavorite(alice, { folderName: 'Symptoms', label: value, value });
    ids.push(added.ok ? added.value.id : 0);
  }
  const bob = s.accounts.addFavorite({ ...alice, userName: 'bob' }, { folderName: 'B', label: 'b', value: 'b' });
  bobs = bob.ok ? bob.value.id : 0;
});
afterAll(async () => {
  await s.close();
});

describe('FavoriteRemove', () => {
  test('removes a favorite and answers it (JSON, CSV, XML)', async () => {
    expect(await (await s.fetch(`/json/reply/FavoriteRemove?id=${String(ids[0])}`)).json()).toEqual({
      result: { folderName: 'Symptoms', id: ids[0], label: 'R07.9', value: 'R07.9' },
      responseStatus: {},
    });
    expect(await (await s.fetch(`/csv/reply/FavoriteRemove?id=${String(ids[1])}`)).text()).toBe(
      `result.folderName,result.id,result.label,result.value\r\nSymptoms,${String(ids[1])},R50.9,R50.9\r\n`,
    );
    expect(await (await s.fetch(`/xml/reply/FavoriteRemove?id=${String(ids[2])}`)).text()).toContain(
      `<Result><FolderName>Symptoms</FolderName><Id>${String(ids[2])}</Id>`,
    );
    expect(s.accounts.favoritesByFolder({ entityId: s.key.entityId, userName: 'alice' }, 'Symptoms')).toEqual([]);
  });

  test('an id of another user, or none at all, is 404', async () => {
    for (const id of [bobs, 999]) {
      const res = await s.fetch(`/api/FavoriteRemove?id=${String(id)}`);
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ responseStatus: { errorCode: 'NotFound' } });
    }
  });
});
