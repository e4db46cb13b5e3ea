// FolderDelete (ext, operations.md "Favorites"): deletes one of the caller's folders and the favorites in it, and
// returns the folder; an unknown id is 404.
import { z } from 'zod';
import { principalOf } from '../auth.js';
import { int } from '../wire/fields.js';
import { defineOperation } from '../wire/operation.js';
import { fromAccounts, isOutcome } from '../wire/outcome.js';
import { responseOf } from '../wire/response-status.js';
import { FolderItem } from './favorites-folders.js';

export const FolderDelete = z
  .object({
    folderId: int({ min: 1 }).describe('The folder id, as FavoritesFolders lists it.'),
  })
  .meta({ id: 'FolderDelete' });
export type FolderDelete = z.infer<typeof FolderDelete>;

export const FolderDeleteResponse = responseOf('FolderDeleteResponse', {
  result: FolderItem,
});
export type FolderDeleteResponse = z.input<typeof FolderDeleteResponse>;

/** The FolderDelete operation. */
export const folderDelete = defineOperation({
  name: 'FolderDelete',
  summary: 'Deletes one of the caller’s favorites folders with its favorites.',
  request: FolderDelete,
  response: FolderDeleteResponse,
  handler: (request, { accounts, call }) => {
    const owner = principalOf(call);
    return isOutcome(owner) ? owner : fromAccounts(accounts.deleteFolder(owner, request), (result) => ({ result }));
  },
});
