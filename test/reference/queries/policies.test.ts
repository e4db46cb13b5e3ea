import type Database from 'better-sqlite3';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mcdExportLoader } from '../../../src/refdata/loaders/mcd-export.js';
import { mcdIndexLoader } from '../../../src/refdata/loaders/mcd.js';
import { mceLoader } from '../../../src/refdata/loaders/mce.js';
import { CONTRACTORS_FILE, medicareContractorsLoader } from '../../../src/refdata/loaders/medicare-contractors.js';
import { createPolicyQueries, type PolicyQueries } from '../../../src/reference/queries/policies.js';
import { buildFixture } from '../../helpers/build.js';
import { makeZip } from '../../helpers/zip.js';

const MANUAL = [
  'Definitions of Medicare Code Edits',
  'ICD-10 Version',
  'v43.1 April 2026',
  '',
  'Chapter 1: Edit code lists',
  'Below is a list of edits described in this chapter. ',
  '4. Age conflict',
  '5. Sex conflict (deactivated as of 10/01/2024)',
  '9. Unacceptable principal diagnosis',
  '',
  '4. Age conflict',
  '* Maternity. Age range is 9\x9664 years inclusive (e.g., diabetes in pregnancy). ',
  'C. Maternity diagnoses (age 9 through 64)',
  'O0900\tSupervision of preg w history of infertility, unsp tri',
  'Z3400\tEncntr for suprvsn of normal first preg, unsp trimester',
  '5. Sex conflict (deactivated as of 10/01/2024)',
  'Medicare Code Editor detects inconsistencies between a patient\x92s sex and any diagnosis.',
  '9. Unacceptable principal diagnosis',
  'Unacceptable principal diagnosis codes',
  'Z3400\tEncntr for suprvsn of normal first preg, unsp trimester',
  '*Z5189\tEncounter for other specified aftercare',
  '',
  'Index',
].join('\n');

const DERIVED = [
  'MCE_Version\tICD_Version\tMCE_Section\tMCE_Subsection\tMCE_Edit_Type\tICD_Code_Type\tICD_Code\tICD_Desc',
  '37\t10\t4\tC\tMaternity_Only\tD\tO0900\tSupervision of preg w history of infertility, unsp trimester',
  '37\t10\t5\tA\tFemale_Only\tD\tO0900\tSupervision of preg w history of infertility, unsp trimester',
].join('\n');

const INDEX = [
  'contractor_name_type,document_display_id,document_id,document_type,document_version,effective_date,note,retirement_date,title,updated_on,updated_on_sort,url',
  '"Example MAC West, LLC\n(MAC - Part A, MAC - Part B)",L80001,80001,LCD,5,07/01/2025,,N/A,Example Assay Testing,06/20/2025,20250620101112,https://www.cms.gov/medicare-coverage-database/view/lcd.aspx?lcdid=80001&ver=5',
].join('\n');

function exportZip(name: 'current_article' | 'current_lcd'): Buffer {
  const dir = join(import.meta.dirname, `../../fixtures/mcd/${name}_csv`);
  const inner = Buffer.from(makeZip(Object.fromEntries(readdirSync(dir).map((f) => [f, readFileSync(join(dir, f))]))));
  inner.writeUInt16LE(((2025 - 1980) << 9) | (8 << 5) | 10, 12);
  return makeZip({ [`${name}_csv.zip`]: inner });
}

let db: Database.Database;
let q: PolicyQueries;

beforeAll(async () => {
  const build = await buildFixture(
    {
      'mce/Definitions of Medicare Code Edits_v_43_1.txt': Buffer.from(MANUAL, 'latin1'),
      'mce-derived/MCE_Simple_Code_Edits_v37.txt': DERIVED,
      'mcd-derived/documents_latest.csv': INDEX,
      'mcd/current_article.zip': exportZip('current_article'),
      'mcd/current_lcd.zip': exportZip('current_lcd'),
      'reference/medicare-contractors.json': readFileSync(CONTRACTORS_FILE),
    },
    [mceLoader, mcdIndexLoader, mcdExportLoader, medicareContractorsLoader],
  );
  db = build.open();
  q = createPolicyQueries(db);
});

afterAll(() => db.close());

