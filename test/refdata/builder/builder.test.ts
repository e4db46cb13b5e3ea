import { existsSync, readdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, test } from 'vitest';
import { buildReference } from '../../../src/refdata/builder/builder.js';
import { readStatus, verifyDatabase } from '../../../src/refdata/builder/status.js';
import type { Loader } from '../../../src/refdata/builder/types.js';
import { icd10OrderLoader } from '../../../src/refdata/loaders/icd10-order.js';
import { CHANGE_DAY_TABLE, readChangeDays } from '../../../src/reference/queries/change-days.js';
import { buildFixture } from '../../helpers/build.js';
import { makeZip } from '../../helpers/zip.js';
import { orderLine } from '../../helpers/order-line.js';

const zip2026 = makeZip({ 'icd10cm_order_2026.txt': `${orderLine(1, 'A00', 0, 'Cholera')}\r\n${orderLine(2, 'A000', 1, 'Cholera 01')}\r\n` });

describe('buildReference', () => {
  test('lists files no loader recognises as skipped, and records them', async () => {
    const build = await buildFixture({ 'order.zip': zip2026, 'notes/readme.txt': 'hello' }, [icd10OrderLoader]);
    expect(build.result.skipped).toEqual([{ file: 'notes/readme.txt', reason: 'not recognised by any loader' }]);
    const status = readStatus(build.dbPath);
    expect(status.skipped).toEqual([{ file: 'notes/readme.txt', reason: 'not recognised by any loader' }]);
    expect(status.sources).toMatchObject([{ dataset: 'icd10cm-order', file: 'order.zip', member: 'icd10cm_order_2026.txt', release: 'FY2026', validFrom: '2025-10-01', rows: 2 }]);
  });

  test('a second build with unchanged sources is a no-op, --force rebuilds, a changed source rebuilds', async () => {
    const build = await buildFixture({ 'order.zip': zip2026 }, [icd10OrderLoader]);
    const again = await buildReference({ sourcesDir: build.sourcesDir, dbPath: build.dbPath, loaders: [icd10OrderLoader] });
    expect(again.status).toBe('unchanged');
    const forced = await buildReference({ sourcesDir: build.sourcesDir, dbPath: build.dbPath, loaders: [icd10OrderLoader], force: true });
    expect(forced.status).toBe('built');
    await writeFile(join(build.sourcesDir, 'order.zip'), makeZip({ 'icd10cm_order_2026.txt': `${orderLine(1, 'A00', 0, 'Cholera')}\r\n` }));
    const changed = await buildReference({ sourcesDir: build.sourcesDir, dbPath: build.dbPath, loaders: [icd10OrderLoader] });
    expect(changed.status).toBe('built');
    expect(readStatus(build.dbPath).sources[0]?.rows).toBe(1);
  });

  test('--only never replaces a database holding other datasets unless forced (it would drop them)', async () => {
    const notes: Loader = {
      name: 'notes',
      version: 1,
      ddl: 'CREATE TABLE notes (x)',
      recognise: async (file) => (file.name === 'notes.txt' ? [{ dataset: 'notes', release: '1', validFrom: '2025-01-01' }] : []),
      load: async () => undefined,
    };
    const build = await buildFixture({ 'order.zip': zip2026, 'notes.txt': 'x' }, [icd10OrderLoader, notes]);
    const before = readStatus(build.dbPath);
    expect(before.sources.map((s) => s.dataset)).toEqual(['icd10cm-order', 'notes']);
    const only = { sourcesDir: build.sourcesDir, loaders: [icd10OrderLoader, notes], only: ['icd10cm-order'] };
    await expect(buildReference({ ...only, dbPath: build.dbPath })).rejects.toThrow(
      `--only icd10cm-order builds a database holding only those datasets: it would replace ${build.dbPath}, which holds 1 other(s) (notes); give --db FILE for a database of its own, or --force to replace it`,
    );
    expect(readStatus(build.dbPath).builtAt).toBe(before.builtAt);
    // A database of its own, or a forced replacement, is built.
    const own = join(build.dir, 'build', 'only.sqlite');
    expect((await buildReference({ ...only, dbPath: own })).status).toBe('built');
    expect((await buildReference({ ...only, dbPath: own })).status).toBe('unchanged');
    expect((await buildReference({ ...only, dbPath: build.dbPath, force: true })).status).toBe('built');
    expect(readStatus(build.dbPath).sources.map((s) => s.dataset)).toEqual(['icd10cm-order']);
  });

  test('a failed build leaves the previous database untouched and no temporary file', async () => {
    const build = await buildFixture({ 'order.zip': zip2026 }, [icd10OrderLoader]);
    const before = readStatus(build.dbPath).builtAt;
    const failing: Loader = {
      name: 'failing',
      version: 1,
      ddl: 'CREATE TABLE failing (x)',
      recognise: async (file) => (file.name === 'order.zip' ? [{ dataset: 'failing', release: 'X', validFrom: '2025-01-01' }] : []),
      load: async () => {
        throw new Error('disk on fire');
      },
    };
    await expect(buildReference({ sourcesDir: build.sourcesDir, dbPath: build.dbPath, loaders: [icd10OrderLoader, failing] })).rejects.toThrow(
      /order\.zip: failing loader failed: disk on fire/,
    );
    expect(readStatus(build.dbPath).builtAt).toBe(before);
    expect(readdirSync(join(build.dir, 'build')).filter((n) => n.includes('.tmp-'))).toEqual([]);
  });

  test('verify passes on a fresh build and reports a changed source', async () => {
    const build = await buildFixture({ 'order.zip': zip2026 }, [icd10OrderLoader]);
    expect(await verifyDatabase(build.dbPath, build.sourcesDir)).toEqual([]);
    await writeFile(join(build.sourcesDir, 'order.zip'), makeZip({ 'icd10cm_order_2026.txt': 'changed' }));
    const problems = await verifyDatabase(build.dbPath, build.sourcesDir);
    expect(problems.map((p) => p.what)).toEqual(['source changed']);
    expect(existsSync(build.dbPath)).toBe(true);
  });

  test('scans bundled project data beside the sources and explains known files it does not load', async () => {
    const build = await buildFixture({ 'order.zip': zip2026, 'tables/icd10cm.xsd': '<xs:schema/>' }, [icd10OrderLoader]);
    const bundledDir = join(build.dir, 'bundled-data');
    const { mkdir } = await import('node:fs/promises');
    await mkdir(bundledDir);
    await writeFile(join(bundledDir, '2025-code-descriptions.zip'), makeZip({ 'icd10cm_order_2025.txt': `${orderLine(1, 'A00', 0, 'Cholera')}\r\n` }));
    const result = await buildReference({
      sourcesDir: build.sourcesDir,
      dbPath: build.dbPath,
      loaders: [icd10OrderLoader],
      bundledDir,
      skipRules: [{ pattern: /\.xsd$/, reason: 'XML schema, no data' }],
    });
    expect(result.skipped).toEqual([{ file: 'tables/icd10cm.xsd', reason: 'XML schema, no data' }]);
    expect(readStatus(build.dbPath).sources.map((s) => [s.file, s.release])).toEqual([
      ['bundled/2025-code-descriptions.zip', 'FY2025'],
      ['order.zip', 'FY2026'],
    ]);
    expect(await verifyDatabase(build.dbPath, build.sourcesDir, bundledDir)).toEqual([]);
  });

  test("stores the days per-code answers change on, as reading the rows gives them", async () => {
    const build = await buildFixture({ 'order.zip': zip2026 }, [icd10OrderLoader]);
    const db = new Database(build.dbPath);
    const stored = readChangeDays(db);
    expect(stored).toContain('2025-10-01');
    db.exec(`DROP TABLE ${CHANGE_DAY_TABLE}`);
    expect(readChangeDays(db)).toEqual(stored);
    db.close();
  });

  test('keeps index statistics without stat4 samples, which would make SQLite re-prepare range lookups', async () => {
    const build = await buildFixture({ 'order.zip': zip2026 }, [icd10OrderLoader]);
    const db = build.open();
    const tables = (db.prepare("SELECT name FROM sqlite_master WHERE name LIKE 'sqlite_stat%'").all() as { name: string }[]).map((r) => r.name);
    expect(tables).toContain('sqlite_stat1');
    if (tables.includes('sqlite_stat4')) {
      expect(db.prepare('SELECT count(*) n FROM sqlite_stat4').get()).toEqual({ n: 0 });
    }
    db.close();
  });
});
