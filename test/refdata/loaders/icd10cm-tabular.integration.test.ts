// Builds the official ICD-10-CM tabular XML (FY2023 gzip, FY2017 ZIP member) and the ICD-10-CM order files (for the
// FY2024 cross-check) from REFDATA_DIR. Counts are the MANIFEST's (section 9), re-counted with python's
// xml.etree over the decompressed files.
import Database from 'better-sqlite3';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildReference, type BuildResult } from '../../../src/refdata/builder/builder.js';
import { icd10OrderLoader } from '../../../src/refdata/loaders/icd10-order.js';
import { icd10cmTabularLoader } from '../../../src/refdata/loaders/icd10cm-tabular.js';
import { createTabularQueries } from '../../../src/reference/queries/tabular.js';
import { officialDataDir } from '../../helpers/build.js';

let db: Database.Database;
let result: BuildResult;
const sourceOf = (dataset: string, release: string): number =>
  (db.prepare('SELECT id FROM source WHERE dataset = ? AND release = ?').get(dataset, release) as { id: number }).id;
const count = (sql: string, ...params: unknown[]): number => (db.prepare(sql).get(...params) as { n: number }).n;

beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'tabular-int-'));
  const dbPath = join(dir, 'reference.sqlite');
  result = await buildReference({
    sourcesDir: officialDataDir,
    dbPath,
    loaders: [icd10OrderLoader, icd10cmTabularLoader],
    only: ['icd10cm-order', 'icd10cm-tabular'],
  });
  db = new Database(dbPath, { readonly: true });
});

afterAll(() => db.close());

