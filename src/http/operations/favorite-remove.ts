// FavoriteRemove (ext, operations.md "Favorites"): removes one of the caller's favorites by id and returns it; another
// user's id is 404 like an unknown one.
import { z } from 'zod';
import { principalOf } from '../auth.js';
import { int } from '../wire/fields.js';
import { defineOperation } from '../wire/operation.js';
import { fromAccounts, isOutcome } from '../wire/outcome.js';
import { responseOf } from '../wire/response-status.js';
import { FavoriteItem } from './favorites-by-folder.js';

export const FavoriteRemove = z
  .object({
    id: int({ min: 1 }).describe('The favorite id, as FavoritesByFolder lists it.'),
  })
  .meta({ id: 'FavoriteRemove' });
export type FavoriteRemove = z.infer<typeof FavoriteRemove>;

export const FavoriteRemoveResponse = responseOf('FavoriteRemoveResponse', {
  result: FavoriteItem,
});
export type FavoriteRemoveResponse = z.input<typeof FavoriteRemoveResponse>;

/** The FavoriteRemove operation. */
export const favoriteRemove = defineOperation({
  name: 'FavoriteRemove',
  summary: 'Removes one of the caller’s favorites and returns it.',
  request: FavoriteRemove,
  response: FavoriteRemoveResponse,
  handler: (request, { accounts, call }) => {
    const owner = principalOf(call);
    return isOutcome(owner) ? owner : fromAccounts(accounts.removeFavorite(owner, request), (result) => ({ result }));
  },
});
