// Favorites in folders, per user (an entity and a user name). The spec's read operations (favorites by folder,
// folder list) and the write extensions (FavoriteAdd, FavoriteRemove, FolderCreate, FolderRename, FolderDelete).
// Ids belonging to another user answer NotFound, exactly as ids that do not exist.
import type Database from 'better-sqlite3';
import type {
  AccountsFailure,
  FavoriteAdd,
  FavoriteItem,
  FavoriteRemove,
  FolderCreate,
  FolderDelete,
  FolderItem,
  FolderRename,
} from '../schemas/accounts.js';
import { failure, invalid, invalidValue, notEmpty, success, type Outcome } from './outcomes.js';

/** Whose favorites: any principal will do. */
export interface FavoritesOwner {
  readonly entityId: number;
  readonly userName: string;
}

/** The longest folder name, label and value accepted. */
export const MAX_FAVORITE_TEXT = 500;

function checkText(fieldName: string, text: string): Outcome<string> {
  const value = text.trim();
  if (value === '') {
    return invalid([notEmpty(fieldName)]);
  }
  if (value.length > MAX_FAVORITE_TEXT || /\p{Cc}/u.test(value)) {
    return invalid([invalidValue(fieldName, value.slice(0, 40).replace(/\p{Cc}/gu, '?'))]);
  }
  return success(value);
}

/** The favorites functions of an open application database. */
export interface FavoritesStore {
  readonly folders: (owner: FavoritesOwner) => FolderItem[];
  readonly favoritesByFolder: (owner: FavoritesOwner, folderName: string) => FavoriteItem[];
  readonly addFavorite: (owner: FavoritesOwner, request: FavoriteAdd) => Outcome<FavoriteItem>;
  readonly removeFavorite: (owner: FavoritesOwner, request: FavoriteRemove) => Outcome<FavoriteItem>;
  readonly createFolder: (owner: FavoritesOwner, request: FolderCreate) => Outcome<FolderItem>;
  readonly renameFolder: (owner: FavoritesOwner, request: FolderRename) => Outcome<FolderItem>;
  readonly deleteFolder: (owner: FavoritesOwner, request: FolderDelete) => Outcome<FolderItem>;
}

interface FavoriteRow {
  favorite_id: number;
  folder_name: string;
  label: string;
  value: string;
}

const toFavorite = (r: FavoriteRow): FavoriteItem => ({
  folderName: r.folder_name,
  id: r.favorite_id,
  label: r.label,
  value: r.value,
});

/**
 * Prepares the favorites statements of a database.
 * @param db - the migrated application database
 */
