// The Reference port (style.md guideline 9): one typed, read-only view of the reference database. Open it once per
// thread (better-sqlite3 connections are not shared across threads); every statement is prepared at open time.
import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { ScrubberError } from '../errors.js';
import { SCHEMA_VERSION } from '../schemas/reference-meta.js';
import { createCodeQueries, type CodeQueries } from './queries/codes.js';
import { createEditQueries, type EditQueries } from './queries/edits.js';
import { createIndexQueries, type IndexQueries } from './queries/index-terms.js';
import { createMappingQueries, type MappingQueries } from './queries/mapping.js';
import { createPolicyQueries, type PolicyQueries } from './queries/policies.js';
import { createPolicyPackQueries, type PolicyPackQueries } from './queries/policy-packs.js';
import { createProcedureQueries, type ProcedureQueries } from './queries/procedures.js';
import { createSearchDocQueries, type SearchDocQueries } from './queries/search-docs.js';
import { createTabularQueries, type TabularQueries } from './queries/tabular.js';

export { CodeSystem, normaliseCode } from '../schemas/code-systems.js';
export type { CodeVersion, CodeQueries } from './queries/codes.js';
export type { EditQueries } from './queries/edits.js';
export type { IndexQueries } from './queries/index-terms.js';
export type { PolicyQueries } from './queries/policies.js';
export type {
  PolicyPackClaimScope,
  PolicyPackQueries,
  PolicyPackRuleInForce,
  PolicyPackSummary,
} from './queries/policy-packs.js';
export type { ProcedureQueries } from './queries/procedures.js';
export type { MappingQueries } from './queries/mapping.js';
export type { TabularQueries } from './queries/tabular.js';

/** Read-only lookups over the reference database. */
export interface Reference {
  readonly codes: CodeQueries;
  /** Tabular List: hierarchy, instructional notes (own and inherited), 7th characters. */
  readonly tabular: TabularQueries;
  /** Alphabetic Index, External Cause Index, Drug and Neoplasm tables, PCS index. */
  readonly index: IndexQueries;
  /** The bulk rows the search index is built from (titles, inclusion terms, index terms with codes). */
  readonly search: SearchDocQueries;
  /** GEMs both ways, conversion-table links, POA exempt lists, ICD-9 detail. */
  readonly mapping: MappingQueries;
  /** HCPCS Level II detail and modifiers, OPPS Addendum B, DMEPOS jurisdiction and fees. */
  readonly procedures: ProcedureQueries;
  /** NCCI MUE, add-on and PTP edits, lab NCDs, ZIP → state/carrier/locality. */
  readonly edits: EditQueries;
  /** MCE lists, MCD documents and code groups, Medicare contractors. */
  readonly policies: PolicyQueries;
  /** Policy packs (CMS manuals, transmittals, MLN Matters, commercial payers): rules in force per procedure. */
  readonly policyPacks: PolicyPackQueries;
  /** Schema version and build time of the open database. */
  /** Schema version, build time and build key (the digest of the sources and loaders it was built from). */
  readonly info: { readonly schemaVersion: number; readonly builtAt: string; readonly buildKey: string | undefined };
  /**
   * Reads the in-memory lookup tables (every code system, the four GEM files, the conversion table, the MCE lists) now
   * rather than on first use, so that a server's or worker's first requests do not wait for them (~1.5-2 s and ~120 MB
   * of heap on the full build).
   * @param scope - `validation`: only what the claim validation engine reads (the GEM files left out: a scrub
   *   worker never maps codes, and they cost each thread ~0.45 s and ~16 MB); `all` by default
   */
  load(scope?: 'all' | 'validation'): void;
  close(): void;
}

/** The most of the reference file mapped into memory (the full build is about 350 MB). */
const MMAP_BYTES = 2 ** 30;

/** How a connection reads the file. */
export interface OpenReferenceOptions {
  /**
   * Bytes of the file read through a memory map. A map's touched pages count in the process's resident memory once
   * per connection, so the scrubber's worker threads (one connection each) read through SQLite's page cache instead.
   * @default 2 ** 30
   */
  readonly mmapBytes?: number | undefined;
  /** SQLite page cache per connection, in MiB (used when the map does not cover the file). @default 2 */
  readonly cacheMb?: number | undefined;
}

/**
 * Opens the reference database read-only and prepares every lookup.
 * @param dbPath - the built database (config `refdataDb`)
 * @param options - memory map and page cache
 * @throws ScrubberError `REF_DB` when the file is missing or built by an incompatible schema version
 */
export function openReference(dbPath: string, options: OpenReferenceOptions = {}): Reference {
  if (!existsSync(dbPath)) {
    throw new ScrubberError('REF_DB', `no reference database at ${dbPath}: run \`npm run refdata -- build\``);
  }
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  // The database is never written in place (a build writes a new file and renames it over this one), so the
  // connection keeps its shared lock for life instead of taking and releasing it, and re-validating its page cache,
  // around every statement: a point lookup drops from about 6.5 us to 0.4 us. Other readers are unaffected.
  db.pragma('locking_mode = EXCLUSIVE');
  // Pages are read through a memory map instead of a read() call each into SQLite's 2 MB page cache: the batch
  // lookups of a cold 100,000-code batch visit ~80,000 pages. The mapping is of the read-only file, shared with
  // the OS page cache and every other process reading it.
  db.pragma(`mmap_size = ${String(options.mmapBytes ?? MMAP_BYTES)}`);
  if (options.cacheMb !== undefined) {
    db.pragma(`cache_size = -${String(Math.round(options.cacheMb * 1024))}`);
  }
  const meta = Object.fromEntries(
    (db.prepare('SELECT key, value FROM meta').all() as { key: string; value: string }[]).map((r) => [r.key, r.value]),
  );
  const schemaVersion = Number(meta['schema_version']);
  if (schemaVersion !== SCHEMA_VERSION) {
    db.close();
    throw new ScrubberError(
      'REF_DB',
      `${dbPath} has schema version ${schemaVersion}, this program needs ${SCHEMA_VERSION}: rebuild it`,
    );
  }
  const codes = createCodeQueries(db);
  const mapping = createMappingQueries(db, codes);
  const policies = createPolicyQueries(db);
  const policyPacks = createPolicyPackQueries(db);
  return {
    codes,
    tabular: createTabularQueries(db),
    index: createIndexQueries(db),
    search: createSearchDocQueries(db),
    mapping,
    procedures: createProcedureQueries(db),
    edits: createEditQueries(db),
    policies,
    policyPacks,
    info: { schemaVersion, builtAt: meta['built_at'] ?? '', buildKey: meta['build_key'] },
    load(scope = 'all') {
      codes.load();
      mapping.load(scope === 'all');
      policies.load();
      policyPacks.load();
    },
    close: () => db.close(),
  };
}
