// The full reference database built from the official files once per test run and shared by every test file that
// needs it (engines, HTTP operations). The first worker to take the lock builds; the others wait for the file the
// builder renames into place only when the build is complete.
import Database from 'better-sqlite3';
import { closeSync, existsSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll } from 'vitest';
import { buildReference } from '../../src/refdata/builder/builder.js';
import { openReference, type Reference } from '../../src/reference/index.js';
import { allLoaders, skipRules } from '../../src/refdata/loaders/index.js';
import { officialDataDir } from './build.js';

let built: Promise<string> | undefined;

async function buildOnce(): Promise<string> {
  // TMPDIR is the run's own root (see .ci/vitest.global-setup.ts), shared by all workers of the run.
  const root = tmpdir();
  const dbPath = join(root, 'shared-reference.sqlite');
  const lock = join(root, 'shared-reference.lock');
  const failed = join(root, 'shared-reference.failed');
  let fd: number | undefined;
  try {
    fd = openSync(lock, 'wx');
  } catch {
    fd = undefined;
  }
  if (fd !== undefined) {
    closeSync(fd);
    try {
      await buildReference({
        sourcesDir: officialDataDir,
        dbPath,
        loaders: allLoaders,
        skipRules,
        bundledDir: 'data/reference',
        policiesDir: 'samples/policies',
      });
    } catch (err) {
      writeFileSync(failed, String((err as Error).stack ?? err));
      throw err;
    }
    return dbPath;
  }
  for (let waited = 0; waited < 600_000; waited += 200) {
    if (existsSync(dbPath)) {
      return dbPath;
    }
    if (existsSync(failed)) {
      throw new Error(`the shared reference build failed in another worker:\n${readFileSync(failed, 'utf8')}`);
    }
    await sleep(200);
  }
  throw new Error('timed out waiting for the shared reference database');
}

/** Path of the full reference database of this test run, built on first use. */
export function sharedReferenceDbPath(): Promise<string> {
  built ??= buildOnce();
  return built;
}

/** Opens the shared full reference database (read-only); close it in the test's teardown. */
export async function openSharedReference(): Promise<Reference> {
  return openReference(await sharedReferenceDbPath());
}

/**
 * For a test file that checks the Reference port's answers against SQL of its own: opens the shared full reference
 * database twice before the file's tests (through the port, and as a plain read-only SQLite connection) and closes
 * both after them.
 * @returns the two handles, set once the file's `beforeAll` has run
 */
export function sharedReferenceAndSql(): { ref: Reference; db: Database.Database } {
  const handles = {} as { ref: Reference; db: Database.Database };
  beforeAll(async () => {
    const path = await sharedReferenceDbPath();
    handles.ref = openReference(path);
    handles.db = new Database(path, { readonly: true });
  });
  afterAll(() => {
    handles.ref.close();
    handles.db.close();
  });
  return handles;
}
