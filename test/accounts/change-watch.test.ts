// changeWatch: commits by other connections are seen, but data_version is read at most once per recheckMs.
import Database from 'better-sqlite3';
import { afterEach, describe, expect, test } from 'vitest';
import { changeWatch } from '../../src/accounts/change-watch.js';
import { tempAppDbPath } from '../helpers/accounts.js';

const opened: Database.Database[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) {
    db.close();
  }
});

async function twoConnections(): Promise<[Database.Database, Database.Database]> {
  const path = await tempAppDbPath();
  const a = new Database(path);
  a.pragma('journal_mode = WAL');
  a.exec('CREATE TABLE t (x INTEGER)');
  const b = new Database(path);
  opened.push(a, b);
  return [a, b];
}

describe('changeWatch', () => {
  test("another connection's commit is reported once, after recheckMs; this connection's own are not", async () => {
    const [a, b] = await twoConnections();
    let t = 0;
    const changed = changeWatch(a, { recheckMs: 100 }, () => t);
    expect(changed()).toBe(false);
    b.exec('INSERT INTO t VALUES (1)');
    t = 50;
    expect(changed()).toBe(false); // not read yet: within recheckMs of the last read
    t = 100;
    expect(changed()).toBe(true);
    t = 200;
    expect(changed()).toBe(false); // reported once
    a.exec('INSERT INTO t VALUES (2)');
    t = 300;
    expect(changed()).toBe(false); // own commits do not move data_version
  });

  test('recheckMs 0 reads data_version on every call', async () => {
    const [a, b] = await twoConnections();
    const changed = changeWatch(a, { recheckMs: 0 }, () => 0);
    b.exec('INSERT INTO t VALUES (1)');
    expect(changed()).toBe(true);
    expect(changed()).toBe(false);
  });
});
