// SigStringBasic (operations.md): the string a client signs, `apiKey\nuserName\ntimeStampUtc`, and the normalised
// UTC timestamp to send with it. `timeStampIso8601` wins over `timeStamp`; neither means now. Public.
import { z } from 'zod';
import { sigStringBasic as computeSigString } from '../../accounts/index.js';
import { dateTime } from '../wire/fields.js';
import { defineOperation } from '../wire/operation.js';
import { fromAccounts } from '../wire/outcome.js';
import { responseOf } from '../wire/response-status.js';

export const SigStringBasic = z
  .object({
    apiKey: z.string().optional().describe('The API key id (not its secret).'),
    timeStampIso8601: z.string().optional().describe('The request time, ISO 8601; wins over timeStamp.'),
    timeStamp: dateTime().optional().describe('The request time with offset; used when timeStampIso8601 is absent.'),
    userName: z.string().optional().describe('The user the key was issued to.'),
  })
  .meta({ id: 'SigStringBasic' });
export type SigStringBasic = z.infer<typeof SigStringBasic>;

export const SigStringBasicResponse = responseOf('SigStringBasicResponse', {
  request: SigStringBasic,
  timeStampUtc: z.string().describe('The timestamp to send as X-Api-Timestamp: yyyy-MM-ddTHH:mm:ss.fffZ.'),
  signableString: z.string().describe('Sign this: Base64(HMAC-SHA256(secret, signableString)).'),
});
export type SigStringBasicResponse = z.input<typeof SigStringBasicResponse>;

/** The SigStringBasic operation. */
export const sigStringBasic = defineOperation({
  name: 'SigStringBasic',
  summary: 'Builds the string a client signs with its API secret, and the UTC timestamp to send with the signature.',
  request: SigStringBasic,
  response: SigStringBasicResponse,
  routes: [{ path: '/sigStringBasic', verbs: 'any' }],
  public: true,
  handler: (request, ctx) =>
    fromAccounts(computeSigString(request, ctx.now().getTime()), (computed) => ({ request, ...computed })),
});
