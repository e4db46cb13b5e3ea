// Integration: the real ICD-10-CM Index (FY2023), External Cause Index, Drug and Neoplasm tables (FY2025), their
// FY2017 predecessors inside the CDC ZIP, the drug table CSV (April 2025) and the ICD-10-PCS Index (FY2023) in
// ../shared/data. Element counts are those of MANIFEST.md sections 1, 9 and 10, re-counted with Python over the files.
import Database from 'better-sqlite3';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { buildReference, type BuildResult } from '../../../src/refdata/builder/builder.js';
import { icd10cmDrugCsvLoader } from '../../../src/refdata/loaders/icd10cm-drug-csv.js';
import { icd10cmIndexLoader } from '../../../src/refdata/loaders/icd10cm-index.js';
import { icd10pcsIndexLoader } from '../../../src/refdata/loaders/icd10pcs-index.js';
import { createIndexQueries, type IndexQueries } from '../../../src/reference/queries/index-terms.js';
import { officialDataDir } from '../../helpers/build.js';

let db: Database.Database;
let result: BuildResult;
let q: IndexQueries;

beforeAll(async () => {
  const dbPath = join(await mkdtemp(join(tmpdir(), 'index-int-')), 'reference.sqlite');
  result = await buildReference({
    sourcesDir: officialDataDir,
    dbPath,
    loaders: [icd10cmIndexLoader, icd10pcsIndexLoader, icd10cmDrugCsvLoader],
  });
  db = new Database(dbPath, { readonly: true });
  q = createIndexQueries(db);
  return () => db.close();
});

const sourceId = (dataset: string, release: string): number =>
  (db.prepare('SELECT id FROM source WHERE dataset = ? AND release = ?').get(dataset, release) as { id: number }).id;

/** Counts of one source: terms, main terms, and how many carry each field. */
const stats = (dataset: string, release: string): Record<string, number> =>
  db
    .prepare(
      `SELECT count(*) AS terms, sum(level = 0) AS main, sum(level > 0) AS sub, sum(code_kind = 'code') AS code,
         sum(code_kind = 'seecat') AS seecat, sum(code_kind = 'subcat') AS subcat, sum(code_kind = 'codes') AS codes,
         sum(code_kind = 'tab') AS tab, count(see) AS see, count(see_also) AS seeAlso, count(use_text) AS use,
         count(nemod) AS nemod, count(manif_as_written) AS manif,
         (SELECT count(*) FROM index_cell c WHERE c.source_id = t.source_id) AS cells,
         (SELECT count(code) FROM index_cell c WHERE c.source_id = t.source_id) AS cellCodes
       FROM index_term t WHERE source_id = ?`,
    )
    .get(sourceId(dataset, release)) as Record<string, number>;

const termAt = (dataset: string, release: string, path: string): Record<string, unknown> | undefined =>
  db.prepare('SELECT * FROM index_term WHERE source_id = ? AND path = ?').get(sourceId(dataset, release), path) as
    Record<string, unknown> | undefined;

