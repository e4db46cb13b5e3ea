// Builds the reference database from a sources folder.
//
//   sources folder ──scan──> files (+sha256) ──recognise (each loader)──> units ──┐      skipped files listed
//                                                                               v
//   build key = schema + builder + loader versions + (file, sha256, unit)* ── same as target's? ──yes──> no-op
//                                                                               │ no
//   <target>.tmp-<pid>: core DDL + loader DDL ──load unit by unit (one transaction each)──> finalize ──> ANALYZE
//                                                                               │
//                         rename over <target> only when everything succeeded ──┘  (failure: temp removed)
import Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import { openBytes, sha256File, zipMembers, type OpenedBytes } from '../../readers/byte-source.js';
import { ReferenceDataError, ScrubberError } from '../../errors.js';
import { CHANGE_DAY_TABLE, readChangeDays } from '../../reference/queries/change-days.js';
import { manifestPath, type ManifestEntry } from '../../schemas/reference-manifest.js';
import { SCHEMA_VERSION } from '../../schemas/reference-meta.js';
import { coreDdl, countTables, finalizeCodes } from './core-schema.js';
import { dayBefore, fiscalYearEnd, quarterEnd } from './dates.js';
import { fiscalYearOf } from '../../schemas/validity.js';
import { MUE_DATASET, PtpSetting } from '../../schemas/edits.js';
import type { Loader, Probe, SourceFile, SourceUnit } from './types.js';

/** Receives progress of a build; the CLI prints it on stderr, tests collect or drop it. */
export interface BuildReporter {
  scanned(files: number, units: number, skipped: readonly SkippedFile[]): void;
  unitProgress(unit: UnitLabel, rows: number, bytes: number, elapsedMs: number, done: boolean): void;
  phase(name: string, elapsedMs: number): void;
}

export interface UnitLabel {
  readonly dataset: string;
  readonly release: string;
  readonly file: string;
  readonly member?: string | undefined;
}

export interface SkippedFile {
  readonly file: string;
  readonly reason: string;
}

/** A kind of file that is known and deliberately not loaded, with the reason shown in the skipped list. */
export interface SkipRule {
  readonly pattern: RegExp;
  readonly reason: string;
}

export interface BuildOptions {
  readonly sourcesDir: string;
  /** Data committed with the project (e.g. `data/reference`), scanned like sources; shown as `bundled/<path>`. */
  readonly bundledDir?: string | undefined;
  /** Policy packs shipped with the project (`samples/policies`), scanned like sources; shown as `policies/<path>`. */
  readonly policiesDir?: string | undefined;
  /** Known files that are not loaded on purpose; matched against the relative path. */
  readonly skipRules?: readonly SkipRule[] | undefined;
  readonly dbPath: string;
  readonly loaders: readonly Loader[];
  /** Loader or dataset names to build; all when absent. */
  readonly only?: readonly string[] | undefined;
  /** Rebuild even when the sources are unchanged. @default false */
  readonly force?: boolean | undefined;
  readonly reporter?: BuildReporter | undefined;
  /** Minimum milliseconds between two progress reports of one unit. @default 1000 */
  readonly progressIntervalMs?: number | undefined;
}

export interface UnitResult extends UnitLabel {
  readonly rows: number;
  readonly bytes: number;
  readonly ms: number;
}

export interface BuildResult {
  readonly status: 'built' | 'unchanged';
  readonly dbPath: string;
  readonly units: readonly UnitResult[];
  readonly skipped: readonly SkippedFile[];
  readonly ms: number;
}

const silent: BuildReporter = { scanned: () => undefined, unitProgress: () => undefined, phase: () => undefined };

