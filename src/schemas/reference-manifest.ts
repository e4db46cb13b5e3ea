// The manifest written beside the reference database (`reference.sqlite` → `reference.manifest.json`): what each
// source was (dataset, release, checksum, rows) and the sources folder the database was built from, so that later
// commands (`refdata verify`, `scrub`) use the same folder without being told again.
import { z } from 'zod';

/** One source of the database. */
export const ManifestEntry = z.object({
  dataset: z.string(),
  file: z.string(),
  member: z.string().nullable(),
  sha256: z.string(),
  release: z.string(),
  validFrom: z.string(),
  validTo: z.string().nullable(),
  rows: z.int(),
});
export type ManifestEntry = z.infer<typeof ManifestEntry>;

/** The manifest file. */
export const ReferenceManifest = z.object({
  schemaVersion: z.int(),
  builtAt: z.string(),
  buildKey: z.string().optional(),
  /** The sources folder of the build, as it was given (absolute or relative to the working folder). */
  sourcesDir: z.string().optional(),
  sources: z.array(ManifestEntry),
});
export type ReferenceManifest = z.infer<typeof ReferenceManifest>;

/** Path of the manifest of a database: `reference.sqlite` → `reference.manifest.json`. */
export function manifestPath(dbPath: string): string {
  return dbPath.replace(/(\.sqlite)?$/, '.manifest.json');
}