describe('policy queries: MCE', () => {
  test('lists the edits a code is on at a date, with age limits and the asterisk mark', () => {
    const rows = q
      .mceListsForCode('Z34.00', '2026-05-01')
      .map((m) => [m.edit, m.list, m.ageMin, m.ageMax, m.marked, m.derived, m.source.line]);
    expect(rows).toEqual([
      ['age-conflict', 'age-maternity', 9, 64, false, false, 15],
      ['unacceptable-principal-dx', 'unacceptable-principal-dx', null, null, false, false, 20],
    ]);
    expect(q.mceListsForCode('Z5189', '2026-05-01').map((m) => m.marked)).toEqual([true]);
  });

  test('dates select the release: FY2020 answers from the derived v37 table with its sex list, and no release is no data', () => {
    expect(q.mceListsForCode('O0900', '2020-03-01').map((m) => [m.list, m.sex, m.derived, m.version])).toEqual([
      ['age-maternity', null, true, 'v37'],
      ['sex-female-diagnoses', 'F', true, 'v37'],
    ]);
    expect(q.mceListsForCode('O0900', '2026-10-01')).toEqual([]);
    expect(q.mceListsForCode('O0900', '2022-01-01')).toEqual([]);
  });

  test('members of a list, the list with its rule, and the edits with their status', () => {
    expect(q.mceListMembers('age-maternity', '2026-04-01').map((m) => m.code)).toEqual(['O0900', 'Z3400']);
    expect(q.mceList('age-maternity', '2026-04-01')).toMatchObject({
      version: 'v43.1',
      section: '4C',
      ageMin: 9,
      ageMax: 64,
      codes: 2,
      active: true,
    });
    expect(q.mceList('age-maternity', '2030-01-01')).toBeUndefined();
    expect(q.mceEdits('2026-04-01').map((e) => [e.edit, e.active, e.inactiveFrom])).toEqual([
      ['age-conflict', true, null],
      ['sex-conflict', false, '2024-10-01'],
      ['unacceptable-principal-dx', true, null],
    ]);
  });
});

describe('policy queries: MCD', () => {
  test('documents by display id from the export and the derived index, with contractors', () => {
    const docs = q.mcdDocuments('L80001', '2025-08-01');
    expect(docs.map((d) => [d.origin, d.version, d.title, d.contractors.map((c) => [c.name, c.number])])).toEqual([
      ['export', 5, 'Example Assay Testing', [['Example MAC West, LLC', '01112']]],
      ['derived-index', 5, 'Example Assay Testing', [['Example MAC West, LLC', null]]],
    ]);
    expect(q.mcdDocuments('a90001').map((d) => d.version)).toEqual([3, 2]);
    expect(q.mcdDocuments('A90001', '2025-01-15').map((d) => d.version)).toEqual([2]);
  });

  test('documents by contractor number or name', () => {
    expect(q.mcdDocumentsByContractor('01182', '2025-08-01').map((d) => d.displayId)).toEqual(['A90001', 'A90002']);
    expect(q.mcdDocumentsByContractor('example mac west', '2025-08-01').map((d) => [d.origin, d.displayId])).toEqual([
      ['export', 'A90001'],
      ['export', 'A90002'],
      ['export', 'L80001'],
      ['derived-index', 'L80001'],
    ]);
  });

  test('documents by contractor on each date are the versions in force on it', () => {
    const on = (date: string): string[] =>
      q.mcdDocumentsByContractor('01182', date).map((d) => `${d.displayId} v${String(d.version)}`);
    expect(on('2024-10-15')).toEqual([]);
    expect(on('2025-06-30')).toEqual(['A90002 v1']);
    expect(on('2025-07-01')).toEqual(['A90001 v3', 'A90002 v1']);
    // An earlier date after a later one: the versions are chosen per date, not per first search.
    expect(on('2025-01-15')).toEqual(['A90002 v1']);
  });

  test('codes and groups of an Article version, and the documents listing a code on a date', () => {
    expect(q.mcdCodes('Article', 90001, 3).map((c) => [c.relation, c.code, c.group])).toEqual([
      ['covered', 'E559', 1],
      ['covered', 'N1830', 1],
      ['listed', '82306', 1],
      ['listed', 'G0499', 2],
      ['noncovered', 'Z1321', 1],
    ]);
    expect(q.mcdCodeGroups('Article', 90001, 3).map((g) => [g.kind, g.group])).toEqual([
      ['hcpcs', 1],
      ['hcpcs', 2],
      ['icd10-covered', 1],
      ['icd10-noncovered', 1],
    ]);
    expect(q.mcdDocumentsForCode('E55.9', '2025-08-01').map((u) => [u.displayId, u.version, u.relation])).toEqual([
      ['A90001', 3, 'covered'],
    ]);
    expect(q.mcdDocumentsForCode('E55.9', '2025-01-15').map((u) => [u.displayId, u.version])).toEqual([['A90001', 2]]);
  });
});

describe('policy queries: contractors', () => {
  test('by number, state and jurisdiction', () => {
    expect(q.contractorByNumber('01112').map((f) => [f.origin, f.part, f.state, f.name])).toEqual([
      ['cms-pages', 'B', 'CA', null],
      ['mcd-export', null, 'CA', 'Example MAC West, LLC'],
    ]);
    const ca = q.contractorsByState('ca');
    expect(ca.jurisdictions.map((j) => [j.kind, j.jurisdiction, j.mac])).toEqual([
      ['AB', 'JE', 'Noridian Administrative Services'],
      ['DME', 'D', 'Noridian Healthcare Solutions, LLC'],
    ]);
    expect(ca.contractorNumbers.filter((n) => n.origin === 'cms-pages').map((n) => n.contractorNumber)).toEqual([
      '01112',
      '01182',
    ]);
    expect(q.contractorsByJurisdiction('j15').map((j) => [j.kind, j.states.length])).toEqual([
      ['AB', 2],
      ['HHH', 16],
    ]);
  });
});
