// Hello (operations.md): greets `worldParam` and reports where this deployment lives, from configuration.
// Public: needs no credentials.
import { z } from 'zod';
import { defineOperation } from '../wire/operation.js';
import { responseOf } from '../wire/response-status.js';

export const Hello = z
  .object({
    worldParam: z.string().min(1).describe('Who to greet.'),
  })
  .meta({ id: 'Hello' });
export type Hello = z.infer<typeof Hello>;

export const HelloResponse = responseOf('HelloResponse', {
  hello: z.string(),
  env: z.string(),
  apiUrl: z.string(),
  webRoot: z.string(),
  webRootWdb: z.string(),
  request: Hello,
});
export type HelloResponse = z.input<typeof HelloResponse>;

/** The Hello operation. */
export const hello = defineOperation({
  name: 'Hello',
  summary: 'Greets worldParam and reports the environment and public URLs of this deployment.',
  request: Hello,
  response: HelloResponse,
  public: true,
  handler: (request, { config }) => ({
    hello: `Hello, ${request.worldParam}`,
    env: config.env,
    apiUrl: config.apiUrl,
    webRoot: config.webRoot,
    webRootWdb: config.webRootWdb,
    request,
  }),
});