describe('ICD-10-CM tabular FY2023 (official XML)', () => {
  test('is recognised from the gzip file, and only the tabular member of the FY2017 ZIP is taken', () => {
    const tabular = result.units
      .filter((u) => u.dataset === 'icd10cm-tabular')
      .map((u) => [u.release, u.file, u.member]);
    expect(tabular).toEqual([
      ['FY2017', 'icd10cm/fallback-fy2017/ICD10CM_FY2017_Full_XML.zip', 'icd10cm_tabular_2017.xml'],
      ['FY2023', 'icd10cm/tabular-index-fy2023/icd10cm_tabular_2023.xml.gz', undefined],
    ]);
    expect(
      db
        .prepare(
          "SELECT release, valid_from, valid_to FROM source WHERE dataset = 'icd10cm-tabular' ORDER BY valid_from",
        )
        .all(),
    ).toEqual([
      { release: 'FY2017', valid_from: '2016-10-01', valid_to: '2022-09-30' },
      { release: 'FY2023', valid_from: '2022-10-01', valid_to: null },
    ]);
  });

  test('has the element counts of the file: 22 chapters, 296 sections, 45,869 diags and every note element', () => {
    const s = sourceOf('icd10cm-tabular', 'FY2023');
    expect(count('SELECT count(*) AS n FROM tabular_chapter WHERE source_id = ?', s)).toBe(22);
    expect(count('SELECT count(*) AS n FROM tabular_section WHERE source_id = ?', s)).toBe(296);
    expect(count('SELECT count(*) AS n FROM tabular_diag WHERE source_id = ?', s)).toBe(45_869);
    expect(count('SELECT count(*) AS n FROM tabular_diag WHERE source_id = ? AND leaf = 1', s)).toBe(35_555);
    expect(count('SELECT count(*) AS n FROM tabular_diag WHERE source_id = ? AND placeholder = 1', s)).toBe(244);
    // Note elements: one per (level, owner, block) of each type.
    const elements = Object.fromEntries(
      (
        db
          .prepare(
            "SELECT type, count(DISTINCT level || '|' || owner || '|' || block) AS n FROM tabular_note WHERE source_id = ? GROUP BY type",
          )
          .all(s) as { type: string; n: number }[]
      ).map((r) => [r.type, r.n]),
    );
    expect(elements).toEqual({
      includes: 415,
      inclusionTerm: 6_524,
      excludes1: 2_627,
      excludes2: 1_087,
      codeFirst: 339,
      useAdditionalCode: 802,
      codeAlso: 248,
      notes: 85,
      sevenChrNote: 507,
      sevenChrDef: 8, // the sevenChrDefs that hold <note>s besides their extensions
    });
    // 24,189 <note> elements, less the 8 in the introduction; by level 164 chapter, 575 section, 23,442 diag.
    expect(
      db
        .prepare('SELECT level, count(*) AS n FROM tabular_note WHERE source_id = ? GROUP BY level ORDER BY level')
        .all(s),
    ).toEqual([
      { level: 'chapter', n: 164 },
      { level: 'diag', n: 23_442 },
      { level: 'section', n: 575 },
    ]);
    expect(
      count("SELECT count(DISTINCT level || '|' || owner) AS n FROM tabular_seven_chr WHERE source_id = ?", s),
    ).toBe(507);
    expect(count('SELECT count(*) AS n FROM tabular_seven_chr WHERE source_id = ?', s)).toBe(1_787);
    expect(count('SELECT count(*) AS n FROM tabular_extended_code WHERE source_id = ?', s)).toBe(50_952);
    expect(count('SELECT count(*) AS n FROM tabular_note_range WHERE source_id = ?', s)).toBe(11_662);
  });

  test('holds real rows of the file with their hierarchy and notes', () => {
    const s = sourceOf('icd10cm-tabular', 'FY2023');
    expect(
      db
        .prepare(
          "SELECT chapter, description, first_code, last_code FROM tabular_chapter WHERE source_id = ? AND chapter = '22'",
        )
        .get(s),
    ).toEqual({
      chapter: '22',
      description: 'Codes for special purposes (U00-U85)',
      first_code: 'U00',
      last_code: 'U85',
    });
    expect(
      db
        .prepare(
          "SELECT chapter, description, first_code, last_code FROM tabular_section WHERE source_id = ? AND section = 'C7A'",
        )
        .get(s),
    ).toEqual({
      chapter: '2',
      description: 'Malignant neuroendocrine tumors (C7A)',
      first_code: 'C7A',
      last_code: 'C7A',
    });
    expect(
      db
        .prepare(
          "SELECT dotted, description, parent, depth, chapter, section, leaf FROM tabular_diag WHERE source_id = ? AND code = 'U071'",
        )
        .get(s),
    ).toEqual({
      dotted: 'U07.1',
      description: 'COVID-19',
      parent: 'U07',
      depth: 2,
      chapter: '22',
      section: 'U00-U49',
      leaf: 1,
    });
    expect(
      db
        .prepare(
          "SELECT block, seq, text, line FROM tabular_note WHERE source_id = ? AND owner = 'E11' AND type = 'useAdditionalCode' ORDER BY seq",
        )
        .all(s),
    ).toEqual([
      { block: 1, seq: 0, text: 'code to identify control using:', line: 23_694 },
      { block: 1, seq: 1, text: 'insulin (Z79.4)', line: 23_695 },
      { block: 1, seq: 2, text: 'oral antidiabetic drugs (Z79.84)', line: 23_696 },
      { block: 1, seq: 3, text: 'oral hypoglycemic drugs (Z79.84)', line: 23_697 },
    ]);
    expect(
      db
        .prepare(
          `SELECT r.first_code, r.last_code, r.qualifier FROM tabular_note_range r JOIN tabular_note n ON n.id = r.note_id
           WHERE n.source_id = ? AND n.level = 'section' AND n.owner = 'T80-T88' AND n.type = 'useAdditionalCode'`,
        )
        .all(s),
    ).toEqual([
      { first_code: 'T36', last_code: 'T50', qualifier: 'with fifth or sixth character 5' },
      { first_code: 'Y62', last_code: 'Y82', qualifier: null },
    ]);
    expect(
      db
        .prepare("SELECT char, description FROM tabular_seven_chr WHERE source_id = ? AND owner = 'S06' ORDER BY ord")
        .all(s),
    ).toEqual([
      { char: 'A', description: 'initial encounter' },
      { char: 'D', description: 'subsequent encounter' },
      { char: 'S', description: 'sequela' },
    ]);
    expect(
      db
        .prepare(
          "SELECT code, base_code, description FROM tabular_extended_code WHERE source_id = ? AND code IN ('T8140XA', 'S72001A') ORDER BY code",
        )
        .all(s),
    ).toEqual([
      {
        code: 'S72001A',
        base_code: 'S72001',
        description: 'Fracture of unspecified part of neck of right femur, initial encounter for closed fracture',
      },
      {
        code: 'T8140XA',
        base_code: 'T8140',
        description: 'Infection following a procedure, unspecified, initial encounter',
      },
    ]);
  });

  test('serves a FY2026 code with the FY2023 notes, saying which tabular they come from', () => {
    const q = createTabularQueries(db);
    // K63.8211 was added in FY2024: the FY2023 tabular answers from its ancestor K63.8.
    const notes = q.notes('K63.8211');
    expect(notes).toMatchObject({ release: 'FY2023', matched: 'K638', exact: false });
    expect(notes?.notes[0]).toMatchObject({ level: 'chapter', at: '11', release: 'FY2023' });
    expect(q.sevenChrDef('S06.0X1A')).toMatchObject({ at: 'S06', inherited: true, release: 'FY2023' });
  });
});