export function favoritesStore(db: Database.Database): FavoritesStore {
  const folderList = db.prepare(
    'SELECT folder_id, folder_name FROM folder WHERE entity_id = ? AND user_name = ? ORDER BY folder_name COLLATE NOCASE, folder_id',
  );
  const folderByName = db.prepare(
    'SELECT folder_id, folder_name FROM folder WHERE entity_id = ? AND user_name = ? AND folder_name = ? COLLATE NOCASE',
  );
  const folderById = db.prepare(
    'SELECT folder_id, folder_name FROM folder WHERE entity_id = ? AND user_name = ? AND folder_id = ?',
  );
  const insertFolder = db.prepare('INSERT INTO folder (entity_id, user_name, folder_name) VALUES (?, ?, ?)');
  const renameFolder = db.prepare('UPDATE folder SET folder_name = ? WHERE folder_id = ?');
  const deleteFavoritesOf = db.prepare('DELETE FROM favorite WHERE folder_id = ?');
  const deleteFolder = db.prepare('DELETE FROM folder WHERE folder_id = ?');
  const favoritesIn = db.prepare(`SELECT f.favorite_id, d.folder_name, f.label, f.value
    FROM favorite f JOIN folder d ON d.folder_id = f.folder_id
    WHERE d.entity_id = ? AND d.user_name = ? AND d.folder_name = ? COLLATE NOCASE ORDER BY f.favorite_id`);
  const favoriteById = db.prepare(`SELECT f.favorite_id, d.folder_name, f.label, f.value
    FROM favorite f JOIN folder d ON d.folder_id = f.folder_id
    WHERE d.entity_id = ? AND d.user_name = ? AND f.favorite_id = ?`);
  const favoriteByValue = db.prepare('SELECT 1 FROM favorite WHERE folder_id = ? AND value = ?');
  const insertFavorite = db.prepare('INSERT INTO favorite (folder_id, label, value) VALUES (?, ?, ?)');
  const deleteFavorite = db.prepare('DELETE FROM favorite WHERE favorite_id = ?');

  type FolderRow = { folder_id: number; folder_name: string };
  const toFolder = (r: FolderRow): FolderItem => ({ folderId: r.folder_id, folderName: r.folder_name });
  const conflict = (name: string): AccountsFailure => failure('Conflict', `A folder named '${name}' already exists.`);
  const noFolder = (id: number): AccountsFailure => failure('NotFound', `Folder ${id} does not exist.`);

  const add = db.transaction(
    (owner: FavoritesOwner, folderName: string, label: string, value: string): Outcome<FavoriteItem> => {
      let folder = folderByName.get(owner.entityId, owner.userName, folderName) as FolderRow | undefined;
      if (folder === undefined) {
        const id = Number(insertFolder.run(owner.entityId, owner.userName, folderName).lastInsertRowid);
        folder = { folder_id: id, folder_name: folderName };
      }
      if (favoriteByValue.get(folder.folder_id, value) !== undefined) {
        return failure('Conflict', `'${value}' is already in folder '${folder.folder_name}'.`);
      }
      const id = Number(insertFavorite.run(folder.folder_id, label, value).lastInsertRowid);
      return success({ folderName: folder.folder_name, id, label, value });
    },
  );

  const create = db.transaction((owner: FavoritesOwner, folderName: string): Outcome<FolderItem> => {
    if (folderByName.get(owner.entityId, owner.userName, folderName) !== undefined) {
      return conflict(folderName);
    }
    const id = Number(insertFolder.run(owner.entityId, owner.userName, folderName).lastInsertRowid);
    return success({ folderId: id, folderName });
  });

  const rename = db.transaction((owner: FavoritesOwner, folderId: number, folderName: string): Outcome<FolderItem> => {
    const folder = folderById.get(owner.entityId, owner.userName, folderId) as FolderRow | undefined;
    if (folder === undefined) {
      return noFolder(folderId);
    }
    const clash = folderByName.get(owner.entityId, owner.userName, folderName) as FolderRow | undefined;
    if (clash !== undefined && clash.folder_id !== folderId) {
      return conflict(folderName);
    }
    renameFolder.run(folderName, folderId);
    return success({ folderId, folderName });
  });

  const remove = db.transaction((owner: FavoritesOwner, folderId: number): Outcome<FolderItem> => {
    const folder = folderById.get(owner.entityId, owner.userName, folderId) as FolderRow | undefined;
    if (folder === undefined) {
      return noFolder(folderId);
    }
    deleteFavoritesOf.run(folderId);
    deleteFolder.run(folderId);
    return success(toFolder(folder));
  });

  return {
    folders: (owner) => (folderList.all(owner.entityId, owner.userName) as FolderRow[]).map(toFolder),
    favoritesByFolder: (owner, folderName) =>
      (favoritesIn.all(owner.entityId, owner.userName, folderName.trim()) as FavoriteRow[]).map(toFavorite),
    addFavorite(owner, request) {
      const folderName = checkText('folderName', request.folderName);
      const label = checkText('label', request.label);
      const value = checkText('value', request.value);
      const errors = [folderName, label, value].flatMap((o) => (o.ok ? [] : o.errors));
      if (!folderName.ok || !label.ok || !value.ok) {
        return invalid(errors);
      }
      return add.immediate(owner, folderName.value, label.value, value.value);
    },
    removeFavorite(owner, request) {
      const row = favoriteById.get(owner.entityId, owner.userName, request.id) as FavoriteRow | undefined;
      if (row === undefined) {
        return failure('NotFound', `Favorite ${request.id} does not exist.`);
      }
      deleteFavorite.run(request.id);
      return success(toFavorite(row));
    },
    createFolder(owner, request) {
      const name = checkText('folderName', request.folderName);
      return name.ok ? create.immediate(owner, name.value) : name;
    },
    renameFolder(owner, request) {
      const name = checkText('folderName', request.folderName);
      return name.ok ? rename.immediate(owner, request.folderId, name.value) : name;
    },
    deleteFolder: (owner, request) => remove.immediate(owner, request.folderId),
  };
}
