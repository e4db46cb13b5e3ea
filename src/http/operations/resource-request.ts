// ResourceRequest (`/resource/{Name*}`, operations.md): serves a file of the resources folder (Config.resourcesDir:
// the embeddable widgets and other static documents) as it is, with a content type chosen by its extension. Any
// name that would leave the folder (`..`, an absolute path, a backslash, a symbolic link pointing out), a hidden
// file, a folder or a missing file answers 404 NotFound in the negotiated format. The router already refuses `..`
// segments in the path; the checks here also cover names bound from the query or a body.
import { realpath, readFile, stat } from 'node:fs/promises';
import { extname, isAbsolute, relative, resolve } from 'node:path';
import { z } from 'zod';
import { content } from '../wire/content.js';
import { defineOperation } from '../wire/operation.js';
import { notFound } from '../wire/outcome.js';
import { responseOf } from '../wire/response-status.js';

export const ResourceRequest = z
  .object({
    apiKey: z
      .string()
      .optional()
      .describe('Accepted for compatibility and ignored: credentials are the signed headers or the session token.'),
    name: z.string().optional().describe('The file, relative to the resources folder (search-widget.html).'),
  })
  .meta({ id: 'ResourceRequest' });
export type ResourceRequest = z.infer<typeof ResourceRequest>;

export const ResourceRequestResponse = responseOf('ResourceRequestResponse', {});
export type ResourceRequestResponse = z.input<typeof ResourceRequestResponse>;

/** Content types by lower-case extension; anything else is served as application/octet-stream. */
const CONTENT_TYPES: ReadonlyMap<string, string> = new Map([
  ['.html', 'text/html; charset=utf-8'],
  ['.htm', 'text/html; charset=utf-8'],
  ['.js', 'text/javascript; charset=utf-8'],
  ['.mjs', 'text/javascript; charset=utf-8'],
  ['.css', 'text/css; charset=utf-8'],
  ['.json', 'application/json; charset=utf-8'],
  ['.xml', 'application/xml; charset=utf-8'],
  ['.csv', 'text/csv; charset=utf-8'],
  ['.txt', 'text/plain; charset=utf-8'],
  ['.md', 'text/markdown; charset=utf-8'],
  ['.svg', 'image/svg+xml'],
  ['.png', 'image/png'],
  ['.jpg', 'image/jpeg'],
  ['.jpeg', 'image/jpeg'],
  ['.gif', 'image/gif'],
  ['.ico', 'image/x-icon'],
  ['.pdf', 'application/pdf'],
]);

/**
 * The real path of a resource, or undefined when the name does not name a regular file inside the folder.
 * @param folder - the resources folder
 * @param name - the requested name, `/`-separated
 */
async function locate(folder: string, name: string): Promise<string | undefined> {
  const segments = name.split('/').filter((s) => s !== '');
  if (
    segments.length === 0 ||
    isAbsolute(name) ||
    /[\\\0]/.test(name) ||
    segments.some((s) => s.startsWith('.')) // `.`, `..` and hidden files
  ) {
    return undefined;
  }
  try {
    const root = await realpath(folder);
    const file = await realpath(resolve(root, ...segments)); // follows links, so they are checked below
    const rel = relative(root, file);
    if (rel === '' || rel.startsWith('..') || isAbsolute(rel) || !(await stat(file)).isFile()) {
      return undefined;
    }
    return file;
  } catch {
    return undefined; // missing file or folder, unreadable entry
  }
}

/** The ResourceRequest operation. */
export const resourceRequest = defineOperation({
  name: 'ResourceRequest',
  summary: 'Serves a file of the resources folder (the embeddable widgets) by name.',
  request: ResourceRequest,
  response: ResourceRequestResponse,
  routes: [{ path: '/resource/{Name*}', verbs: 'any' }],
  handler: async (request, { resourcesDir }) => {
    const name = request.name?.trim() ?? '';
    const file = await locate(resourcesDir, name);
    if (file === undefined) {
      return notFound(`No resource named '${name.slice(0, 200)}'.`);
    }
    const type = CONTENT_TYPES.get(extname(file).toLowerCase()) ?? 'application/octet-stream';
    return content(type, await readFile(file), { 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-cache' });
  },
});