/** Lists every regular file below `dir` (hidden files excluded), sorted by relative path. */
export async function scanSources(dir: string, prefix = ''): Promise<SourceFile[]> {
  if (!existsSync(dir)) {
    throw new ScrubberError('REF_SOURCE', `sources folder ${dir} does not exist (set REFDATA_DIR or --sources; see docs/reference-data.md "Getting the official files")`);
  }
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files: SourceFile[] = [];
  for (const e of entries) {
    if (!e.isFile()) {
      continue;
    }
    const path = join(e.parentPath, e.name);
    const relPath = prefix + relative(dir, path).split(sep).join('/');
    // Hidden files, and `.part` files that data:fetch is still writing (or left after a dropped download).
    if (relative(dir, path).split(sep).some((part) => part.startsWith('.')) || e.name.endsWith('.part')) {
      continue;
    }
    const info = await stat(path);
    files.push({ path, relPath, name: e.name, size: info.size, sha256: await sha256File(path) });
  }
  return files.sort((a, b) => (a.relPath < b.relPath ? -1 : a.relPath > b.relPath ? 1 : 0));
}

function probeOf(file: SourceFile): Probe {
  let members: Promise<string[]> | undefined;
  const isZip = /\.(zip|xlsx)$/i.test(file.name);
  return {
    members: () => (members ??= isZip ? zipMembers(file.path).catch(() => []) : Promise.resolve([])),
    head: async (member?: string, maxBytes = 4096): Promise<string> => {
      const opened = await openBytes({ path: file.path, member });
      const parts: Buffer[] = [];
      let total = 0;
      try {
        for await (const chunk of opened.stream as AsyncIterable<Buffer>) {
          parts.push(chunk);
          total += chunk.length;
          if (total >= maxBytes) {
            break;
          }
        }
      } finally {
        await opened.close();
      }
      return Buffer.concat(parts).subarray(0, maxBytes).toString('latin1');
    },
  };
}

interface PlannedUnit {
  readonly loader: Loader;
  readonly file: SourceFile;
  readonly unit: SourceUnit;
}

/** Recognises every file with every loader; files no loader takes are returned as skipped. */
export async function planBuild(
  files: readonly SourceFile[],
  loaders: readonly Loader[],
  only?: readonly string[],
  skipRules: readonly SkipRule[] = [],
): Promise<{ planned: PlannedUnit[]; skipped: SkippedFile[] }> {
  const planned: PlannedUnit[] = [];
  const skipped: SkippedFile[] = [];
  for (const file of files) {
    const probe = probeOf(file);
    let taken = 0;
    for (const loader of loaders) {
      for (const unit of await loader.recognise(file, probe)) {
        taken++;
        if (!only || only.includes(loader.name) || only.includes(unit.dataset)) {
          planned.push({ loader, file, unit });
        }
      }
    }
    if (taken === 0) {
      const rule = skipRules.find((r) => r.pattern.test(file.relPath));
      skipped.push({ file: file.relPath, reason: rule?.reason ?? 'not recognised by any loader' });
    }
  }
  // Load in loader order, then oldest release first, so finalize steps see releases in time order.
  const order = new Map(loaders.map((l, i) => [l, i]));
  planned.sort(
    (a, b) =>
      (order.get(a.loader) ?? 0) - (order.get(b.loader) ?? 0) ||
      a.unit.dataset.localeCompare(b.unit.dataset) ||
      a.unit.validFrom.localeCompare(b.unit.validFrom) ||
      a.file.relPath.localeCompare(b.file.relPath),
  );
  return { planned, skipped };
}

/**
 * Bumped when the builder's own output changes, so an unchanged sources folder still rebuilds. 2: a source whose rows
 * all end ends with them (closeSourcesByRows). 3: the newest release of a quarterly NCCI dataset ends with its quarter.
 * 4: every release of a quarterly or fiscal-year dataset ends with its period (HCPCS, OPPS, lab NCD, ICD-10 orders).
 * 5: so do the POA exempt lists.
 */
const BUILDER_VERSION = 5;

