// FavoriteAdd (ext, operations.md "Favorites"): adds a favorite to one of the caller's folders, creating the folder
// when it does not exist yet; the same value twice in one folder is 409 Conflict.
import { z } from 'zod';
import { principalOf } from '../auth.js';
import { defineOperation } from '../wire/operation.js';
import { fromAccounts, isOutcome } from '../wire/outcome.js';
import { responseOf } from '../wire/response-status.js';
import { FavoriteItem } from './favorites-by-folder.js';

export const FavoriteAdd = z
  .object({
    folderName: z.string().min(1).describe('The folder; created when it does not exist.'),
    label: z.string().min(1).describe('What the favorite is shown as.'),
    value: z.string().min(1).describe('The favorite itself, such as a code; unique within its folder.'),
  })
  .meta({ id: 'FavoriteAdd' });
export type FavoriteAdd = z.infer<typeof FavoriteAdd>;

export const FavoriteAddResponse = responseOf('FavoriteAddResponse', {
  result: FavoriteItem,
});
export type FavoriteAddResponse = z.input<typeof FavoriteAddResponse>;

/** The FavoriteAdd operation. */
export const favoriteAdd = defineOperation({
  name: 'FavoriteAdd',
  summary: 'Adds a favorite to one of the caller’s folders, creating the folder when needed.',
  request: FavoriteAdd,
  response: FavoriteAddResponse,
  handler: (request, { accounts, call }) => {
    const owner = principalOf(call);
    return isOutcome(owner) ? owner : fromAccounts(accounts.addFavorite(owner, request), (result) => ({ result }));
  },
});
