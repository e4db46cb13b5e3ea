// FolderRename (ext, operations.md "Favorites"): renames one of the caller's folders; a name another of its folders has
// is 409, an unknown id 404.
import { z } from 'zod';
import { principalOf } from '../auth.js';
import { int } from '../wire/fields.js';
import { defineOperation } from '../wire/operation.js';
import { fromAccounts, isOutcome } from '../wire/outcome.js';
import { responseOf } from '../wire/response-status.js';
import { FolderItem } from './favorites-folders.js';

export const FolderRename = z
  .object({
    folderId: int({ min: 1 }).describe('The folder id, as FavoritesFolders lists it.'),
    folderName: z.string().min(1).describe('The new name.'),
  })
  .meta({ id: 'FolderRename' });
export type FolderRename = z.infer<typeof FolderRename>;

export const FolderRenameResponse = responseOf('FolderRenameResponse', {
  result: FolderItem,
});
export type FolderRenameResponse = z.input<typeof FolderRenameResponse>;

/** The FolderRename operation. */
export const folderRename = defineOperation({
  name: 'FolderRename',
  summary: 'Renames one of the caller’s favorites folders.',
  request: FolderRename,
  response: FolderRenameResponse,
  handler: (request, { accounts, call }) => {
    const owner = principalOf(call);
    return isOutcome(owner) ? owner : fromAccounts(accounts.renameFolder(owner, request), (result) => ({ result }));
  },
});
