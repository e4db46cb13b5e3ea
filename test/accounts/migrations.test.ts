// Schema migrations of the application database: a new database gets every migration, opening again is a no-op,
// an old (v1) database migrates forward keeping its rows, and a database from a newer program is refused.
import Database from 'better-sqlite3';
import { writeFile } from 'node:fs/promises';
import { describe, expect, test } from 'vitest';
import { LATEST_VERSION, migrate, migrations, openAccounts, schemaVersion } from '../../src/accounts/index.js';
import { ScrubberError } from '../../src/errors.js';
import { tempAppDbPath } from '../helpers/accounts.js';

const tables = (db: Database.Database): string[] =>
  (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string }[]).map(
    (r) => r.name,
  );

describe('application database migrations', () => {
  test('a new database is migrated to the latest version, in WAL mode', async () => {
    const path = await tempAppDbPath();
    openAccounts(path).close();
    const db = new Database(path, { readonly: true });
    expect(schemaVersion(db)).toBe(LATEST_VERSION);
    expect(db.prepare('SELECT version FROM migrations ORDER BY version').all()).toEqual(
      migrations.map((m) => ({ version: m.version })),
    );
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(tables(db)).toEqual(
      expect.arrayContaining(['entity', 'api_key', 'session', 'folder', 'favorite', 'usage', 'dashboard_webinar']),
    );
    db.close();
  });

  test('opening an up-to-date database applies nothing and records nothing twice', async () => {
    const path = await tempAppDbPath();
    openAccounts(path).close();
    openAccounts(path).close();
    const db = new Database(path);
    expect(migrate(db)).toEqual([]);
    expect(db.prepare('SELECT count(*) AS n FROM migrations').get()).toEqual({ n: migrations.length });
    db.close();
  });

  test('a v1 database migrates forward and keeps its entities and keys', async () => {
    const path = await tempAppDbPath();
    const old = new Database(path);
    expect(migrate(old, migrations.slice(0, 1))).toEqual([1]);
    expect(tables(old)).not.toContain('favorite');
    old.prepare("INSERT INTO entity (entity_name, created_at) VALUES ('Old Clinic', 1)").run();
    old
      .prepare(
        "INSERT INTO api_key (api_key, secret, user_name, entity_id, created_at) VALUES ('ak_old', 's', 'ann', 1, 1)",
      )
      .run();
    old.close();

    const accounts = openAccounts(path);
    expect(accounts.getEntity(1)?.entityName).toBe('Old Clinic');
    expect(accounts.listApiKeys()).toEqual([
      { apiKey: 'ak_old', userName: 'ann', entityId: 1, createdAt: 1, revokedAt: null },
    ]);
    // The tables of later migrations work.
    expect(accounts.createFolder({ entityId: 1, userName: 'ann' }, { folderName: 'Cardiology' }).ok).toBe(true);
    accounts.close();

    const db = new Database(path, { readonly: true });
    expect(schemaVersion(db)).toBe(LATEST_VERSION);
    db.close();
  });

  test('a database written by a newer program is refused with APP_DB', async () => {
    const path = await tempAppDbPath();
    openAccounts(path).close();
    const db = new Database(path);
    db.prepare("INSERT INTO migrations (version, name, applied_at) VALUES (?, 'from the future', 0)").run(
      LATEST_VERSION + 1,
    );
    db.close();
    expect(() => openAccounts(path)).toThrow(ScrubberError);
    expect(() => openAccounts(path)).toThrow(/newer than this program/);
  });

  test('a file that is not a database is refused with APP_DB', async () => {
    const path = await tempAppDbPath();
    await writeFile(path, 'not a database, just text that is long enough to be read as a header');
    expect(() => openAccounts(path)).toThrow(expect.objectContaining({ code: 'APP_DB' }));
  });
});
