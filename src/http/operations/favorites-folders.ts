// FavoritesFolders (spec "favorites folders"): the caller's folders, by name. Needs a caller even when
// authentication is off. Declares FolderItem, which the folder write operations answer with too.
import { z } from 'zod';
import { principalOf } from '../auth.js';
import { int } from '../wire/fields.js';
import { defineOperation } from '../wire/operation.js';
import { isOutcome } from '../wire/outcome.js';
import { responseOf } from '../wire/response-status.js';

export const FolderItem = z
  .object({
    folderId: int(),
    folderName: z.string(),
  })
  .meta({ id: 'FolderItem' });
export type FolderItem = z.infer<typeof FolderItem>;

export const FavoritesFolders = z.object({}).meta({ id: 'FavoritesFolders' });
export type FavoritesFolders = z.infer<typeof FavoritesFolders>;

export const FavoritesFoldersResponse = responseOf('FavoritesFoldersResponse', {
  result: z.array(FolderItem),
});
export type FavoritesFoldersResponse = z.input<typeof FavoritesFoldersResponse>;

/** The FavoritesFolders operation. */
export const favoritesFolders = defineOperation({
  name: 'FavoritesFolders',
  summary: 'Lists the caller’s favorites folders.',
  request: FavoritesFolders,
  response: FavoritesFoldersResponse,
  csvListPath: ['result'],
  handler: (_request, { accounts, call }) => {
    const owner = principalOf(call);
    return isOutcome(owner) ? owner : { result: accounts.folders(owner) };
  },
});
