// Authenticate (ext, operations.md "Session check"): a signed call (the four X-Api-* headers) opens a session and
// returns its svcToken, which later calls send instead of signing (X-Svc-Token, or ?svcToken= where headers cannot
// be set). Public, because the handler checks the signature itself; the call is then counted like any other.
import { z } from 'zod';
import { signedRequestOf } from '../auth.js';
import { dateTime, int } from '../wire/fields.js';
import { defineOperation } from '../wire/operation.js';
import { failure, fromAccounts } from '../wire/outcome.js';
import { responseOf } from '../wire/response-status.js';

export const Authenticate = z.object({}).meta({ id: 'Authenticate' });
export type Authenticate = z.infer<typeof Authenticate>;

export const AuthenticateResponse = responseOf('AuthenticateResponse', {
  svcToken: z.string().describe('The session token; shown once, only its hash is stored.'),
  userName: z.string(),
  entityId: int(),
  idleExpiresAt: dateTime().describe('When the session ends if unused; each use moves it (30 minutes idle).'),
  expiresAt: dateTime().describe('When the session ends whatever its use (12 hours after opening).'),
});
export type AuthenticateResponse = z.input<typeof AuthenticateResponse>;

const iso = (ms: number): string => new Date(ms).toISOString();

/** The Authenticate operation. */
export const authenticate = defineOperation({
  name: 'Authenticate',
  summary: 'Opens a session from a signed request and returns its svcToken (sent as X-Svc-Token afterwards).',
  request: Authenticate,
  response: AuthenticateResponse,
  public: true,
  handler: (_request, { accounts, call }) => {
    const signed = signedRequestOf(call.headers);
    if (signed === 'absent' || signed === 'partial') {
      return failure(
        'Unauthorized',
        'Authenticate needs the headers X-Api-Key, X-Api-User, X-Api-Timestamp and X-Api-Signature.',
      );
    }
    return fromAccounts(accounts.authenticate(signed), (session) => {
      // Counted by the usage hook like any authenticated call (the auth hook skips public operations).
      call.caller = { key: session.principal.apiKey, principal: session.principal, via: 'signature' };
      return {
        svcToken: session.svcToken,
        userName: session.principal.userName,
        entityId: session.principal.entityId,
        idleExpiresAt: iso(session.idleExpiresAt),
        expiresAt: iso(session.expiresAt),
      };
    });
  },
});
