// Schema migrations of the application database. Each migration runs once, in its own transaction, and is recorded
// in the `migrations` table; opening a database applies whatever is missing, so opening twice is a no-op. Never edit
// a released migration: append a new one.
import type Database from 'better-sqlite3';
import { ScrubberError } from '../errors.js';

/** One step of the schema. */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

/** Every migration, in version order. */
export const migrations: readonly Migration[] = [
  {
    version: 1,
    name: 'entities, api keys, sessions',
    sql: `
      CREATE TABLE entity (
        entity_id        INTEGER PRIMARY KEY,
        parent_entity_id INTEGER REFERENCES entity(entity_id),
        entity_name      TEXT NOT NULL,
        is_test          INTEGER NOT NULL DEFAULT 0,
        is_trial         INTEGER NOT NULL DEFAULT 0,
        phone_ext        TEXT,
        phone_number     TEXT,
        email_address    TEXT,
        address_street   TEXT,
        address_second   TEXT,
        city             TEXT,
        state            TEXT,
        postal_code      TEXT,
        url              TEXT,
        created_at       INTEGER NOT NULL
      );
      -- One name per parent, case-insensitively; top-level entities share parent 0 (NULLs would all be distinct).
      CREATE UNIQUE INDEX entity_name_per_parent ON entity (ifnull(parent_entity_id, 0), entity_name COLLATE NOCASE);

      -- The secret is kept as issued: HMAC verification needs it server-side. See src/accounts/api-keys.ts.
      CREATE TABLE api_key (
        api_key    TEXT PRIMARY KEY,
        secret     TEXT NOT NULL,
        user_name  TEXT NOT NULL,
        entity_id  INTEGER NOT NULL REFERENCES entity(entity_id),
        created_at INTEGER NOT NULL,
        revoked_at INTEGER
      ) WITHOUT ROWID;

      -- Only the SHA-256 of a session token is stored.
      CREATE TABLE session (
        token_hash   BLOB PRIMARY KEY,
        api_key      TEXT NOT NULL REFERENCES api_key(api_key),
        created_at   INTEGER NOT NULL,
        last_seen_at INTEGER NOT NULL
      ) WITHOUT ROWID;
      CREATE INDEX session_by_key ON session (api_key);
    `,
  },
  {
    version: 2,
    name: 'favorites, folders, usage counters',
    sql: `
      CREATE TABLE folder (
        folder_id   INTEGER PRIMARY KEY,
        entity_id   INTEGER NOT NULL REFERENCES entity(entity_id),
        user_name   TEXT NOT NULL,
        folder_name TEXT NOT NULL
      );
      CREATE UNIQUE INDEX folder_name_per_user ON folder (entity_id, user_name, folder_name COLLATE NOCASE);

      CREATE TABLE favorite (
        favorite_id INTEGER PRIMARY KEY,
        folder_id   INTEGER NOT NULL REFERENCES folder(folder_id) ON DELETE CASCADE,
        label       TEXT NOT NULL,
        value       TEXT NOT NULL,
        UNIQUE (folder_id, value)
      );

      CREATE TABLE usage (
        entity_id INTEGER NOT NULL,
        user_name TEXT NOT NULL,
        operation TEXT NOT NULL,
        day       TEXT NOT NULL,
        count     INTEGER NOT NULL,
        PRIMARY KEY (entity_id, user_name, operation, day)
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 3,
    name: 'dashboard content',
    sql: `
      CREATE TABLE dashboard_webinar (
        position           INTEGER PRIMARY KEY,
        entry_id           INTEGER NOT NULL,
        entry_name         TEXT NOT NULL,
        bolded_entry_name  TEXT NOT NULL,
        training_url       TEXT NOT NULL,
        schedule_on        INTEGER NOT NULL,
        schedule_on_text   TEXT NOT NULL,
        display_on         INTEGER NOT NULL,
        display_on_text    TEXT NOT NULL,
        time_zone          TEXT NOT NULL,
        bolded             INTEGER NOT NULL
      );
      CREATE TABLE dashboard_feature_document (
        position     INTEGER PRIMARY KEY,
        product_name TEXT NOT NULL,
        source_url   TEXT NOT NULL,
        mime_type    TEXT NOT NULL
      );
      CREATE TABLE dashboard_training_material (
        position          INTEGER PRIMARY KEY,
        product_name      TEXT NOT NULL,
        media_type        TEXT NOT NULL,
        title             TEXT NOT NULL,
        tooltip           TEXT NOT NULL,
        html_description  TEXT NOT NULL,
        preview_image_url TEXT NOT NULL,
        bolded            INTEGER NOT NULL
      );
    `,
  },
];

/** The schema version this program writes. */
export const LATEST_VERSION = migrations.reduce((max, m) => Math.max(max, m.version), 0);

/**
 * The highest applied migration, or 0 for a new database.
 * @param db - an open application database
 */
export function schemaVersion(db: Database.Database): number {
  const table = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'migrations'").get();
  if (table === undefined) {
    return 0;
  }
  const row = db.prepare('SELECT max(version) AS v FROM migrations').get() as { v: number | null };
  return row.v ?? 0;
}

/**
 * Applies the missing migrations, each in its own transaction.
 * @param db - an open application database
 * @param steps - the migrations to consider; tests pass a prefix to build an old database @default migrations
 * @param now - the clock, for `applied_at`
 * @returns the versions applied by this call (empty when the schema was current)
 * @throws ScrubberError `APP_DB` when the database was written by a newer program
 */
export function migrate(
  db: Database.Database,
  steps: readonly Migration[] = migrations,
  now: () => Date = () => new Date(),
): number[] {
  db.exec(`CREATE TABLE IF NOT EXISTS migrations (
    version    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    applied_at INTEGER NOT NULL
  )`);
  const current = schemaVersion(db);
  if (current > LATEST_VERSION) {
    throw new ScrubberError(
      'APP_DB',
      `the application database is at schema version ${current}, newer than this program (${LATEST_VERSION})`,
    );
  }
  const applied: number[] = [];
  const record = db.prepare('INSERT INTO migrations (version, name, applied_at) VALUES (?, ?, ?)');
  for (const step of [...steps].sort((a, b) => a.version - b.version)) {
    if (step.version <= current) {
      continue;
    }
    // IMMEDIATE takes the write lock first, and the version is read again under it: a server and the keys CLI
    // opening the same new database at once apply each step exactly once.
    const ran = db
      .transaction((): boolean => {
        if (schemaVersion(db) >= step.version) {
          return false;
        }
        db.exec(step.sql);
        record.run(step.version, step.name, now().getTime());
        return true;
      })
      .immediate();
    if (ran) {
      applied.push(step.version);
    }
  }
  return applied;
}
