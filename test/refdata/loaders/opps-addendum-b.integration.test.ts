// Integration: the real OPPS Addendum B workbooks (January 2023, January 2025 renamed) and the DERIVED April 2026 CSV.
import Database from 'better-sqlite3';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { buildReference, type BuildResult } from '../../../src/refdata/builder/builder.js';
import { readStatus } from '../../../src/refdata/builder/status.js';
import { oppsAddendumBLoader } from '../../../src/refdata/loaders/opps-addendum-b.js';
import { createProcedureQueries, type ProcedureQueries } from '../../../src/reference/queries/procedures.js';
import { officialDataDir } from '../../helpers/build.js';

let db: Database.Database;
let q: ProcedureQueries;
let result: BuildResult;
let dbPath: string;

beforeAll(async () => {
  dbPath = join(await mkdtemp(join(tmpdir(), 'opps-int-')), 'reference.sqlite');
  result = await buildReference({ sourcesDir: officialDataDir, dbPath, loaders: [oppsAddendumBLoader] });
  db = new Database(dbPath, { readonly: true });
  q = createProcedureQueries(db);
  return () => db.close();
});

const count = (sql: string, ...params: unknown[]): number => (db.prepare(sql).get(...params) as { n: number }).n;

describe('OPPS Addendum B (real data)', () => {
  test('finds three releases, the renamed CY2025 workbook dated by its sheet', () => {
    expect(result.units.map((u) => [u.dataset, u.release, u.file, u.rows])).toEqual([
      ['opps-addendum-b', '2023Q1', 'opps/2023_January_Web_Addendum_B.12212022.xlsx', 17_559],
      ['opps-addendum-b', '2025Q1', 'opps/opps_addendum_b_2025.xlsx', 18_562],
      ['opps-addendum-b-derived', '2026Q2', 'opps/derived/addendum-b-2026-04-softek-sample.csv', 19_059],
    ]);
  });

  test('status ends each workbook with its own quarter: a date between loaded quarters has no addendum', () => {
    expect(readStatus(dbPath).sources.map((s) => [s.dataset, s.release, s.validFrom, s.validTo])).toEqual([
      ['opps-addendum-b', '2023Q1', '2023-01-01', '2023-03-31'],
      ['opps-addendum-b', '2025Q1', '2025-01-01', '2025-03-31'],
      ['opps-addendum-b-derived', '2026Q2', '2026-04-01', '2026-06-30'],
    ]);
  });

  test('loads every code row with its status indicator, and the derived rows flagged', () => {
    const si = (validFrom: string, indicator: string): number =>
      count(
        'SELECT count(*) n FROM opps_addendum_b WHERE valid_from = ? AND status_indicator = ?',
        validFrom,
        indicator,
      );
    expect([si('2023-01-01', 'J1'), si('2023-01-01', 'S'), si('2023-01-01', 'Q4')]).toEqual([3041, 696, 1226]);
    expect([si('2025-01-01', 'J1'), si('2025-01-01', 'S'), si('2025-01-01', 'Q4')]).toEqual([3141, 667, 1306]);
    expect([si('2026-04-01', 'J1'), si('2026-04-01', 'S1'), si('2026-04-01', 'H1')]).toEqual([3449, 320, 13]);
    expect(count('SELECT count(*) n FROM opps_addendum_b WHERE derived = 1')).toBe(19_059);
    expect(
      count(
        'SELECT count(*) n FROM opps_addendum_b WHERE derived = 1 AND (apc IS NOT NULL OR relative_weight IS NOT NULL)',
      ),
    ).toBe(0);
    expect(count('SELECT count(*) n FROM opps_addendum_b WHERE derived = 1 AND payment_rate IS NOT NULL')).toBe(7336);
    expect(count('SELECT count(*) n FROM opps_addendum_b WHERE valid_from = ? AND apc IS NOT NULL', '2025-01-01')).toBe(
      6657,
    );
  });

  test('ends the rows of each release with its quarter, not where the next loaded release starts', () => {
    expect(
      db.prepare('SELECT DISTINCT valid_from, valid_to, derived FROM opps_addendum_b ORDER BY valid_from').all(),
    ).toEqual([
      { valid_from: '2023-01-01', valid_to: '2023-03-31', derived: 0 },
      { valid_from: '2025-01-01', valid_to: '2025-03-31', derived: 0 },
      { valid_from: '2026-04-01', valid_to: '2026-06-30', derived: 1 },
    ]);
  });

  test('answers SI, APC and payment on a date, falling back to the derived rows only where no official quarter is', () => {
    expect(q.opps('G0463', '2023-02-15')).toMatchObject({
      statusIndicator: 'J2',
      apc: '5012',
      relativeWeight: 1.4122,
      paymentRate: 120.86,
      nationalCopay: null,
      minimumCopay: 24.18,
      derived: false,
      source: { release: '2023Q1', line: 13735 },
    });
    expect(q.opps('G0463', '2025-02-01')).toMatchObject({
      relativeWeight: 1.4452,
      paymentRate: 128.87,
      minimumCopay: 25.78,
      source: { release: '2025Q1' },
    });
    expect(q.opps('G0463', '2026-05-01')).toMatchObject({
      statusIndicator: 'J2',
      apc: null,
      paymentRate: 136.02,
      derived: true,
      source: { release: '2026Q2' },
    });
    // J1429 went from pass-through (G) to packaged (N) to E2; the trailing blanks of its 2023 cell are gone.
    expect(['2023-03-01', '2025-03-01', '2026-04-01'].map((d) => q.opps('J1429', d)?.statusIndicator)).toEqual([
      'G',
      'N',
      'E2',
    ]);
    expect(q.opps('J1429', '2023-03-01')).toMatchObject({ passThroughExpiring: true, changed: true });
    expect(q.opps('Q5111', '2025-01-01')).toMatchObject({
      apc: '9195',
      paymentRate: 135.55,
      adjustedCopay: 27.12,
      changed: true,
    });
    expect(q.opps('A4341', '2025-01-01')?.statusIndicator).toBe('N');
    expect(q.opps('G0463', '2022-12-31')).toBeUndefined();
    // Outside the loaded quarters: no row, whatever the files around the date say.
    for (const date of ['2023-04-01', '2024-06-15', '2025-04-01', '2026-03-31', '2026-07-01']) {
      expect(q.opps('G0463', date), date).toBeUndefined();
    }
  });
});
