// Integration: the derived MCD document index (mcd-derived/documents_latest.csv) in ../shared/data. Counts checked
// independently with python's csv module: 3,133 rows (972 LCD, 2,161 Article), 12 display ids with two versions,
// 94 retired, 3,274 contractor blocks (141 documents name two DME MACs).
import Database from 'better-sqlite3';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { buildReference } from '../../../src/refdata/builder/builder.js';
import { mcdExportLoader } from '../../../src/refdata/loaders/mcd-export.js';
import { mcdIndexLoader } from '../../../src/refdata/loaders/mcd.js';
import { createPolicyQueries, type PolicyQueries } from '../../../src/reference/queries/policies.js';
import { officialDataDir } from '../../helpers/build.js';

let db: Database.Database;
let q: PolicyQueries;

beforeAll(async () => {
  const dbPath = join(await mkdtemp(join(tmpdir(), 'mcd-int-')), 'reference.sqlite');
  await buildReference({ sourcesDir: officialDataDir, dbPath, loaders: [mcdIndexLoader, mcdExportLoader] });
  db = new Database(dbPath, { readonly: true });
  q = createPolicyQueries(db);
  return () => db.close();
});

const n = (sql: string): number => (db.prepare(sql).get() as { n: number }).n;

describe('MCD derived document index (real data)', () => {
  test('one source, dated by its newest update stamp; no official export is in the folder', () => {
    expect(db.prepare('SELECT dataset, file, release, rows FROM source').all()).toEqual([
      { dataset: 'mcd-documents-derived', file: 'mcd-derived/documents_latest.csv', release: '2025-08-08', rows: 3133 },
    ]);
  });

  test('3,133 document versions: 972 LCD and 2,161 Article; 3,274 contractors', () => {
    expect(n('SELECT count(*) AS n FROM mcd_index_document')).toBe(3133);
    expect(n("SELECT count(*) AS n FROM mcd_index_document WHERE document_type = 'LCD'")).toBe(972);
    expect(n("SELECT count(*) AS n FROM mcd_index_document WHERE document_type = 'Article'")).toBe(2161);
    expect(
      n(
        'SELECT count(*) AS n FROM (SELECT display_id FROM mcd_index_document GROUP BY display_id HAVING count(*) = 2)',
      ),
    ).toBe(12);
    expect(n('SELECT count(*) AS n FROM mcd_index_document WHERE retirement_date IS NOT NULL')).toBe(94);
    expect(n('SELECT count(*) AS n FROM mcd_index_contractor')).toBe(3274);
  });

  test('real rows: an LCD by display id with its contractor, and by contractor', () => {
    expect(q.mcdDocuments('L36668').map((d) => [d.version, d.title, d.effectiveDate, d.url, d.contractors])).toEqual([
      [
        45,
        'Urine Drug Testing',
        '2025-08-14',
        'https://www.cms.gov/medicare-coverage-database/view/lcd.aspx?lcdid=36668&ver=45',
        [{ name: 'Noridian Healthcare Solutions, LLC', types: 'MAC - Part A, MAC - Part B', number: null }],
      ],
    ]);
    // L39297 v3 is superseded by the future v6 from 2025-09-07 (note "Future(Notice Ends 09/06/2025)").
    expect(q.mcdDocuments('L39297', '2025-09-06').map((d) => d.version)).toEqual([3]);
    expect(q.mcdDocuments('L39297', '2025-09-07').map((d) => d.version)).toEqual([6]);
    expect(q.mcdDocuments('L33797').map((d) => [d.title, d.version, d.effectiveDate])).toEqual([
      ['Oxygen and Oxygen Equipment', 50, '2023-04-01'],
    ]);
    expect(q.mcdDocumentsByContractor('Noridian Healthcare Solutions', '2025-08-08').length).toBeGreaterThan(900);
  });
});
