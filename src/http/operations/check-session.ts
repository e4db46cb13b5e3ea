// CheckSession (spec "Session check"): whether a session token is still valid. The token is the `svcToken` field,
// else the X-Svc-Token header. Unknown, expired and revoked sessions all answer `false` with 200. A valid check
// counts as a use (the idle expiry slides). Public.
import { z } from 'zod';
import { sessionTokenOf } from '../auth.js';
import { defineOperation } from '../wire/operation.js';
import { responseOf } from '../wire/response-status.js';

export const CheckSession = z
  .object({
    svcToken: z.string().optional().describe('The session token; default: the X-Svc-Token header.'),
  })
  .meta({ id: 'CheckSession' });
export type CheckSession = z.infer<typeof CheckSession>;

export const CheckSessionResponse = responseOf('CheckSessionResponse', {
  isValidSession: z.boolean(),
  request: CheckSession,
});
export type CheckSessionResponse = z.input<typeof CheckSessionResponse>;

/** The CheckSession operation. */
export const checkSession = defineOperation({
  name: 'CheckSession',
  summary: 'Tells whether a session token (svcToken) is still valid.',
  request: CheckSession,
  response: CheckSessionResponse,
  public: true,
  handler: (request, { accounts, call }) => {
    const token = request.svcToken ?? sessionTokenOf(call);
    return { isValidSession: token !== undefined && accounts.checkSession(token).valid, request };
  },
});
