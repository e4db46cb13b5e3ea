// Integration: the real January 2026 DMEPOS and PEN fee schedules.
import Database from 'better-sqlite3';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { buildReference, type BuildResult } from '../../../src/refdata/builder/builder.js';
import { dmeposLoader } from '../../../src/refdata/loaders/dmepos.js';
import { createProcedureQueries, type ProcedureQueries } from '../../../src/reference/queries/procedures.js';
import { officialDataDir } from '../../helpers/build.js';

let db: Database.Database;
let q: ProcedureQueries;
let result: BuildResult;

beforeAll(async () => {
  const dbPath = join(await mkdtemp(join(tmpdir(), 'dmepos-int-')), 'reference.sqlite');
  result = await buildReference({ sourcesDir: officialDataDir, dbPath, loaders: [dmeposLoader] });
  db = new Database(dbPath, { readonly: true });
  q = createProcedureQueries(db);
  return () => db.close();
});

const all = (sql: string): unknown[] => db.prepare(sql).all();

describe('DMEPOS and PEN fee schedules, January 2026 (real data)', () => {
  test('loads 3,515 DMEPOS rows for 2,106 codes and 50 PEN rows for 36 codes, as release 2026Q1', () => {
    expect(result.units.map((u) => [u.dataset, u.release, u.rows])).toEqual([
      ['dmepen-fee', '2026Q1', 50],
      ['dmepos-fee', '2026Q1', 3515],
    ]);
    expect(
      all(
        'SELECT schedule, count(*) n, count(DISTINCT hcpcs) codes, min(valid_from) f, max(valid_to) t FROM dmepos_fee GROUP BY schedule ORDER BY schedule',
      ),
    ).toEqual([
      { schedule: 'DMEPOS', n: 3515, codes: 2106, f: '2026-01-01', t: null },
      { schedule: 'PEN', n: 50, codes: 36, f: '2026-01-01', t: null },
    ]);
  });

  test('keeps the JURIS column: D on 3,240 rows, L on 143, J on 132', () => {
    expect(
      all("SELECT jurisdiction j, count(*) n FROM dmepos_fee WHERE schedule = 'DMEPOS' GROUP BY j ORDER BY j"),
    ).toEqual([
      { j: 'D', n: 3240 },
      { j: 'J', n: 132 },
      { j: 'L', n: 143 },
    ]);
    expect(all("SELECT count(DISTINCT category) n FROM dmepos_fee WHERE schedule = 'DMEPOS'")).toEqual([{ n: 14 }]);
  });

  test('stores the amounts of the 53 state columns narrow, one row per code, modifiers and state', () => {
    expect(all('SELECT count(*) n, count(DISTINCT state) states FROM dmepos_fee_state')).toEqual([
      { n: (3515 + 50) * 53, states: 53 },
    ]);
    expect(q.dmeposFees('A4216', '2026-03-31', 'AL')).toEqual([
      expect.objectContaining({
        schedule: 'DMEPOS',
        jurisdiction: 'J',
        category: 'OS',
        ceiling: 0.63,
        floor: 0.54,
        amounts: { state: 'AL', nonRural: 0.58, rural: 0 },
      }),
    ]);
  });

  test('answers the jurisdiction of a code on a date', () => {
    expect(q.dmeposJurisdiction('E0601', '2026-02-01')).toEqual({
      code: 'E0601',
      jurisdictions: ['D'],
      categories: ['CR'],
      release: '2026Q1',
      validFrom: '2026-01-01',
      validTo: null,
    });
    expect(q.dmeposJurisdiction('A4561', '2026-02-01')?.jurisdictions).toEqual(['L']);
    expect(q.dmeposJurisdiction('A4217', '2026-02-01')).toMatchObject({
      jurisdictions: ['J'],
      categories: ['OS', 'SU'],
    });
    expect(q.dmeposJurisdiction('E0601', '2025-12-31')).toBeUndefined();
    expect(q.dmeposFees('B4035', '2026-01-01').map((f) => f.schedule)).toEqual(['PEN']);
  });
});
