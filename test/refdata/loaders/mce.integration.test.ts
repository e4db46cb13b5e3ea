// Integration: the official MCE v43.1 definitions text and the derived v37 table in ../shared/data. Every count was
// checked independently over the files (python over the code lines of each list; awk over the v37 edit types).
import Database from 'better-sqlite3';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { buildReference } from '../../../src/refdata/builder/builder.js';
import { mceLoader } from '../../../src/refdata/loaders/mce.js';
import { createPolicyQueries, type PolicyQueries } from '../../../src/reference/queries/policies.js';
import { officialDataDir } from '../../helpers/build.js';

let db: Database.Database;
let q: PolicyQueries;

beforeAll(async () => {
  const dbPath = join(await mkdtemp(join(tmpdir(), 'mce-int-')), 'reference.sqlite');
  await buildReference({ sourcesDir: officialDataDir, dbPath, loaders: [mceLoader] });
  db = new Database(dbPath, { readonly: true });
  q = createPolicyQueries(db);
  return () => db.close();
});

const counts = (version: string): Record<string, number> =>
  Object.fromEntries(
    (
      db.prepare('SELECT list, count(*) AS n FROM mce_code WHERE mce_version = ? GROUP BY list').all(version) as {
        list: string;
        n: number;
      }[]
    ).map((r) => [r.list, r.n]),
  );

describe('MCE v43.1 definitions (real data)', () => {
  test('the release is v43.1, in force 2026-04-01 to 2026-09-30', () => {
    expect(db.prepare("SELECT release, valid_from, valid_to FROM source WHERE dataset = 'mce'").all()).toEqual([
      { release: 'v43.1', valid_from: '2026-04-01', valid_to: '2026-09-30' },
    ]);
  });

  test('every list of chapter 1 with its real member count', () => {
    expect(counts('v43.1')).toEqual({
      'age-newborn': 42,
      'age-pediatric': 125,
      'age-maternity': 2543,
      'age-adult': 856,
      'manifestation-as-principal-dx': 422,
      'questionable-admission': 30,
      'questionable-obstetric-cesarean': 3,
      'questionable-obstetric-vaginal': 5,
      'questionable-obstetric-outcome': 19,
      'unacceptable-principal-dx-requires-secondary-dx': 1,
      'unacceptable-principal-dx': 2652,
      'non-covered-a': 95,
      'non-covered-b-diagnoses': 85,
      'non-covered-b-pancreas-procedures': 2,
      'non-covered-b-kidney-procedures': 6,
      'non-covered-d-procedures': 4,
      'non-covered-d-diagnoses': 11,
      'non-covered-f': 2,
      'non-covered-g': 87,
      'non-covered-g-diagnoses': 1,
      'valid-discharge-status': 41,
      'limited-coverage-a': 49,
      'wrong-procedure-performed': 3,
      'procedure-inconsistent-with-los': 1,
      'unspecified-code': 3465,
    });
    // The 10,505 strict `CODE<TAB>` lines plus `*Z5189` and `5A1955Z <TAB>`, less the 7 lines of chapter 2.
    expect(
      (
        db
          .prepare(
            "SELECT count(*) AS n FROM mce_code WHERE mce_version = 'v43.1' AND code_type <> 'S' AND list NOT IN (SELECT list FROM mce_list WHERE from_text = 1)",
          )
          .get() as { n: number }
      ).n,
    ).toBe(10_500);
  });

  test('age ranges, statuses and the sex-conflict edit as the manual states them', () => {
    expect(
      db
        .prepare(
          "SELECT list, age_min, age_max FROM mce_list WHERE mce_version = 'v43.1' AND age_min IS NOT NULL ORDER BY section",
        )
        .all(),
    ).toEqual([
      { list: 'non-covered-f', age_min: 61, age_max: 124 },
      { list: 'age-newborn', age_min: 0, age_max: 0 },
      { list: 'age-pediatric', age_min: 0, age_max: 17 },
      { list: 'age-maternity', age_min: 9, age_max: 64 },
      { list: 'age-adult', age_min: 15, age_max: 124 },
    ]);
    expect(
      db
        .prepare(
          "SELECT edit, inactive_from FROM mce_edit WHERE mce_version = 'v43.1' AND active = 0 ORDER BY edit_number",
        )
        .all(),
    ).toEqual([
      { edit: 'sex-conflict', inactive_from: '2024-10-01' },
      { edit: 'non-specific-principal-dx', inactive_from: '2007-10-01' },
      { edit: 'non-specific-or-procedure', inactive_from: '2007-10-01' },
      { edit: 'open-biopsy-check', inactive_from: '2010-10-01' },
      { edit: 'bilateral-procedure', inactive_from: '2015-10-01' },
    ]);
    // The deactivated sex-conflict edit has no lists in v43.1.
    expect(
      db.prepare("SELECT count(*) AS n FROM mce_list WHERE mce_version = 'v43.1' AND edit = 'sex-conflict'").get(),
    ).toEqual({ n: 0 });
    expect(
      db
        .prepare("SELECT list, inactive_from FROM mce_list WHERE mce_version = 'v43.1' AND active = 0 ORDER BY list")
        .all(),
    ).toEqual([
      { list: 'limited-coverage-b', inactive_from: '2022-04-01' },
      { list: 'non-covered-c', inactive_from: '2022-04-01' },
      { list: 'non-covered-e', inactive_from: '2018-10-01' },
    ]);
  });

  test('real sample rows with their lines', () => {
    expect(q.mceListsForCode('A33', '2026-06-01').map((m) => [m.list, m.description, m.source.line])).toEqual([
      ['age-newborn', 'Tetanus neonatorum', 113],
    ]);
    // grep -n over the file: E119 (two tabs before its title) on line 4122 only; E1010 (trailing spaces) on 6959.
    expect(q.mceListsForCode('E11.9', '2026-06-01').map((m) => [m.list, m.description, m.source.line])).toEqual([
      ['questionable-admission', 'Type 2 diabetes mellitus without complications', 4122],
    ]);
    expect(q.mceListsForCode('E1010', '2026-06-01').map((m) => [m.list, m.description, m.source.line])).toEqual([
      ['non-covered-b-diagnoses', 'Type 1 diabetes mellitus with ketoacidosis without coma', 6959],
    ]);
    expect(q.mceListsForCode('5A1955Z', '2026-06-01').map((m) => [m.list, m.source.line])).toEqual([
      ['procedure-inconsistent-with-los', 7284],
    ]);
    expect(q.mceListsForCode('Z5189', '2026-06-01').map((m) => [m.list, m.marked])).toEqual([
      ['unacceptable-principal-dx', true],
      ['unacceptable-principal-dx-requires-secondary-dx', false],
    ]);
    expect(
      q
        .mceListMembers('valid-discharge-status', '2026-06-01')
        .filter((m) => !m.active)
        .map((m) => m.code),
    ).toEqual(['04', '05', '08']);
  });

  test('chapter 2: the seven codes removed since the last release', () => {
    expect(
      db
        .prepare(
          "SELECT section, change, count(*) AS n FROM mce_change WHERE mce_version = 'v43.1' GROUP BY section, change ORDER BY section",
        )
        .all(),
    ).toEqual([
      { section: '11D', change: 'removed', n: 2 },
      { section: '9', change: 'removed', n: 5 },
    ]);
  });
});

