// Integration: the real FY2018 diagnosis and procedure GEMs in ../shared/data.
import Database from 'better-sqlite3';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { buildReference } from '../../../src/refdata/builder/builder.js';
import { gemsLoader } from '../../../src/refdata/loaders/gems.js';
import { createMappingQueries, type MappingQueries } from '../../../src/reference/queries/mapping.js';
import { officialDataDir } from '../../helpers/build.js';

let db: Database.Database;
let mapping: MappingQueries;

beforeAll(async () => {
  const dbPath = join(await mkdtemp(join(tmpdir(), 'gems-int-')), 'reference.sqlite');
  await buildReference({ sourcesDir: officialDataDir, dbPath, loaders: [gemsLoader] });
  db = new Database(dbPath, { readonly: true });
  mapping = createMappingQueries(db);
  return () => db.close();
});

const count = (sql: string, ...params: unknown[]): number => (db.prepare(sql).get(...params) as { n: number }).n;

describe('GEMs FY2018 (real data)', () => {
  test('row counts equal the files’ line counts (wc -l)', () => {
    expect(db.prepare('SELECT dataset, release, valid_from, rows FROM source ORDER BY dataset').all()).toEqual([
      { dataset: 'gems-dx-i10-i9', release: 'FY2018', valid_from: '2017-10-01', rows: 81_593 },
      { dataset: 'gems-dx-i9-i10', release: 'FY2018', valid_from: '2017-10-01', rows: 24_860 },
      { dataset: 'gems-pcs-i10-i9', release: 'FY2018', valid_from: '2017-10-01', rows: 101_025 },
      { dataset: 'gems-pcs-i9-i10', release: 'FY2018', valid_from: '2017-10-01', rows: 73_593 },
    ]);
    for (const [dataset, n] of [
      ['gems-dx-i10-i9', 81_593],
      ['gems-dx-i9-i10', 24_860],
      ['gems-pcs-i10-i9', 101_025],
      ['gems-pcs-i9-i10', 73_593],
    ] as const) {
      expect(count('SELECT count(*) n FROM gem WHERE dataset = ?', dataset)).toBe(n);
      // Rows are numbered by their file line, 1..n with no gap.
      expect(count('SELECT max(row_no) n FROM gem WHERE dataset = ?', dataset)).toBe(n);
    }
  });

  test('no-map sentinels match the files: 731 + 422 NoDx, 210 NoPCS, 31 NoI9 (29 of them flagged 10000)', () => {
    expect(
      count("SELECT count(*) n FROM gem WHERE dataset = 'gems-dx-i10-i9' AND target IS NULL AND flags = '11000'"),
    ).toBe(731);
    expect(
      count("SELECT count(*) n FROM gem WHERE dataset = 'gems-dx-i9-i10' AND target IS NULL AND flags = '11000'"),
    ).toBe(422);
    expect(count("SELECT count(*) n FROM gem WHERE dataset = 'gems-pcs-i9-i10' AND target IS NULL")).toBe(210);
    expect(count("SELECT count(*) n FROM gem WHERE dataset = 'gems-pcs-i10-i9' AND target IS NULL")).toBe(31);
    expect(
      count("SELECT count(*) n FROM gem WHERE dataset = 'gems-pcs-i10-i9' AND target IS NULL AND flags = '10000'"),
    ).toBe(29);
  });

  test('backward dx: A021 maps to 003.1 and 995.91 as a combination, lines 16-17 (checked by hand)', () => {
    expect(mapping.gemsBySource('dx', 'backward', 'A02.1')).toEqual([
      {
        dataset: 'gems-dx-i10-i9',
        release: 'FY2018',
        rowNo: 16,
        source: 'A021',
        target: '0031',
        flags: '10111',
        approximate: 1,
        noMap: 0,
        combination: 1,
        scenario: 1,
        choiceList: 1,
        isNotMappable: false,
      },
      {
        dataset: 'gems-dx-i10-i9',
        release: 'FY2018',
        rowNo: 17,
        source: 'A021',
        target: '99591',
        flags: '10112',
        approximate: 1,
        noMap: 0,
        combination: 1,
        scenario: 1,
        choiceList: 2,
        isNotMappable: false,
      },
    ]);
    expect(mapping.gemsByTarget('dx', 'backward', '003.1').map((r) => [r.rowNo, r.source])).toEqual([[16, 'A021']]);
    // Line 73170 prints a lower-case target (`T8853XD v5889 10000`); it is stored upper-case like every code.
    expect(mapping.gemsBySource('dx', 'backward', 'T8853XD')).toMatchObject([
      { rowNo: 73_170, target: 'V5889', flags: '10000' },
    ]);
    expect(mapping.gemsBySource('dx', 'backward', 'Z9989').map((r) => [r.rowNo, r.target, r.flags])).toEqual([
      [81_592, 'V468', '10000'],
      [81_593, 'V469', '10000'],
    ]);
  });

  test('forward dx: 250.00 → E11.9 (line 2861) and 003.1 → A02.1 (line 10)', () => {
    expect(mapping.gemsBySource('dx', 'forward', '25000')).toMatchObject([
      { rowNo: 2861, source: '25000', target: 'E119', flags: '10000' },
    ]);
    expect(mapping.gemsBySource('dx', 'forward', '0031')).toMatchObject([
      { rowNo: 10, target: 'A021', flags: '10000' },
    ]);
  });

  test('procedure GEMs both ways: 81.54 total knee replacement and a NoI9 row', () => {
    const forward = mapping.gemsBySource('pcs', 'forward', '8154');
    expect(forward).toHaveLength(22);
    expect(forward.slice(0, 3).map((r) => [r.rowNo, r.target, r.flags])).toEqual([
      [53_525, '0SRC06Z', '10000'],
      [53_526, '0SRC07Z', '10000'],
      [53_527, '0SRC0JZ', '10000'],
    ]);
    expect(mapping.gemsBySource('pcs', 'backward', '0SRC0J9')).toMatchObject([
      { rowNo: 77_236, target: '8154', flags: '10000' },
    ]);
    expect(mapping.gemsBySource('pcs', 'backward', '0016070')).toMatchObject([
      { rowNo: 1, target: '0231', flags: '10000' },
    ]);
    // `02H40NZ NoI9  10000` (line 6269): the sentinel means no map although the flag says otherwise.
    expect(mapping.gemsBySource('pcs', 'backward', '02H40NZ')).toMatchObject([
      { rowNo: 6269, target: null, flags: '10000', noMap: 0, isNotMappable: true },
    ]);
    expect(mapping.gemsBySource('pcs', 'forward', '0016')).toMatchObject([
      { rowNo: 140, target: null, flags: '11000', isNotMappable: true },
    ]);
  });
});