describe('FY2023 tabular 7th-character expansion against the FY2024 order file', () => {
  // The tabular's own exclusion (note at S06): "7th characters D and S do not apply to codes in category S06 with
  // 6th character 7 ... or 8". The FY2023 order file agrees exactly apart from these (MANIFEST section 9).
  const excludedByS06Note = (code: string): boolean =>
    code.startsWith('S06') && /^[78]$/.test(code[5] ?? '') && /^[DS]$/.test(code[6] ?? '');

  const sets = (): { tabular: Set<string>; order: Set<string>; headers: Set<string> } => {
    const s = sourceOf('icd10cm-tabular', 'FY2023');
    const tabular = new Set(
      (
        db
          .prepare(
            `SELECT code FROM tabular_diag d WHERE source_id = @s AND leaf = 1
               AND NOT EXISTS (SELECT 1 FROM tabular_extended_code e WHERE e.source_id = @s AND e.base_code = d.code)
             UNION ALL SELECT code FROM tabular_extended_code WHERE source_id = @s`,
          )
          .all({ s }) as { code: string }[]
      ).map((r) => r.code),
    );
    const rows = db
      .prepare('SELECT code, billable FROM code_release WHERE source_id = ?')
      .all(sourceOf('icd10cm-order', 'FY2024')) as { code: string; billable: number }[];
    return {
      tabular,
      order: new Set(rows.filter((r) => r.billable === 1).map((r) => r.code)),
      headers: new Set(rows.filter((r) => r.billable === 0).map((r) => r.code)),
    };
  };

  test('agrees except for the April 2023 and FY2024 changes, which are listed and bounded', () => {
    const { tabular, order, headers } = sets();
    expect(tabular.size).toBe(73_715);
    expect(order.size).toBe(74_044);

    const excluded = [...tabular].filter(excludedByS06Note);
    expect(excluded.length).toBe(76);
    expect(excluded.filter((c) => order.has(c))).toEqual([]);

    // Tabular codes no longer billable in FY2024: every one was subdivided by the April 2023 update (Y07.0-, Z59.1,
    // Z91.1-, ...) or by FY2024, so it is a FY2024 header with new codes below it.
    const removed = [...tabular].filter((c) => !order.has(c) && !excludedByS06Note(c)).sort();
    // prettier-ignore
    expect(removed).toEqual([
      'D139', 'D481', 'E208', 'E798', 'E8881', 'G20', 'G378', 'H36', 'I208', 'I248', 'I471', 'J156', 'K3520', 'K3521', 'N042', 'N062',
      'O904', 'Q447', 'Q750', 'Y0701', 'Y0702', 'Y0703', 'Y0704', 'Z058', 'Z298', 'Z591', 'Z8371', 'Z9114', 'Z9115', 'Z91A4', 'Z91A5', 'Z91A9',
    ]);
    const added = [...order].filter((c) => !tabular.has(c)).sort();
    for (const code of removed) {
      expect(headers.has(code), `${code} is a FY2024 header`).toBe(true);
      expect(
        added.some((a) => a.startsWith(code) && a !== code),
        `${code} has new FY2024 codes below it`,
      ).toBe(true);
    }

    // FY2024 billable codes the FY2023 tabular lacks, by category. Bound: CMS counts 395 new codes for FY2024 and
    // the April 2023 update added 42 (MANIFEST section 9), so at most 437; found exactly 437.
    expect(added.length).toBeLessThanOrEqual(395 + 42);
    const byCategory: Record<string, number> = {};
    for (const code of added) {
      byCategory[code.slice(0, 3)] = (byCategory[code.slice(0, 3)] ?? 0) + 1;
    }
    // prettier-ignore
    expect(byCategory).toEqual({
      A41: 1, B96: 1, D13: 2, D48: 11, D57: 6, D61: 1, D89: 1, E20: 6, E74: 1, E75: 2, E79: 3, E88: 6, G11: 2, G20: 5, G23: 1,
      G31: 2, G37: 2, G40: 4, G43: 4, G90: 1, G93: 3, H36: 9, H50: 21, H57: 4, I1A: 1, I20: 2, I21: 1, I24: 2, I25: 1, I47: 3,
      J15: 2, J44: 2, J4A: 3, K35: 6, K63: 5, K68: 2, K90: 4, M80: 36, N02: 7, N04: 4, N06: 4, O26: 4, O90: 2, Q44: 3, Q75: 15,
      Q87: 3, Q93: 1, R09: 4, R40: 1, R92: 13, T56: 12, T74: 6, T76: 6, W44: 123, Y07: 15, Z02: 1, Z05: 2, Z16: 1, Z22: 6,
      Z29: 2, Z55: 1, Z58: 2, Z59: 4, Z62: 9, Z83: 4, Z91: 13,
    });
    // The April 2023 additions the MANIFEST names are among them.
    for (const family of ['T74A', 'T76A', 'Y070', 'Z556', 'Z588', 'Z591', 'Z62814', 'Z62815', 'Z9114']) {
      expect(
        added.some((a) => a.startsWith(family)),
        family,
      ).toBe(true);
    }
    expect(tabular.size - excluded.length - removed.length + added.length).toBe(order.size);
  });
});

