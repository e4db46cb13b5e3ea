// Integration: the six ICD-10-CM Tabular List addenda PDFs in ../shared/data (April 2023 to FY2026), read alone.
import Database from 'better-sqlite3';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, expect, test } from 'vitest';
import { buildReference } from '../../../src/refdata/builder/builder.js';
import { icd10cmTabularAddendaLoader } from '../../../src/refdata/loaders/icd10cm-tabular-addenda.js';
import { officialDataDir } from '../../helpers/build.js';

let db: Database.Database;

beforeAll(async () => {
  const dbPath = join(await mkdtemp(join(tmpdir(), 'addenda-int-')), 'reference.sqlite');
  await buildReference({ sourcesDir: officialDataDir, dbPath, loaders: [icd10cmTabularAddendaLoader] });
  db = new Database(dbPath, { readonly: true });
  return () => db.close();
});

test('reads each addendum from its date, with its Excludes1 and Excludes2 changes', () => {
  expect(
    db
      .prepare(
        `SELECT s.release, s.valid_from AS validFrom, s.rows,
           sum(a.type = 'excludes1' AND a.action = 'add') AS ex1Add, sum(a.type = 'excludes1' AND a.action = 'delete') AS ex1Delete
         FROM source s JOIN tabular_addendum a ON a.source_id = s.id GROUP BY s.id ORDER BY s.valid_from`,
      )
      .all(),
  ).toEqual([
    { release: 'April 2023 addenda', validFrom: '2023-04-01', rows: 14, ex1Add: 1, ex1Delete: 0 },
    { release: 'FY2024 addenda', validFrom: '2023-10-01', rows: 207, ex1Add: 68, ex1Delete: 55 },
    { release: 'April 2024 addenda', validFrom: '2024-04-01', rows: 53, ex1Add: 1, ex1Delete: 20 },
    { release: 'FY2025 addenda', validFrom: '2024-10-01', rows: 123, ex1Add: 47, ex1Delete: 46 },
    { release: 'April 2025 addenda', validFrom: '2025-04-01', rows: 10, ex1Add: 2, ex1Delete: 4 },
    { release: 'FY2026 addenda', validFrom: '2025-10-01', rows: 165, ex1Add: 48, ex1Delete: 47 },
  ]);
  // Page 2 of the FY2026 addenda: D12.6's Excludes1 becomes an Excludes2, with the range it names.
  expect(
    db
      .prepare(
        `SELECT a.type, a.action, a.text, a.page, r.first_code AS first, r.last_code AS last FROM tabular_addendum a
         JOIN source s ON s.id = a.source_id LEFT JOIN tabular_addendum_range r ON r.addendum_id = a.id
         WHERE s.release = 'FY2026 addenda' AND a.owner = 'D126' ORDER BY a.id`,
      )
      .all(),
  ).toEqual([
    { type: 'excludes1', action: 'delete', text: 'inflammatory polyp of colon (K51.4-)', page: 2, first: 'K514', last: 'K514' },
    { type: 'excludes2', action: 'add', text: 'inflammatory polyp of colon (K51.4-)', page: 2, first: 'K514', last: 'K514' },
  ]);
});
