// FavoritesByFolder (spec "favorites by folder"): the caller's favorites in one folder, matched case-insensitively;
// an unknown folder has none. Favorites belong to a user (entity + user name), so the call needs a caller even when
// authentication is off. Declares FavoriteItem, which the favorite write operations answer with too.
import { z } from 'zod';
import { principalOf } from '../auth.js';
import { int } from '../wire/fields.js';
import { defineOperation } from '../wire/operation.js';
import { isOutcome } from '../wire/outcome.js';
import { responseOf } from '../wire/response-status.js';

export const FavoriteItem = z
  .object({
    folderName: z.string(),
    id: int(),
    label: z.string(),
    value: z.string(),
  })
  .meta({ id: 'FavoriteItem' });
export type FavoriteItem = z.infer<typeof FavoriteItem>;

export const FavoritesByFolder = z
  .object({
    folderName: z.string().min(1).describe('The folder, matched case-insensitively.'),
  })
  .meta({ id: 'FavoritesByFolder' });
export type FavoritesByFolder = z.infer<typeof FavoritesByFolder>;

export const FavoritesByFolderResponse = responseOf('FavoritesByFolderResponse', {
  result: z.array(FavoriteItem),
});
export type FavoritesByFolderResponse = z.input<typeof FavoritesByFolderResponse>;

/** The FavoritesByFolder operation. */
export const favoritesByFolder = defineOperation({
  name: 'FavoritesByFolder',
  summary: 'Lists the caller’s favorites in one folder.',
  request: FavoritesByFolder,
  response: FavoritesByFolderResponse,
  csvListPath: ['result'],
  handler: (request, { accounts, call }) => {
    const owner = principalOf(call);
    return isOutcome(owner) ? owner : { result: accounts.favoritesByFolder(owner, request.folderName) };
  },
});