describe('ICD-10-CM tabular FY2017 (second format test: ZIP member)', () => {
  test('loads its chapters, sections and diags', () => {
    const s = sourceOf('icd10cm-tabular', 'FY2017');
    expect(count('SELECT count(*) AS n FROM tabular_chapter WHERE source_id = ?', s)).toBe(21);
    expect(count('SELECT count(*) AS n FROM tabular_section WHERE source_id = ?', s)).toBe(295);
    expect(count('SELECT count(*) AS n FROM tabular_diag WHERE source_id = ?', s)).toBe(43_910);
    expect(count('SELECT count(*) AS n FROM tabular_note WHERE source_id = ?', s)).toBe(22_319);
    expect(db.prepare("SELECT description FROM tabular_chapter WHERE source_id = ? AND chapter = '21'").get(s)).toEqual(
      {
        description: 'Factors influencing health status and contact with health services (Z00-Z99)',
      },
    );
    expect(
      db
        .prepare(
          "SELECT dotted, description, parent, depth, section, leaf FROM tabular_diag WHERE source_id = ? AND code = 'A000'",
        )
        .get(s),
    ).toEqual({
      dotted: 'A00.0',
      description: 'Cholera due to Vibrio cholerae 01, biovar cholerae',
      parent: 'A00',
      depth: 2,
      section: 'A00-A09',
      leaf: 1,
    });
    // T81.40 did not exist yet in FY2017.
    expect(count("SELECT count(*) AS n FROM tabular_diag WHERE source_id = ? AND code = 'T8140'", s)).toBe(0);
  });
});