function buildKey(planned: readonly PlannedUnit[], loaders: readonly Loader[], only?: readonly string[]): string {
  const key = {
    schema: SCHEMA_VERSION,
    builder: BUILDER_VERSION,
    loaders: loaders.map((l) => `${l.name}@${l.version}`),
    only: only ?? null,
    units: planned.map((p) => [p.file.relPath, p.file.sha256, p.unit.dataset, p.unit.member ?? '', p.unit.release]),
  };
  return createHash('sha256').update(JSON.stringify(key)).digest('hex');
}

/** Reads the database already at `dbPath` (read-only); `none` when there is none or it cannot be read. */
function readExisting<T>(dbPath: string, none: T, read: (db: Database.Database) => T): T {
  if (!existsSync(dbPath)) {
    return none;
  }
  try {
    const db = new Database(dbPath, { readonly: true, fileMustExist: true });
    try {
      return read(db);
    } finally {
      db.close();
    }
  } catch {
    return none;
  }
}

const existingBuildKey = (dbPath: string): string | undefined =>
  readExisting(dbPath, undefined, (db) => (db.prepare("SELECT value FROM meta WHERE key = 'build_key'").get() as { value: string } | undefined)?.value);

/** The datasets a database at `dbPath` holds (none when there is no readable one). */
const existingDatasets = (dbPath: string): string[] =>
  readExisting(dbPath, [], (db) =>
    (db.prepare('SELECT DISTINCT dataset FROM source ORDER BY dataset').all() as { dataset: string }[]).map((r) => r.dataset),
  );

/** Removes temporary databases left by builds that were killed (their process is gone). */
async function removeStaleTemps(dbPath: string): Promise<void> {
  const dir = dirname(dbPath);
  const prefix = `${basename(dbPath)}.tmp-`;
  for (const name of await readdir(dir)) {
    if (!name.startsWith(prefix)) {
      continue;
    }
    const pid = Number(name.slice(prefix.length).split('-')[0]);
    let alive = false;
    try {
      process.kill(pid, 0);
      alive = pid !== process.pid;
    } catch {
      alive = false;
    }
    if (!alive) {
      await rm(join(dir, name), { force: true });
    }
  }
}

/**
 * Builds (or confirms up to date) the reference database at `options.dbPath` from `options.sourcesDir`.
 * The previous database is replaced only when every loader succeeded.
 * @throws ReferenceDataError naming the file, member and line of the first bad input
 */
