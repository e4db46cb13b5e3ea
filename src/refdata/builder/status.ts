// What a built reference database holds (`refdata status`) and whether it still matches its sources and its own
// recorded counts (`refdata verify`).
import Database from 'better-sqlite3';
import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import { ScrubberError } from '../../errors.js';
import { ManifestEntry, manifestPath, ReferenceManifest } from '../../schemas/reference-manifest.js';
import { scanSources } from './builder.js';
import { countTables } from './core-schema.js';

/** A source as `refdata status` shows it: the manifest's entry, with its loader and load figures. */
export const SourceStatus = ManifestEntry.extend({
  loader: z.string(),
  bytes: z.number().int(),
  loadMs: z.number().int(),
});
export type SourceStatus = z.infer<typeof SourceStatus>;

export const DatabaseStatus = z.object({
  schemaVersion: z.number().int(),
  builtAt: z.string(),
  dbPath: z.string(),
  sources: z.array(SourceStatus),
  skipped: z.array(z.object({ file: z.string(), reason: z.string() })),
  tables: z.record(z.string(), z.number().int()),
});
export type DatabaseStatus = z.infer<typeof DatabaseStatus>;

function openReadOnly(dbPath: string): Database.Database {
  if (!existsSync(dbPath)) {
    throw new ScrubberError('REF_DB', `no reference database at ${dbPath}: run \`npm run refdata -- build\``);
  }
  return new Database(dbPath, { readonly: true, fileMustExist: true });
}

/** Reads the status of the database at `dbPath`. */
export function readStatus(dbPath: string): DatabaseStatus {
  const db = openReadOnly(dbPath);
  try {
    const meta = Object.fromEntries((db.prepare('SELECT key, value FROM meta').all() as { key: string; value: string }[]).map((r) => [r.key, r.value]));
    const sources = db
      .prepare(
        `SELECT dataset, loader, file, member, sha256, release, valid_from AS validFrom, valid_to AS validTo, rows, bytes,
                load_ms AS loadMs FROM source ORDER BY id`,
      )
      .all() as SourceStatus[];
    const skipped = db.prepare('SELECT file, reason FROM skipped_file ORDER BY file').all() as { file: string; reason: string }[];
    return {
      schemaVersion: Number(meta['schema_version']),
      builtAt: meta['built_at'] ?? '',
      dbPath,
      sources,
      skipped,
      tables: countTables(db),
    };
  } finally {
    db.close();
  }
}

export interface VerifyProblem {
  readonly what: string;
  readonly detail: string;
}

/**
 * Re-reads the sources' checksums, recounts every table against the counts recorded at build time, compares the
 * manifest beside the database, and runs SQLite's quick_check.
 * @returns the problems found; empty when the database matches its sources
 */
export async function verifyDatabase(
  dbPath: string,
  sourcesDir: string,
  bundledDir?: string,
  policiesDir?: string,
): Promise<VerifyProblem[]> {
  const problems: VerifyProblem[] = [];
  const status = readStatus(dbPath);
  const scanned = await scanSources(sourcesDir);
  if (bundledDir !== undefined && existsSync(bundledDir)) {
    scanned.push(...(await scanSources(bundledDir, 'bundled/')));
  }
  if (policiesDir !== undefined && existsSync(policiesDir)) {
    scanned.push(...(await scanSources(policiesDir, 'policies/')));
  }
  const files = new Map(scanned.map((f) => [f.relPath, f.sha256]));
  for (const s of status.sources) {
    const now = files.get(s.file);
    if (now === undefined) {
      problems.push({ what: 'source missing', detail: `${s.file} (${s.dataset} ${s.release}) is no longer in ${sourcesDir}` });
    } else if (now !== s.sha256) {
      problems.push({ what: 'source changed', detail: `${s.file}: sha256 ${now} differs from the loaded ${s.sha256}` });
    }
  }
  const db = openReadOnly(dbPath);
  try {
    const recorded = db.prepare('SELECT name, rows FROM table_count').all() as { name: string; rows: number }[];
    for (const r of recorded) {
      const actual = status.tables[r.name];
      if (actual !== r.rows) {
        problems.push({ what: 'count mismatch', detail: `table ${r.name}: ${actual ?? 'missing'} rows, ${r.rows} recorded at build` });
      }
    }
    const check = db.pragma('quick_check', { simple: true }) as string;
    if (check !== 'ok') {
      problems.push({ what: 'integrity', detail: check });
    }
  } finally {
    db.close();
  }
  const mpath = manifestPath(dbPath);
  if (!existsSync(mpath)) {
    problems.push({ what: 'manifest missing', detail: mpath });
  } else {
    const manifest = ReferenceManifest.parse(JSON.parse(readFileSync(mpath, 'utf8')));
    const inDb = status.sources.map((s) => `${s.dataset}|${s.file}|${s.sha256}|${s.rows}`).join('\n');
    const inManifest = manifest.sources.map((s) => `${s.dataset}|${s.file}|${s.sha256}|${s.rows}`).join('\n');
    if (inDb !== inManifest) {
      problems.push({ what: 'manifest drift', detail: `${mpath} does not list the sources the database holds` });
    }
  }
  return problems;
}
