// Integration: the real ICD-10-CM and ICD-10-PCS order files FY2024-FY2026 in ../shared/data.
import Database from 'better-sqlite3';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { buildReference } from '../../../src/refdata/builder/builder.js';
import { openReference, type Reference } from '../../../src/reference/index.js';
import { allLoaders } from '../../../src/refdata/loaders/index.js';
import { officialDataDir } from '../../helpers/build.js';

let dbPath = '';
let db: Database.Database;
let ref: Reference;

beforeAll(async () => {
  dbPath = join(await mkdtemp(join(tmpdir(), 'order-int-')), 'reference.sqlite');
  // All loaders' tables, only the order files loaded: what `refdata build --only icd10-order` makes.
  await buildReference({ sourcesDir: officialDataDir, dbPath, loaders: allLoaders, only: ['icd10-order'] });
  db = new Database(dbPath, { readonly: true });
  ref = openReference(dbPath);
  return () => {
    db.close();
    ref.close();
  };
});

const count = (sql: string, ...params: unknown[]): number => (db.prepare(sql).get(...params) as { n: number }).n;

describe('ICD-10 order files (real data)', () => {
  test('FY2026 ICD-10-CM has 98,186 entries of which 74,719 are billable', () => {
    expect(count("SELECT count(*) n FROM code_release WHERE system = 'ICD10CM' AND valid_from = '2025-10-01'")).toBe(98_186);
    expect(count("SELECT count(*) n FROM code_release WHERE system = 'ICD10CM' AND valid_from = '2025-10-01' AND billable = 1")).toBe(74_719);
  });

  test('FY2025 has 74,260 and FY2024 74,044 billable ICD-10-CM codes', () => {
    expect(count("SELECT count(*) n FROM code_release WHERE system = 'ICD10CM' AND valid_from = '2024-10-01' AND billable = 1")).toBe(74_260);
    expect(count("SELECT count(*) n FROM code_release WHERE system = 'ICD10CM' AND valid_from = '2023-10-01' AND billable = 1")).toBe(74_044);
  });

  test('ICD-10-PCS FY2026 has 79,115 valid codes and 914 headers', () => {
    expect(count("SELECT count(*) n FROM code_release WHERE system = 'ICD10PCS' AND valid_from = '2025-10-01' AND billable = 1")).toBe(79_115);
    expect(count("SELECT count(*) n FROM code_release WHERE system = 'ICD10PCS' AND valid_from = '2025-10-01' AND billable = 0")).toBe(914);
  });

  test('the FY2024 ICD-10-PCS ZIP is the April 1, 2024 update; its October set is rebuilt from the addenda', () => {
    // The addenda: 78,603 codes in October, 78,638 in April (41 added, 6 deleted, 3 titles revised).
    const valid = (date: string): number =>
      count("SELECT count(*) n FROM code WHERE system = 'ICD10PCS' AND billable = 1 AND valid_from <= ? AND (valid_to IS NULL OR valid_to >= ?)", date, date);
    expect(valid('2023-10-01')).toBe(78_603);
    expect(valid('2024-04-01')).toBe(78_638);
    expect(ref.codes.onDate('ICD10PCS', '00H005Z', '2024-03-31')).toBeUndefined();
    expect(ref.codes.onDate('ICD10PCS', '00H005Z', '2024-04-01')).toMatchObject({ billable: true });
    expect(ref.codes.onDate('ICD10PCS', 'GZB1ZZZ', '2024-03-31')).toMatchObject({ billable: true, validTo: '2024-03-31' });
    expect(ref.codes.onDate('ICD10PCS', 'GZB1ZZZ', '2024-04-01')).toBeUndefined();
    expect(ref.codes.onDate('ICD10PCS', '5A0935A', '2024-01-15')?.shortTitle).toMatch(/High Nasal Fl Vel$/);
  });

  test('the merged intervals give back exactly the per-release code sets on each release date', () => {
    for (const [date, system, n] of [
      ['2025-10-01', 'ICD10CM', 98_186],
      ['2024-10-01', 'ICD10CM', 97_584],
      ['2023-10-01', 'ICD10CM', 97_296],
      ['2026-09-30', 'ICD10PCS', 80_029],
    ] as const) {
      expect(count('SELECT count(*) n FROM code WHERE system = ? AND valid_from <= ? AND (valid_to IS NULL OR valid_to >= ?)', system, date, date)).toBe(n);
    }
  });

  test('a billable code answers by date and a header lists its billable children', () => {
    expect(ref.codes.onDate('ICD10CM', 'E119', '2026-01-15')).toMatchObject({ billable: true, shortTitle: 'Type 2 diabetes mellitus without complications', validTo: null });
    const header = ref.codes.onDate('ICD10CM', 'E11', '2026-01-15');
    expect(header?.billable).toBe(false);
    const kids = ref.codes.billableDescendants('ICD10CM', 'E11', '2026-01-15', 10);
    expect(kids).toHaveLength(10);
    expect(kids.every((k) => k.code.startsWith('E11') && k.billable)).toBe(true);
    expect(ref.codes.ancestors('ICD10CM', 'S72001A')).toEqual(['S72001', 'S7200', 'S720', 'S72']);
    expect(ref.codes.ancestors('ICD10CM', 'T8140XA')).toEqual(['T8140', 'T814', 'T81']);
  });

  test('a code dropped between FY2024 and FY2026 keeps its history and is absent afterwards', () => {
    const dropped = db
      .prepare(
        `SELECT code FROM code WHERE system = 'ICD10CM' AND valid_to IS NOT NULL
         AND code NOT IN (SELECT code FROM code WHERE system = 'ICD10CM' AND valid_to IS NULL) ORDER BY code LIMIT 1`,
      )
      .get() as { code: string };
    const history = ref.codes.history('ICD10CM', dropped.code);
    expect(history.length).toBeGreaterThan(0);
    expect(history.at(-1)?.validTo).toMatch(/^202[45]-09-30$/);
    expect(ref.codes.onDate('ICD10CM', dropped.code, '2026-01-01')).toBeUndefined();
    expect(ref.codes.onDate('ICD10CM', dropped.code, history[0]!.validFrom)).toBeDefined();
  });
});