describe('MCE v37 derived table (real data)', () => {
  test('14,153 rows as the MANIFEST counts them by edit type, flagged derived with FY2020 dates', () => {
    expect(
      db.prepare("SELECT release, valid_from, valid_to FROM source WHERE dataset = 'mce-v37-derived'").all(),
    ).toEqual([{ release: 'v37', valid_from: '2019-10-01', valid_to: '2020-09-30' }]);
    expect(db.prepare("SELECT count(*) AS n, min(derived) AS d FROM mce_code WHERE mce_version = 'v37'").get()).toEqual(
      { n: 14_153, d: 1 },
    );
    expect(
      Object.fromEntries(
        (
          db
            .prepare("SELECT list_title, count(*) AS n FROM mce_code WHERE mce_version = 'v37' GROUP BY list_title")
            .all() as { list_title: string; n: number }[]
        ).map((r) => [r.list_title, r.n]),
      ),
    ).toEqual({
      Newborn_Only: 41,
      Pediatric_Only: 114,
      Maternity_Only: 2372,
      Adult_Only: 771,
      Female_Only: 5429,
      Male_Only: 2445,
      Principal_Manifestation: 395,
      Principal_Questionable_Admit: 27,
      Principal_Unacceptable: 2406,
      Noncovered_Always: 97,
      Noncovered_Over60: 2,
      Limited_Coverage: 50,
      Wrong_Performed: 3,
      Noncovered_LOS_96hr: 1,
    });
    expect(q.mceListsForCode('A33', '2020-01-01').map((m) => [m.version, m.list, m.derived])).toEqual([
      ['v37', 'age-newborn', true],
    ]);
  });
});
