// Builds a reference database from fixture files written to a fresh temporary sources folder.
import Database from 'better-sqlite3';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { buildReference, type BuildResult } from '../../src/refdata/builder/builder.js';
import type { Loader } from '../../src/refdata/builder/types.js';

export interface FixtureBuild {
  readonly dir: string;
  readonly sourcesDir: string;
  readonly dbPath: string;
  readonly result: BuildResult;
  /** Opens the built database read-only; close it when done. */
  open(): Database.Database;
}

/** Writes `files` (relative path → content) into a temp sources folder, then builds with `loaders`. */
export async function buildFixture(files: Record<string, string | Buffer>, loaders: readonly Loader[]): Promise<FixtureBuild> {
  const dir = await mkdtemp(join(tmpdir(), 'refdata-test-'));
  const sourcesDir = join(dir, 'sources');
  await mkdir(sourcesDir, { recursive: true });
  for (const [rel, content] of Object.entries(files)) {
    const path = join(sourcesDir, rel);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, content);
  }
  const dbPath = join(dir, 'build', 'reference.sqlite');
  const result = await buildReference({ sourcesDir, dbPath, loaders });
  return { dir, sourcesDir, dbPath, result, open: () => new Database(dbPath, { readonly: true }) };
}

/** Where the official files are for integration tests (`REFDATA_DIR`, else `../shared/data`). */
export const officialDataDir = process.env['REFDATA_DIR'] ?? '../shared/data';
