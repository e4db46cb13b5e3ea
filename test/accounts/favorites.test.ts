// Favorites and folders per user: the spec's reads (folder list, favorites by folder) and the write extensions.
// Another user's ids answer NotFound, like ids that do not exist.
import { describe, expect } from 'vitest';
import { accountsTest } from '../helpers/accounts.js';

// Favorites belong to users of an existing entity (a foreign key): every test starts with entity 1.
const test = accountsTest.extend<{ clinic: number }>({
  clinic: async ({ accounts }, use) => {
    const created = accounts.createEntity({ entityName: 'Lakeside Clinic' });
    await use(created.ok ? created.value.entityId : 0);
  },
});

const alice = { entityId: 1, userName: 'alice' };
const bob = { entityId: 1, userName: 'bob' };

describe('favorites', () => {
  test('FavoriteAdd creates the folder when needed; reads list folders and favorites by folder', ({
    accounts,
    clinic,
  }) => {
    expect(clinic).toBe(1);
    const added = accounts.addFavorite(alice, {
      folderName: 'Cardiology',
      label: 'Essential hypertension',
      value: 'I10',
    });
    expect(added).toEqual({
      ok: true,
      value: { folderName: 'Cardiology', id: 1, label: 'Essential hypertension', value: 'I10' },
    });
    accounts.addFavorite(alice, { folderName: 'cardiology', label: 'Atrial fibrillation', value: 'I48.91' });
    accounts.addFavorite(alice, { folderName: 'Asthma', label: 'Mild intermittent asthma', value: 'J45.20' });
    expect(accounts.folders(alice)).toEqual([
      { folderId: 2, folderName: 'Asthma' },
      { folderId: 1, folderName: 'Cardiology' },
    ]);
    expect(accounts.favoritesByFolder(alice, 'CARDIOLOGY').map((f) => f.value)).toEqual(['I10', 'I48.91']);
    expect(accounts.favoritesByFolder(alice, 'Unknown')).toEqual([]);
    expect(accounts.folders(bob)).toEqual([]);
    expect(accounts.favoritesByFolder(bob, 'Cardiology')).toEqual([]);
  });

  test('FavoriteAdd refuses blanks and a value already in the folder', ({ accounts, clinic }) => {
    expect(clinic).toBe(1);
    expect(accounts.addFavorite(alice, { folderName: ' ', label: '', value: 'I10' })).toMatchObject({
      ok: false,
      errorCode: 'NotEmpty',
      errors: [{ fieldName: 'folderName' }, { fieldName: 'label' }],
    });
    accounts.addFavorite(alice, { folderName: 'F', label: 'a', value: 'I10' });
    expect(accounts.addFavorite(alice, { folderName: 'F', label: 'b', value: 'I10' })).toMatchObject({
      ok: false,
      errorCode: 'Conflict',
    });
  });

  test('FavoriteRemove removes only the caller’s own favorite', ({ accounts, clinic }) => {
    expect(clinic).toBe(1);
    const added = accounts.addFavorite(alice, { folderName: 'F', label: 'a', value: 'I10' });
    const id = added.ok ? added.value.id : 0;
    expect(accounts.removeFavorite(bob, { id })).toMatchObject({ ok: false, errorCode: 'NotFound' });
    expect(accounts.removeFavorite(alice, { id })).toMatchObject({ ok: true, value: { id, value: 'I10' } });
    expect(accounts.removeFavorite(alice, { id })).toMatchObject({ ok: false, errorCode: 'NotFound' });
    expect(accounts.favoritesByFolder(alice, 'F')).toEqual([]);
  });

  test('FolderCreate, FolderRename and FolderDelete', ({ accounts, clinic }) => {
    expect(clinic).toBe(1);
    const created = accounts.createFolder(alice, { folderName: 'Ortho' });
    expect(created).toEqual({ ok: true, value: { folderId: 1, folderName: 'Ortho' } });
    expect(accounts.createFolder(alice, { folderName: 'ORTHO' })).toMatchObject({ ok: false, errorCode: 'Conflict' });
    expect(accounts.createFolder(bob, { folderName: 'Ortho' }).ok).toBe(true);
    accounts.createFolder(alice, { folderName: 'Neuro' });

    expect(accounts.renameFolder(alice, { folderId: 1, folderName: 'Neuro' })).toMatchObject({
      ok: false,
      errorCode: 'Conflict',
    });
    expect(accounts.renameFolder(alice, { folderId: 1, folderName: 'ortho' })).toEqual({
      ok: true,
      value: { folderId: 1, folderName: 'ortho' },
    });
    expect(accounts.renameFolder(bob, { folderId: 1, folderName: 'Mine' })).toMatchObject({
      ok: false,
      errorCode: 'NotFound',
    });
    expect(accounts.renameFolder(alice, { folderId: 1, folderName: '' })).toMatchObject({
      ok: false,
      errorCode: 'NotEmpty',
    });

    accounts.addFavorite(alice, { folderName: 'ortho', label: 'Low back pain', value: 'M54.50' });
    expect(accounts.deleteFolder(bob, { folderId: 1 })).toMatchObject({ ok: false, errorCode: 'NotFound' });
    expect(accounts.deleteFolder(alice, { folderId: 1 })).toEqual({
      ok: true,
      value: { folderId: 1, folderName: 'ortho' },
    });
    expect(accounts.favoritesByFolder(alice, 'ortho')).toEqual([]);
    expect(accounts.folders(alice).map((f) => f.folderName)).toEqual(['Neuro']);
  });
});