export async function buildReference(options: BuildOptions): Promise<BuildResult> {
  const started = Date.now();
  const reporter = options.reporter ?? silent;
  const interval = options.progressIntervalMs ?? 1000;
  const files = await scanSources(options.sourcesDir);
  if (options.bundledDir !== undefined && existsSync(options.bundledDir)) {
    files.push(...(await scanSources(options.bundledDir, 'bundled/')));
  }
  if (options.policiesDir !== undefined && existsSync(options.policiesDir)) {
    files.push(...(await scanSources(options.policiesDir, 'policies/')));
  }
  const { planned, skipped } = await planBuild(files, options.loaders, options.only, options.skipRules);
  reporter.scanned(files.length, planned.length, skipped);
  reporter.phase('scan', Date.now() - started);
  const key = buildKey(planned, options.loaders, options.only);
  if (!options.force && existingBuildKey(options.dbPath) === key) {
    return { status: 'unchanged', dbPath: options.dbPath, units: [], skipped, ms: Date.now() - started };
  }

  if (options.only !== undefined && !options.force) {
    // `--only` builds a database of those datasets alone: over the full database the scrubber and server read (the
    // default --db), it would drop every other dataset without a word.
    const kept = new Set(planned.map((p) => p.unit.dataset));
    const dropped = existingDatasets(options.dbPath).filter((d) => !kept.has(d));
    if (dropped.length > 0) {
      throw new ScrubberError(
        'CONFIG',
        `--only ${options.only.join(',')} builds a database holding only those datasets: it would replace ${options.dbPath}, which holds ${String(dropped.length)} other(s) (${dropped.slice(0, 5).join(', ')}${dropped.length > 5 ? ', ...' : ''}); give --db FILE for a database of its own, or --force to replace it`,
      );
    }
  }
  await mkdir(dirname(options.dbPath), { recursive: true });
  await removeStaleTemps(options.dbPath);
  const tempPath = `${options.dbPath}.tmp-${process.pid}-${Date.now()}`;
  const db = new Database(tempPath);
  const results: UnitResult[] = [];
  try {
    // The temporary file is discarded on any failure, so journaling and syncing during the build buy nothing.
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    db.pragma('cache_size = -262144');
    db.pragma('temp_store = MEMORY');
    db.exec(coreDdl);
    // Every loader's tables exist in every database, empty when nothing was loaded into them (an `--only` build),
    // so the read side can prepare all its statements against any database of this schema version.
    const usedLoaders = [...new Set(planned.map((p) => p.loader))];
    for (const loader of options.loaders) {
      db.exec(loader.ddl);
    }
    const insertSource = db.prepare(
      `INSERT INTO source (dataset, loader, file, member, sha256, size, release, valid_from, valid_to)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const finishSource = db.prepare('UPDATE source SET rows = ?, bytes = ?, load_ms = ? WHERE id = ?');
    for (const { loader, file, unit } of planned) {
      const label: UnitLabel = { dataset: unit.dataset, release: unit.release, file: file.relPath, member: unit.member };
      const unitStart = Date.now();
      const sourceId = Number(
        insertSource.run(unit.dataset, loader.name, file.relPath, unit.member ?? null, file.sha256, file.size, unit.release, unit.validFrom, unit.validTo ?? null)
          .lastInsertRowid,
      );
      let rows = 0;
      let lastReport = unitStart;
      const opened: OpenedBytes[] = [];
      // Loaders that read a workbook through the XLSX reader never call open(): count the file they read instead.
      const bytes = (): number =>
        opened.length === 0 && unit.member === undefined ? file.size : opened.reduce((n, o) => n + o.bytesRead(), 0);
      db.exec('BEGIN');
      try {
        await loader.load({
          db,
          sourceId,
          file,
          unit,
          progress: {
            add(n: number): void {
              rows += n;
              const now = Date.now();
              if (now - lastReport >= interval) {
                lastReport = now;
                reporter.unitProgress(label, rows, bytes(), now - unitStart, false);
              }
            },
          },
          open: async () => {
            const o = await openBytes({ path: file.path, member: unit.member });
            opened.push(o);
            return o.stream;
          },
        });
        db.exec('COMMIT');
      } catch (err) {
        if (db.inTransaction) {
          db.exec('ROLLBACK');
        }
        if (err instanceof ScrubberError) {
          throw err;
        }
        throw new ReferenceDataError({ file: file.relPath, member: unit.member }, `${unit.dataset} loader failed: ${(err as Error).message}`, {
          cause: err,
        });
      } finally {
        for (const o of opened) {
          await o.close();
        }
      }
      const ms = Date.now() - unitStart;
      finishSource.run(rows, bytes(), ms, sourceId);
      reporter.unitProgress(label, rows, bytes(), ms, true);
      results.push({ ...label, rows, bytes: bytes(), ms });
    }

    const finalizeStart = Date.now();
    db.exec('BEGIN');
    deriveSourceValidTo(db);
    finalizeCodes(db);
    for (const loader of usedLoaders) {
      loader.finalize?.(db);
    }
    closeSourcesByRows(db);
    const insertSkipped = db.prepare('INSERT INTO skipped_file (file, sha256, reason) VALUES (?, ?, ?)');
    for (const s of skipped) {
      insertSkipped.run(s.file, files.find((f) => f.relPath === s.file)?.sha256 ?? '', s.reason);
    }
    const setMeta = db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)');
    setMeta.run('schema_version', String(SCHEMA_VERSION));
    setMeta.run('built_at', new Date().toISOString());
    setMeta.run('build_key', key);
    setMeta.run('sources_dir', options.sourcesDir);
    setMeta.run('only', JSON.stringify(options.only ?? null));
    db.exec('CREATE TABLE table_count (name TEXT PRIMARY KEY, rows INTEGER NOT NULL) WITHOUT ROWID');
    const insertCount = db.prepare('INSERT INTO table_count (name, rows) VALUES (?, ?)');
    for (const [name, rows] of Object.entries(countTables(db))) {
      insertCount.run(name, rows);
    }
    // The days per-code answers can change on, read once here instead of by every connection (~0.4 s each).
    const days = readChangeDays(db);
    db.exec(`CREATE TABLE ${CHANGE_DAY_TABLE} (day TEXT PRIMARY KEY) WITHOUT ROWID`);
    const insertDay = db.prepare(`INSERT INTO ${CHANGE_DAY_TABLE} (day) VALUES (?)`);
    for (const day of days) {
      insertDay.run(day);
    }
    db.exec('COMMIT');
    reporter.phase('finalize', Date.now() - finalizeStart);
    const analyzeStart = Date.now();
    db.exec('ANALYZE');
    // Keep sqlite_stat1 (row estimates per index) but not sqlite_stat4 samples: with stat4 present SQLite
    // re-prepares a statement whenever a bound value could change its plan, which costs every range or partial-key
    // lookup about 5 us (6.3 us -> 1.4 us for a code on a date). Our queries have one sensible plan each.
    if (db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'sqlite_stat4'").get()) {
      db.exec('DELETE FROM sqlite_stat4');
    }
    db.pragma('journal_mode = DELETE');
    reporter.phase('analyze', Date.now() - analyzeStart);
    db.close();
    await rename(tempPath, options.dbPath);
    await writeManifest(options.dbPath, options.sourcesDir);
  } catch (err) {
    if (db.open) {
      db.close();
    }
    await rm(tempPath, { force: true });
    throw err;
  }
  return { status: 'built', dbPath: options.dbPath, units: results, skipped, ms: Date.now() - started };
}

/**
 * Datasets CMS replaces every quarter: a release answers for its own quarter only (domain.md section 8: "No version
 * for the date → no_data, never a pass"; section 9: "Tables for the quarter not loaded → no_data"). A claim of a
 * quarter no loaded release covers is not checked against them. The HCPCS file family and the lab NCD list carry
 * per-row dates too, but a row without an end date only says the code was in force when the file was cut.
 */
const QUARTERLY_DATASETS: ReadonlySet<string> = new Set([
  ...Object.values(MUE_DATASET),
  ...Object.values(PtpSetting).map((setting) => `ncci-ptp-${setting}`),
  'ncci-aoc',
  'hcpcs',
  'hcpcs-noc',
  'hcpcs-corrections',
  'hcpcs-proc-notes',
  'ncd-lab',
  'opps-addendum-b',
  'opps-addendum-b-derived',
]);

/**
 * Code sets and lists released per federal fiscal year: a release answers until Sep 30 of its fiscal year (the POA
 * exempt list of FY2026 says nothing of an FY2027 discharge).
 */
const FISCAL_YEAR_DATASETS: ReadonlySet<string> = new Set([
  'icd10cm-order',
  'icd10pcs-order',
  'icd10cm-poa-exempt',
  'icd10cm-poa-exempt-changes',
]);

/** The last day a release of `dataset` starting on `validFrom` can answer for, when its dataset has a cycle. */
function releasePeriodEnd(dataset: string, validFrom: string): string | undefined {
  const name = dataset.replace(/-xlsx$/, '');
  if (QUARTERLY_DATASETS.has(name)) {
    return quarterEnd(validFrom);
  }
  if (FISCAL_YEAR_DATASETS.has(name)) {
    return fiscalYearEnd(fiscalYearOf(validFrom));
  }
  return undefined;
}

/**
 * A release without its own end date ends the day before the next release of the same dataset starts, and no later
 * than the end of its period where its dataset has one ({@link releasePeriodEnd}): the January 2023 OPPS addendum
 * answers for 2023Q1, not until the January 2025 one starts.
 */
function deriveSourceValidTo(db: Database.Database): void {
  const rows = db.prepare('SELECT id, dataset, valid_from, valid_to FROM source ORDER BY dataset, valid_from, id').all() as {
    id: number;
    dataset: string;
    valid_from: string;
    valid_to: string | null;
  }[];
  const update = db.prepare('UPDATE source SET valid_to = ? WHERE id = ?');
  rows.forEach((row, i) => {
    if (row.valid_to !== null) {
      return;
    }
    const next = rows.slice(i + 1).find((r) => r.dataset === row.dataset && r.valid_from > row.valid_from);
    const ends = [next && dayBefore(next.valid_from), releasePeriodEnd(row.dataset, row.valid_from)].filter(
      (d): d is string => d !== undefined,
    );
    if (ends.length > 0) {
      update.run(ends.sort()[0], row.id);
    }
  });
}

/**
 * A release still open after the finalize steps ends on the last day of its rows when every dated row of it ends.
 * Loaders may close rows where another dataset takes over (the official OPPS CY2025 quarter ends 2026-03-31, where
 * the derived April 2026 rows start), and `refdata status` must not show such a release as open-ended. Runs after
 * {@link deriveSourceValidTo}, so the next release of the same dataset, where there is one, decides first.
 */
function closeSourcesByRows(db: Database.Database): void {
  const ids = db.prepare('SELECT id FROM source WHERE valid_to IS NULL').all() as { id: number }[];
  const open = new Set(ids.map((r) => r.id));
  if (open.size === 0) {
    return;
  }
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as {
    name: string;
  }[];
  const columnsOf = (table: string): string[] =>
    (db.prepare('SELECT name FROM pragma_table_info(?)').all(table) as { name: string }[]).map((c) => c.name);
  const dated = tables
    .map((t) => t.name)
    .filter((t) => ['source_id', 'valid_to'].every((c) => columnsOf(t).includes(c)));
  // Per open source: whether any dated row is still in force, and the last day of its rows.
  const ends = new Map<number, { open: boolean; last: string }>();
  for (const table of dated) {
    const rows = db
      .prepare(
        `SELECT source_id AS id, max(valid_to IS NULL) AS open, max(valid_to) AS last FROM "${table}" GROUP BY source_id`,
      )
      .all() as { id: number; open: number; last: string | null }[];
    for (const r of rows.filter((row) => open.has(row.id))) {
      const seen = ends.get(r.id) ?? { open: false, last: '' };
      const last = r.last !== null && r.last > seen.last ? r.last : seen.last;
      ends.set(r.id, { open: seen.open || r.open === 1, last });
    }
  }
  const update = db.prepare('UPDATE source SET valid_to = ? WHERE id = ?');
  for (const [id, end] of ends) {
    if (!end.open && end.last !== '') {
      update.run(end.last, id);
    }
  }
}

async function writeManifest(dbPath: string, sourcesDir: string): Promise<void> {
  const db = new Database(dbPath, { readonly: true });
  try {
    const sources = db
      .prepare(
        `SELECT dataset, file, member, sha256, release, valid_from AS validFrom, valid_to AS validTo, rows
         FROM source ORDER BY id`,
      )
      .all() as ManifestEntry[];
    const meta = Object.fromEntries((db.prepare('SELECT key, value FROM meta').all() as { key: string; value: string }[]).map((r) => [r.key, r.value]));
    await writeFile(
      manifestPath(dbPath),
      `${JSON.stringify({ schemaVersion: Number(meta['schema_version']), builtAt: meta['built_at'], buildKey: meta['build_key'], sourcesDir, sources }, null, 2)}\n`,
    );
  } finally {
    db.close();
  }
}
