// FolderCreate (ext, operations.md "Favorites"): creates an empty favorites folder for the caller; a name the caller
// already uses (any case) is 409 Conflict.
import { z } from 'zod';
import { principalOf } from '../auth.js';
import { defineOperation } from '../wire/operation.js';
import { fromAccounts, isOutcome } from '../wire/outcome.js';
import { responseOf } from '../wire/response-status.js';
import { FolderItem } from './favorites-folders.js';

export const FolderCreate = z
  .object({
    folderName: z.string().min(1).describe('The new folder name; unique per user, case-insensitively.'),
  })
  .meta({ id: 'FolderCreate' });
export type FolderCreate = z.infer<typeof FolderCreate>;

export const FolderCreateResponse = responseOf('FolderCreateResponse', {
  result: FolderItem,
});
export type FolderCreateResponse = z.input<typeof FolderCreateResponse>;

/** The FolderCreate operation. */
export const folderCreate = defineOperation({
  name: 'FolderCreate',
  summary: 'Creates a favorites folder for the caller.',
  request: FolderCreate,
  response: FolderCreateResponse,
  handler: (request, { accounts, call }) => {
    const owner = principalOf(call);
    return isOutcome(owner) ? owner : fromAccounts(accounts.createFolder(owner, request), (result) => ({ result }));
  },
});
