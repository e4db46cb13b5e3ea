// The HTTP shim's configuration section. It lives here rather than in config.ts so that src/http can use the type
// without importing config.ts (dependency direction, style.md): config.ts composes it into the whole Config.
import { z } from 'zod';

export const HttpConfig = z.strictObject({
  /** TCP port `serve` listens on; 0 picks a free port. @default 8080 */
  port: z.int().min(0).max(65535),
  /** Interface `serve` binds. @default '127.0.0.1' */
  host: z.string().min(1),
  /** Largest request body accepted; larger ones are answered 413 (wire.md §5). @default 1048576 */
  maxBodyBytes: z.int().min(1),
  /** Puts `stackTrace` into error replies (wire.md §9). @default false */
  debug: z.boolean(),
  /** Whether credentials are checked; `serve --no-auth` turns it off. @default true */
  auth: z.boolean(),
  /** Deployment name reported by Hello. @default 'development' */
  env: z.string(),
  /** Public API base URL reported by Hello. @default 'http://HOST:PORT/api' */
  apiUrl: z.string(),
  /** Public web root reported by Hello. @default 'http://HOST:PORT/' */
  webRoot: z.string(),
  /** Web root of the widget build reported by Hello. @default the webRoot */
  webRootWdb: z.string(),
  /**
   * (ext) In-memory indexes `serve` builds before it listens (`--warm search,nlp`, `HTTP_WARM`): the search index
   * (about 7 s) and the NLP dictionary (about 4 s), otherwise built by the first search or DocumentV2 request, which
   * then holds every other request up. @default []
   */
  warm: z.array(z.enum(['search', 'nlp'])).optional(),
  /** (ext) Largest DocumentV2 text in UTF-8 bytes; longer is answered 413 (operations.md). @default 102400 */
  nlpMaxTextBytes: z.int().min(1).optional(),
});
export type HttpConfig = z.infer<typeof HttpConfig>;
