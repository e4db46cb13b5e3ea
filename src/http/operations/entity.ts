// Entity (operations.md, "Accounts, content and housekeeping"): creates an organisation in the application database
// and returns its id. A caller creates entities only inside its own organisation: the parent defaults to the
// caller's entity, and a parent outside it is 403 Forbidden. Without a caller (authentication off, no credentials)
// a missing parent makes a top-level entity, as `npm run keys -- create` does.
import { z } from 'zod';
import { int } from '../wire/fields.js';
import { defineOperation } from '../wire/operation.js';
import { failure, fromAccounts, notFound } from '../wire/outcome.js';
import { responseOf } from '../wire/response-status.js';

export const Entity = z
  .object({
    parentEntityId: int({ min: 1 })
      .optional()
      .describe("The parent organisation; must exist. Default: the caller's own entity."),
    entityName: z.string().min(1).describe('Unique under its parent, case-insensitively; at most 200 characters.'),
    isTest: z.boolean().optional(),
    isTrial: z.boolean().optional(),
    phoneExt: z.string().optional(),
    phoneNumber: z.string().optional(),
    emailAddress: z.string().optional().describe('Checked for syntax only.'),
    addressStreet: z.string().optional(),
    addressSecond: z.string().optional(),
    city: z.string().optional(),
    state: z.string().optional().describe('A USPS state or territory code.'),
    postalCode: z.string().optional().describe('A ZIP code, 12345 or 12345-6789.'),
    url: z.string().optional().describe('An http or https URL.'),
  })
  .meta({ id: 'Entity' });
export type Entity = z.infer<typeof Entity>;

export const EntityResponse = responseOf('EntityResponse', {
  entityId: int(),
});
export type EntityResponse = z.input<typeof EntityResponse>;

/** The Entity operation. */
export const entity = defineOperation({
  name: 'Entity',
  summary: 'Creates an organisation (entity) under the caller’s own and returns its id.',
  request: Entity,
  response: EntityResponse,
  handler: (request, { accounts, call }) => {
    const caller = call.caller?.principal;
    const parentEntityId = request.parentEntityId ?? caller?.entityId;
    if (caller !== undefined && parentEntityId !== undefined) {
      if (accounts.getEntity(parentEntityId) === undefined) {
        return notFound(`Parent entity ${String(parentEntityId)} does not exist.`);
      }
      if (!accounts.isWithinEntity(parentEntityId, caller.entityId)) {
        return failure('Forbidden', 'Entities can be created only within the caller’s own organisation.');
      }
    }
    const input = parentEntityId === undefined ? request : { ...request, parentEntityId };
    return fromAccounts(accounts.createEntity(input), (created) => ({ entityId: created.entityId }));
  },
});
