// The contract between the reference-database builder and its loaders. A loader recognises the official files it
// knows (by name pattern, then by content), declares its tables, and streams each recognised unit into them.
import type Database from 'better-sqlite3';
import type { Readable } from 'node:stream';

/** A file found in the sources folder. */
export interface SourceFile {
  /** Absolute or working-directory-relative path to open. */
  readonly path: string;
  /** Path relative to the sources folder, with `/` separators: the name shown to users and stored. */
  readonly relPath: string;
  /** Base name. */
  readonly name: string;
  readonly size: number;
  readonly sha256: string;
}

/** One loadable unit recognised in a source file: a file, or a member of a ZIP. */
export interface SourceUnit {
  /** Stable dataset name, e.g. `icd10cm-order`, `gems-dx-i10-i9`, `mue-practitioner`. */
  readonly dataset: string;
  /** ZIP member holding the unit; absent when the unit is the file itself (plain, gzip or XLSX). */
  readonly member?: string | undefined;
  /** The release as the publisher names it: `FY2026`, `2026Q2`, `v43.1`, `CY2025`. */
  readonly release: string;
  /** First date the release is in force (ISO `YYYY-MM-DD`). */
  readonly validFrom: string;
  /** Last date the release is in force, when the release itself says; otherwise derived from the next release. */
  readonly validTo?: string | undefined;
}

/** Content access for recognising files without loading them. */
export interface Probe {
  /** Member names, when the file is a ZIP (an XLSX is a ZIP too); `[]` otherwise. */
  members(): Promise<string[]>;
  /** The first bytes of the file (decompressed for `.gz`) or of one member, decoded as latin1. */
  head(member?: string, maxBytes?: number): Promise<string>;
}

/** Progress of one unit: loaders call `add` as rows go in. */
export interface Progress {
  add(rows: number): void;
}

/** What a loader gets to load one unit. */
export interface LoadContext {
  /** The database being built (writable; a transaction is open around `load`). */
  readonly db: Database.Database;
  /** Row id of this unit in the `source` table: store it on every row as provenance. */
  readonly sourceId: number;
  readonly file: SourceFile;
  readonly unit: SourceUnit;
  readonly progress: Progress;
  /** Opens the unit's bytes (the ZIP member, the gunzipped file, or the file). Closed by the builder. */
  open(): Promise<Readable>;
}

/** A loader of one family of official files. */
export interface Loader {
  /** Name used by `--only`; usually the family (`icd10cm-order`). `--only` also matches dataset names. */
  readonly name: string;
  /** Bumped whenever the loader's output changes, so unchanged sources still rebuild after a loader change. */
  readonly version: number;
  /** `CREATE TABLE`/`CREATE INDEX` statements for the loader's own tables (run once, before any load). */
  readonly ddl: string;
  /** Returns the units this loader takes from the file, or `[]` when the file is not one of its own. */
  recognise(file: SourceFile, probe: Probe): Promise<SourceUnit[]>;
  /** Streams one unit into the database. Throws ReferenceDataError with file, member and line on bad input. */
  load(ctx: LoadContext): Promise<void>;
  /** Runs once after every unit of every loader is in, e.g. to derive validity intervals across releases. */
  finalize?(db: Database.Database): void;
}
