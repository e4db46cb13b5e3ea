// Integration: the real POA exempt lists FY2025 and FY2026 in ../shared/data.
import Database from 'better-sqlite3';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { buildReference } from '../../../src/refdata/builder/builder.js';
import { poaExemptLoader } from '../../../src/refdata/loaders/poa-exempt.js';
import { createMappingQueries, type MappingQueries } from '../../../src/reference/queries/mapping.js';
import { officialDataDir } from '../../helpers/build.js';

let db: Database.Database;
let mapping: MappingQueries;

beforeAll(async () => {
  const dbPath = join(await mkdtemp(join(tmpdir(), 'poa-int-')), 'reference.sqlite');
  await buildReference({ sourcesDir: officialDataDir, dbPath, loaders: [poaExemptLoader] });
  db = new Database(dbPath, { readonly: true });
  mapping = createMappingQueries(db);
  return () => db.close();
});

describe('POA exempt lists (real data)', () => {
  test('FY2026 lists 38,349 codes and FY2025 38,154; the change lists 209/14/50 and 49/5/4 lines', () => {
    expect(
      db.prepare('SELECT member, release, valid_from, valid_to, rows FROM source ORDER BY valid_from, member').all(),
    ).toEqual([
      {
        member: 'POAexemptAddCodesFY25.txt',
        release: 'FY2025',
        valid_from: '2024-10-01',
        valid_to: '2025-09-30',
        rows: 49,
      },
      {
        member: 'POAexemptCodesFY25.txt',
        release: 'FY2025',
        valid_from: '2024-10-01',
        valid_to: '2025-09-30',
        rows: 38_154,
      },
      {
        member: 'POAexemptDeleteCodesFY25.txt',
        release: 'FY2025',
        valid_from: '2024-10-01',
        valid_to: '2025-09-30',
        rows: 5,
      },
      {
        member: 'POAexemptReviseCodesFY25.txt',
        release: 'FY2025',
        valid_from: '2024-10-01',
        valid_to: '2025-09-30',
        rows: 4,
      },
      {
        member: 'POAexemptAddCodesFY26.txt',
        release: 'FY2026',
        valid_from: '2025-10-01',
        valid_to: '2026-09-30',
        rows: 209,
      },
      {
        member: 'POAexemptCodesFY26.txt',
        release: 'FY2026',
        valid_from: '2025-10-01',
        valid_to: '2026-09-30',
        rows: 38_349,
      },
      {
        member: 'POAexemptDeleteCodesFY26.txt',
        release: 'FY2026',
        valid_from: '2025-10-01',
        valid_to: '2026-09-30',
        rows: 14,
      },
      {
        member: 'POAexemptReviseCodesFY26.txt',
        release: 'FY2026',
        valid_from: '2025-10-01',
        valid_to: '2026-09-30',
        rows: 50,
      },
    ]);
    expect(db.prepare("SELECT count(*) n FROM poa_exempt WHERE valid_from = '2025-10-01'").get()).toEqual({
      n: 38_349,
    });
  });

  test('answers by date: Q89.8 exempt in FY2025 and deleted for FY2026, Q89.81 added', () => {
    expect(mapping.poaExempt('Q89.8', '2025-06-01')).toEqual({
      code: 'Q898',
      exempt: true,
      release: 'FY2025',
      description: 'Other specified congenital malformations',
    });
    expect(mapping.poaExempt('Q89.8', '2025-10-01')).toEqual({
      code: 'Q898',
      exempt: false,
      release: 'FY2026',
      description: null,
    });
    expect(mapping.poaExempt('Q8981', '2026-03-01')).toMatchObject({
      exempt: true,
      release: 'FY2026',
      description: 'Kabuki syndrome',
    });
    expect(mapping.poaExempt('B90.0', '2026-03-01')).toMatchObject({
      exempt: true,
      description: 'Sequelae of central nervous system tuberculosis',
    });
    expect(mapping.poaExempt('QA0.0101', '2026-03-01')).toMatchObject({
      exempt: true,
      description: 'SCN2A-related neurodevelopmental disorder',
    });
    expect(mapping.poaExempt('Z68.54', '2026-03-01')?.description).toBe(
      'Body mass index [BMI] pediatric, 95th percentile for age to less than 120% of the 95th percentile for age',
    );
    expect(mapping.poaExempt('E11.9', '2026-03-01')).toMatchObject({ exempt: false });
    expect(mapping.poaExempt('B90.0', '2024-09-30')).toBeUndefined();
    expect(mapping.poaExemptChanges('Q89.8')).toEqual([
      {
        code: 'Q898',
        action: 'delete',
        release: 'FY2026',
        validFrom: '2025-10-01',
        description: 'Other specified congenital malformations',
      },
    ]);
  });
});