describe('ICD-10-CM and ICD-10-PCS indexes (real data)', () => {
  test('recognises every index file and ZIP member, dated by its <version>, and no XSD', () => {
    expect(
      result.units.map((u) => `${u.dataset} ${u.release} ${u.file}${u.member ? `[${u.member}]` : ''}`).sort(),
    ).toEqual([
      'icd10cm-drug FY2017 icd10cm/fallback-fy2017/ICD10CM_FY2017_Full_XML.zip[icd10cm_drug_2017.xml]',
      'icd10cm-drug FY2025 icd10cm/tables-index-fy2025/icd-10-cm-drug-2025.xml',
      'icd10cm-drug-csv FY2025-April icd10cm/icd10cm-drug-April-2025.csv',
      'icd10cm-eindex FY2017 icd10cm/fallback-fy2017/ICD10CM_FY2017_Full_XML.zip[icd10cm_eindex_2017.xml]',
      'icd10cm-eindex FY2025 icd10cm/tables-index-fy2025/icd-10-cm-eindex-2025.xml',
      'icd10cm-index FY2017 icd10cm/fallback-fy2017/ICD10CM_FY2017_Full_XML.zip[icd10cm_index_2017.xml]',
      'icd10cm-index FY2023 icd10cm/tabular-index-fy2023/icd10cm_index_2023.xml.gz',
      'icd10cm-neoplasm FY2017 icd10cm/fallback-fy2017/ICD10CM_FY2017_Full_XML.zip[icd10cm_neoplasm_2017.xml]',
      'icd10cm-neoplasm FY2025 icd10cm/tables-index-fy2025/icd-10-cm-neoplasm-2025.xml',
      'icd10pcs-index FY2023 icd10pcs/index-fy2023/icd10pcs_index_2023.xml.gz',
    ]);
    expect(result.skipped.map((s) => s.file)).toEqual(
      expect.arrayContaining(['icd10cm/tables-index-fy2025/icd10cm-index-2025.xsd']),
    );
  });

  test('FY2023 Index to Diseases: 8,060 main terms, 72,058 subterms, 61,983 codes, 12,077 see, 1,997 see also', () => {
    expect(stats('icd10cm-index', 'FY2023')).toMatchObject({
      main: 8_060,
      sub: 72_058,
      code: 61_983,
      see: 12_077,
      seeAlso: 1_997,
      nemod: 12_493,
      manif: 760,
      seecat: 15,
      subcat: 130,
      cells: 0,
    });
    expect(termAt('icd10cm-index', 'FY2023', 'Diabetes, diabetic > type 2 > with > hyperglycemia')).toMatchObject({
      level: 3,
      code: 'E1165',
      code_as_written: 'E11.65',
    });
    expect(termAt('icd10cm-index', 'FY2023', 'Diabetes, diabetic')).toMatchObject({
      nemod: '(mellitus) (sugar)',
      code: 'E119',
      line: 93522,
    });
    expect(termAt('icd10cm-index', 'FY2023', 'Fracture, traumatic > radius > upper end > torus')).toMatchObject({
      code: 'S5211',
      code_as_written: 'S52.11-',
    });
    expect(termAt('icd10cm-index', 'FY2023', 'Amyloid heart')).toMatchObject({ code: 'E854', manif: 'I43' });
    expect(termAt('icd10cm-index', 'FY2023', "Bonnier's syndrome")).toMatchObject({
      code: 'H818',
      code_kind: 'subcat',
    });
    expect(termAt('icd10cm-index', 'FY2023', 'Abdominalgia')).toMatchObject({ see: 'Pain, abdominal', code: null });
    expect(termAt('icd10cm-index', 'FY2023', 'Aberrant > vein NEC')).toMatchObject({
      nemod: '(peripheral)',
      display: 'vein (peripheral) NEC',
      code: 'Q278',
    });
    // <manif>SCFE</manif> (a word, not a code) keeps its text and gives no code.
    expect(termAt('icd10cm-index', 'FY2023', 'Slipped, slipping > epiphysis > capital femoral')).toMatchObject({
      manif: null,
      manif_as_written: 'SCFE',
    });
  });

  test('FY2025 External Cause Index: 314 main terms, 7,750 subterms, 6,650 codes', () => {
    expect(stats('icd10cm-eindex', 'FY2025')).toMatchObject({
      main: 314,
      sub: 7_750,
      code: 6_650,
      see: 790,
      seeAlso: 98,
      subcat: 11,
      seecat: 3,
    });
    expect(termAt('icd10cm-eindex', 'FY2025', 'Activity > aerobic and step exercise')).toMatchObject({
      code: 'Y93A3',
      nemod: '(class)',
    });
  });

  test('FY2025 Table of Drugs and Chemicals: 5,177 main terms, 43,212 cells under 7 column heads', () => {
    expect(stats('icd10cm-drug', 'FY2025')).toMatchObject({
      main: 5_177,
      sub: 2_251,
      cells: 43_212,
      cellCodes: 43_212 - 3_186,
      see: 97,
      seeAlso: 35,
    });
    expect(
      db
        .prepare('SELECT col, heading FROM index_heading WHERE source_id = ? ORDER BY col')
        .all(sourceId('icd10cm-drug', 'FY2025')),
    ).toEqual([
      { col: 1, heading: 'Substance' },
      { col: 2, heading: 'Poisoning Accidental (unintentional)' },
      { col: 3, heading: 'Poisoning Intentional self-harm' },
      { col: 4, heading: 'Poisoning Assault' },
      { col: 5, heading: 'Poisoning Undetermined' },
      { col: 6, heading: 'Adverse effect' },
      { col: 7, heading: 'Underdosing' },
    ]);
    const [row] = q.drugRows('1-propanol', { date: '2025-01-15' });
    expect(row?.cells.map((c) => c.codeAsWritten)).toEqual(['T51.3X1', 'T51.3X2', 'T51.3X3', 'T51.3X4', '--', '--']);
  });

  test('FY2025 Table of Neoplasms: one main term, 1,938 sites, 10,916 cells ("-" where no code)', () => {
    expect(stats('icd10cm-neoplasm', 'FY2025')).toMatchObject({
      main: 1,
      sub: 1_938,
      cells: 10_916,
      cellCodes: 10_916 - 1_898,
    });
    const lung = q.neoplasmRows('lung', { date: '2025-06-01' })[0];
    expect(lung?.path).toBe('Neoplasm, neoplastic > lung');
    expect(lung?.cells.map((c) => `${c.heading}: ${c.codeAsWritten}`)).toEqual([
      'Malignant Primary: C34.9-',
      'Malignant Secondary: C78.0-',
      'Ca in situ: D02.2-',
      'Benign: D14.3-',
      'Uncertain Behavior: D38.1',
      'Unspecified Behavior: D49.1',
    ]);
  });

  test('FY2023 PCS Index: 3,017 main terms, 21,154 terms, 2,228 use, 1,752 see, 12,082 codes, 1,345 tab', () => {
    expect(stats('icd10pcs-index', 'FY2023')).toMatchObject({
      main: 3_017,
      sub: 21_154,
      use: 2_228,
      see: 1_752,
      codes: 12_082,
      tab: 1_345,
      code: 2_770,
    });
    expect(q.pcsTerms('Abdominal aortic plexus', { date: '2026-01-01' }).map((t) => t.use)).toEqual([
      'Abdominal Sympathetic Nerve',
    ]);
    expect(termAt('icd10pcs-index', 'FY2023', 'Abdominohysterectomy')).toMatchObject({
      see: 'Resection, Uterus',
      code: '0UT9',
      code_kind: 'codes',
    });
  });

  test('FY2017 members load too, and their validity ends where the newer release starts', () => {
    expect(stats('icd10cm-index', 'FY2017')).toMatchObject({
      main: 7_973,
      sub: 69_226,
      code: 59_412,
      see: 11_979,
      seeAlso: 1_704,
    });
    expect(stats('icd10cm-eindex', 'FY2017')).toMatchObject({ main: 314, sub: 7_258, code: 6_208 });
    expect(stats('icd10cm-drug', 'FY2017')).toMatchObject({ main: 5_170, sub: 2_246, cells: 43_140 });
    expect(stats('icd10cm-neoplasm', 'FY2017')).toMatchObject({ main: 1, sub: 1_929, cells: 10_858 });
    expect(
      db
        .prepare(
          "SELECT DISTINCT s.dataset, t.valid_from, t.valid_to FROM index_term t JOIN source s ON s.id = t.source_id WHERE s.release = 'FY2017' ORDER BY 1",
        )
        .all(),
    ).toEqual([
      { dataset: 'icd10cm-drug', valid_from: '2016-10-01', valid_to: '2024-09-30' },
      { dataset: 'icd10cm-eindex', valid_from: '2016-10-01', valid_to: '2024-09-30' },
      { dataset: 'icd10cm-index', valid_from: '2016-10-01', valid_to: '2022-09-30' },
      { dataset: 'icd10cm-neoplasm', valid_from: '2016-10-01', valid_to: '2024-09-30' },
    ]);
  });

  test('the drug CSV agrees with the FY2025 drug XML on 7,394 of its 7,402 rows: paths, all cells, see and see also', () => {
    expect(stats('icd10cm-drug-csv', 'FY2025-April')).toMatchObject({
      main: 5_154,
      terms: 7_402,
      cells: 43_056,
      cellCodes: 43_056 - 3_168,
      see: 97,
      seeAlso: 35,
    });
    // Compare as printed: titles with their modifiers, whitespace dropped, en dashes read as hyphens.
    const key = (s: string | null): string =>
      (s ?? '')
        .toLowerCase()
        .replace(/\u2013/g, '-')
        .replace(/\s/g, '');
    const rowsOf = (id: number): string[] => {
      const terms = db
        .prepare('SELECT id, parent_id, display, see, see_also FROM index_term WHERE source_id = ? ORDER BY id')
        .all(id) as {
        id: number;
        parent_id: number | null;
        display: string;
        see: string | null;
        see_also: string | null;
      }[];
      const cells = new Map<number, string[]>();
      for (const c of db
        .prepare('SELECT term_id, col, code_as_written FROM index_cell WHERE source_id = ? ORDER BY term_id, col')
        .all(id) as { term_id: number; col: number; code_as_written: string }[]) {
        cells.set(c.term_id, [...(cells.get(c.term_id) ?? []), `${c.col}=${c.code_as_written}`]);
      }
      const paths = new Map<number, string>();
      return terms.map((t) => {
        const path = `${t.parent_id === null ? '' : `${paths.get(t.parent_id) ?? '?'}>`}${key(t.display)}`;
        paths.set(t.id, path);
        return `${path}|${(cells.get(t.id) ?? []).join(',')}|${key(t.see)}|${key(t.see_also)}`;
      });
    };
    const xml = rowsOf(sourceId('icd10cm-drug', 'FY2025'));
    const csv = rowsOf(sourceId('icd10cm-drug-csv', 'FY2025-April'));
    const unmatched = (a: string[], b: string[]): string[] => {
      const left = new Map<string, number>();
      b.forEach((r) => left.set(r, (left.get(r) ?? 0) + 1));
      return a.filter((r) => {
        const n = left.get(r) ?? 0;
        left.set(r, n - 1);
        return n <= 0;
      });
    };
    const csvOnly = unmatched(csv, xml);
    const xmlOnly = unmatched(xml, csv);
    expect(csv.length - csvOnly.length).toBe(7_394);
    // The CSV drops 26 XML rows (e.g. Dehydroemetine) and hangs a few sub-terms under the wrong substance.
    expect(xmlOnly).toHaveLength(34);
    expect(xmlOnly.some((r) => r.startsWith('dehydroemetine|'))).toBe(true);
    expect(csvOnly.map((r) => r.split('|')[0])).toEqual([
      '-45',
      'dinitrobenzene>vapor',
      'dydrogesterone>antiseptic',
      'dydrogesterone>diagnosticagents',
      'dydrogesterone>pharmaceuticalnec',
      'ethinamate>with',
      'ethinamate>with>levonorgestrel',
      'ethinamate>with>norethisterone',
    ]);
  });

  test('queries on a FY2026 date read the newest releases; the drug table comes from the XML, not the CSV', () => {
    expect(q.releases('2026-01-15').map((r) => `${r.dataset} ${r.release}`)).toEqual([
      'icd10cm-index FY2023',
      'icd10cm-eindex FY2025',
      'icd10cm-drug FY2025',
      'icd10cm-neoplasm FY2025',
      'icd10pcs-index FY2023',
    ]);
    expect(q.releases('2020-03-01').map((r) => `${r.dataset} ${r.release}`)).toEqual([
      'icd10cm-index FY2017',
      'icd10cm-eindex FY2017',
      'icd10cm-drug FY2017',
      'icd10cm-neoplasm FY2017',
    ]);
    expect(
      q
        .searchTerms('diabetes type 2 hyperglycemia', { date: '2026-01-15' })
        .map((t) => `${t.path} ${t.codeAsWritten ?? ''}`),
    ).toEqual(['Diabetes, diabetic > type 2 > with > hyperglycemia E11.65']);
    const hits = q.termsForCode('ICD10CM', 'E11.65', { date: '2026-01-15' });
    expect(hits.map((h) => h.term.path)).toEqual([
      'Diabetes, diabetic > with > hyperglycemia',
      'Diabetes, diabetic > type 2 > with > hyperglycemia',
    ]);
    const carbon = q.drugRows('Carbon > monoxide > coal', { date: '2026-01-15' });
    expect(carbon.map((r) => [r.dataset, r.path, r.cells[0]?.codeAsWritten])).toEqual([
      ['icd10cm-drug', 'Carbon > monoxide > coal', 'T58.2X1'],
    ]);
    expect(q.termsForCode('ICD10PCS', '0UT90ZZ', { date: '2026-01-15' }).map((h) => h.term.path)).toContain(
      'Hysterectomy > Total',
    );
  });
});
