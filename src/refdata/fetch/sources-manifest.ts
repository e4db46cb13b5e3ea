// The list of official releases the loaders know (`data/sources.json`): its zod schema, the single source of its
// type, and the reader that validates it. Each entry names one file by its path relative to the sources folder,
// with the sha256 and size every copy must have and, where one serves exactly these bytes, its official URL.
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { ScrubberError } from '../../errors.js';

/** A path relative to the sources folder: `/`-separated, no empty, `.` or `..` segment, no backslash. */
const RelativeFile = z
  .string()
  .min(1)
  .refine((p) => !p.includes('\\') && p.split('/').every((s) => s !== '' && s !== '.' && s !== '..'), {
    message: 'must be a relative path with / separators and no empty, "." or ".." segment',
  });

/** Where the stored bytes were copied from (a public repository), for provenance. */
export const SourceOrigin = z.strictObject({
  repo: z.string().regex(/^[\w.-]+\/[\w.-]+$/, 'owner/name'),
  path: z.string().min(1),
  commit: z
    .string()
    .regex(/^[0-9a-f]{40}$/, '40 hex digits')
    .optional(),
});
export type SourceOrigin = z.infer<typeof SourceOrigin>;

/** One file of one official release. */
export const SourceEntry = z
  .strictObject({
    /** Stable dataset name, e.g. `icd10cm-order`, `mue-practitioner`. */
    dataset: z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'kebab-case'),
    /** The release as the publisher names it: `FY2026`, `2026Q2`, `v43.1`. */
    release: z.string().min(1),
    /** Path relative to the sources folder, e.g. `icd10cm/2026-code-descriptions-tabular-order.zip`. */
    file: RelativeFile,
    sha256: z.string().regex(/^[0-9a-f]{64}$/, '64 lower-case hex digits'),
    bytes: z.number().int().nonnegative(),
    /** The official CMS/CDC download URL serving exactly these bytes; null when there is none (see `note`). */
    url: z.url({ protocol: /^https?$/ }).nullable(),
    /** True when the content is the CMS/CDC release itself; false for derived or re-saved copies. */
    official: z.boolean(),
    note: z.string().min(1).optional(),
    origin: SourceOrigin.optional(),
  })
  .refine((e) => e.url !== null || e.note !== undefined, {
    message: 'an entry without a url needs a note saying where the file comes from',
    path: ['note'],
  });
export type SourceEntry = z.infer<typeof SourceEntry>;

/** The whole list. */
export const SourcesManifest = z
  .strictObject({
    schemaVersion: z.literal(1),
    description: z.string().optional(),
    sources: z.array(SourceEntry).min(1),
  })
  .superRefine((m, ctx) => {
    const seen = new Set<string>();
    m.sources.forEach((e, i) => {
      if (seen.has(e.file)) {
        ctx.addIssue({ code: 'custom', message: `file ${e.file} is listed twice`, path: ['sources', i, 'file'] });
      }
      seen.add(e.file);
    });
  });
export type SourcesManifest = z.infer<typeof SourcesManifest>;

/**
 * Validates a parsed sources list.
 * @param json - the parsed JSON
 * @param origin - the file it came from, named in errors
 * @throws ScrubberError `REF_SOURCE` listing every invalid field
 */
export function parseSourcesManifest(json: unknown, origin: string): SourcesManifest {
  const parsed = SourcesManifest.safeParse(json);
  if (!parsed.success) {
    const details = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new ScrubberError('REF_SOURCE', `${origin} is not a valid sources list: ${details}`);
  }
  return parsed.data;
}

/**
 * Reads and validates a sources list such as `data/sources.json`.
 * @param path - the JSON file
 * @throws ScrubberError `REF_SOURCE` when it is unreadable, not JSON or invalid
 */
export async function readSourcesManifest(path: string): Promise<SourcesManifest> {
  let text: string;
  try {
    text = await readFile(path, 'utf-8');
  } catch (err) {
    throw new ScrubberError('REF_SOURCE', `cannot read sources list ${path}: ${(err as Error).message}`, {
      cause: err,
    });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new ScrubberError('REF_SOURCE', `${path} is not JSON: ${(err as Error).message}`, { cause: err });
  }
  return parseSourcesManifest(json, path);
}
