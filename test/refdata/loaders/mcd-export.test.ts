import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { zipBufferEntries } from '../../../src/readers/zip-buffer.js';
import { mcdExportDate, mcdExportLoader, zipHeadDate } from '../../../src/refdata/loaders/mcd-export.js';
import { buildFixture } from '../../helpers/build.js';
import { makeZip } from '../../helpers/zip.js';

const FIXTURES = join(import.meta.dirname, '../../fixtures/mcd');

/** Sets the DOS modification date of a ZIP's first entry (makeZip writes zero), as CMS's export tool stamps it. */
function stamp(zip: Buffer, iso: string): Buffer {
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
  const out = Buffer.from(zip);
  out.writeUInt16LE(((y - 1980) << 9) | (m << 5) | d, 12);
  return out;
}

/** The nested `<name>_csv.zip` of hand-made CSVs in the export layout, with optional replaced members. */
function innerZip(
  name: 'current_article' | 'current_lcd',
  replace: Record<string, string | Buffer> = {},
  drop: string[] = [],
): Buffer {
  const dir = join(FIXTURES, `${name}_csv`);
  const members: Record<string, string | Buffer> = {};
  for (const file of readdirSync(dir).sort()) {
    if (!drop.includes(file)) {
      members[file] = readFileSync(join(dir, file));
    }
  }
  return stamp(makeZip({ ...members, ...replace }), '2025-08-10');
}

/** The download as CMS ships it: the outer ZIP holding the CSV ZIP and a read-me. */
function download(name: 'current_article' | 'current_lcd', inner: Buffer): Buffer {
  return makeZip({ [`${name}_csv.zip`]: inner, 'readme_first.txt': 'See the data dictionary.' });
}

describe('mcd-export loader', () => {
  test('reads export dates and the in-memory ZIP directory', () => {
    expect(mcdExportDate('2020-07-01 00:00:00')).toBe('2020-07-01');
    expect(mcdExportDate('2020-06-19 22:52:07.840000000')).toBe('2020-06-19');
    expect(mcdExportDate('7/1/2020')).toBe('2020-07-01');
    expect(mcdExportDate('')).toBeNull();
    expect(mcdExportDate('soon')).toBeUndefined();
    const zip = innerZip('current_lcd');
    expect(zipHeadDate(zip.toString('latin1'))).toBe('2025-08-10');
    expect(zipBufferEntries(zip).map((e) => e.name)).toContain('lcd.csv');
  });

  test('loads LCDs and Articles with contractors, HCPCS and ICD-10 code groups, and their links', async () => {
    const build = await buildFixture(
      {
        'mcd/current_lcd.zip': download('current_lcd', innerZip('current_lcd')),
        'mcd/current_article.zip': download('current_article', innerZip('current_article')),
      },
      [mcdExportLoader],
    );
    expect(build.result.units.map((u) => [u.dataset, u.member, u.release])).toEqual([
      ['mcd-article', 'current_article_csv.zip', 'current_article 2025-08-10'],
      ['mcd-lcd', 'current_lcd_csv.zip', 'current_lcd 2025-08-10'],
    ]);
    const db = build.open();
    expect(
      db
        .prepare(
          'SELECT document_type, document_id, document_version, display_id, title, valid_from, valid_to FROM mcd_document ORDER BY 1, 2, 3',
        )
        .all(),
    ).toEqual([
      {
        document_type: 'Article',
        document_id: 90001,
        document_version: 2,
        display_id: 'A90001',
        title: 'Billing and Coding: Example Assay Testing',
        valid_from: '2024-10-01',
        valid_to: '2025-06-30',
      },
      // 0x96 in the Windows-1252 file is the en dash.
      {
        document_type: 'Article',
        document_id: 90001,
        document_version: 3,
        display_id: 'A90001',
        title: 'Billing and Coding: Example Assay Testing \u2013 Fixture',
        valid_from: '2025-07-01',
        valid_to: null,
      },
      {
        document_type: 'Article',
        document_id: 90002,
        document_version: 1,
        display_id: 'A90002',
        title: 'Response to Comments: Example',
        valid_from: '2025-01-01',
        valid_to: null,
      },
      {
        document_type: 'LCD',
        document_id: 80001,
        document_version: 5,
        display_id: 'L80001',
        title: 'Example Assay Testing',
        valid_from: '2025-07-01',
        valid_to: null,
      },
      {
        document_type: 'LCD',
        document_id: 80002,
        document_version: 1,
        display_id: 'L80002',
        title: 'Retired Example',
        valid_from: '2019-01-01',
        valid_to: '2024-12-31',
      },
    ]);
    expect(
      db
        .prepare(
          'SELECT relation, code_system, code, code_group, asterisk, description FROM mcd_code WHERE document_id = 90001 AND document_version = 3 ORDER BY relation, code',
        )
        .all(),
    ).toEqual([
      {
        relation: 'covered',
        code_system: 'ICD10CM',
        code: 'E559',
        code_group: 1,
        asterisk: null,
        description: 'Vitamin D deficiency, unspecified',
      },
      {
        relation: 'covered',
        code_system: 'ICD10CM',
        code: 'N1830',
        code_group: 1,
        asterisk: '*',
        description: 'Chronic kidney disease, stage 3 unspecified',
      },
      {
        relation: 'listed',
        code_system: 'HCPCS',
        code: '82306',
        code_group: 1,
        asterisk: null,
        description: 'Example assay long description',
      },
      {
        relation: 'listed',
        code_system: 'HCPCS',
        code: 'G0499',
        code_group: 2,
        asterisk: null,
        description: 'Example HCPCS code',
      },
      {
        relation: 'noncovered',
        code_system: 'ICD10CM',
        code: 'Z1321',
        code_group: 1,
        asterisk: null,
        description: 'Encounter for screening for nutritional disorder',
      },
    ]);
    expect(
      db
        .prepare(
          'SELECT group_kind, code_group, paragraph, asterisk_text FROM mcd_code_group ORDER BY group_kind, code_group',
        )
        .all(),
    ).toEqual([
      {
        group_kind: 'hcpcs',
        code_group: 1,
        paragraph: '<p>Group 1 Paragraph: the assay codes.</p>',
        asterisk_text: null,
      },
      {
        group_kind: 'hcpcs',
        code_group: 2,
        paragraph: '<p>Group 2 Paragraph: report with a Group 2 diagnosis.</p>',
        asterisk_text: null,
      },
      {
        group_kind: 'icd10-covered',
        code_group: 1,
        paragraph: '<p>Group 1 Codes: conditions that support the assay.</p>',
        asterisk_text: '* Report as a secondary diagnosis only.',
      },
      {
        group_kind: 'icd10-noncovered',
        code_group: 1,
        paragraph: '<p>Screening is never covered.</p>',
        asterisk_text: null,
      },
    ]);
    expect(
      db
        .prepare(
          'SELECT document_type, document_id, related_type, related_id, related_version FROM mcd_related ORDER BY 1',
        )
        .all(),
    ).toEqual([
      { document_type: 'Article', document_id: 90001, related_type: 'LCD', related_id: 80001, related_version: 5 },
      { document_type: 'LCD', document_id: 80001, related_type: 'Article', related_id: 90001, related_version: 3 },
    ]);
    // Both exports carry the contractor tables; each contractor is kept once.
    expect(
      db.prepare('SELECT contractor_id, contractor_number, name, dmerc_region FROM mcd_contractor ORDER BY 1').all(),
    ).toEqual([
      { contractor_id: 371, contractor_number: '01112', name: 'Example MAC West, LLC', dmerc_region: null },
      { contractor_id: 372, contractor_number: '01182', name: 'Example MAC West, LLC', dmerc_region: null },
      { contractor_id: 380, contractor_number: '19003', name: 'Example DME Contractor', dmerc_region: 'D' },
    ]);
    expect(db.prepare('SELECT count(*) AS n FROM mcd_contractor_state').get()).toEqual({ n: 4 });
    expect(
      db
        .prepare(
          "SELECT document_id, document_version, contractor_id FROM mcd_document_contractor WHERE document_type = 'Article' ORDER BY 1, 2, 3",
        )
        .all(),
    ).toEqual([
      { document_id: 90001, document_version: 2, contractor_id: 371 },
      { document_id: 90001, document_version: 3, contractor_id: 371 },
      { document_id: 90001, document_version: 3, contractor_id: 372 },
      { document_id: 90002, document_version: 1, contractor_id: 372 },
    ]);
    db.close();
  });

  test('also takes the CSV ZIP on its own', async () => {
    const build = await buildFixture({ 'mcd/current_lcd_csv.zip': innerZip('current_lcd') }, [mcdExportLoader]);
    expect(build.result.units.map((u) => [u.dataset, u.member])).toEqual([['mcd-lcd', undefined]]);
    const db = build.open();
    expect(db.prepare('SELECT count(*) AS n FROM mcd_document').get()).toEqual({ n: 2 });
    db.close();
  });

  test('fails the build with file, member and line on a bad row, a missing column or a missing table', async () => {
    const badRow =
      'article_id,article_version,icd10_code_id,icd10_code_version,icd10_covered_group,range,last_updated,sort_order,description,asterisk\r\n90001,3,E55.9,1,1,N,,1,Vitamin D deficiency,\r\n90001,3,N18.30,1,x,N,,2,Chronic kidney disease,\r\n';
    await expect(
      buildFixture(
        {
          'mcd/current_article.zip': download(
            'current_article',
            innerZip('current_article', { 'article_x_icd10_covered.csv': badRow }),
          ),
        },
        [mcdExportLoader],
      ),
    ).rejects.toThrow(
      'mcd/current_article.zip[current_article_csv.zip/article_x_icd10_covered.csv]:3: icd10_covered_group "x" is not a whole number',
    );
    const noColumn = 'article_id,article_version,icd10_code_id\r\n90001,3,E55.9\r\n';
    await expect(
      buildFixture(
        {
          'mcd/current_article.zip': download(
            'current_article',
            innerZip('current_article', { 'article_x_icd10_covered.csv': noColumn }),
          ),
        },
        [mcdExportLoader],
      ),
    ).rejects.toThrow('[current_article_csv.zip/article_x_icd10_covered.csv]:1: missing column(s) icd10_covered_group');
    await expect(
      buildFixture({ 'mcd/current_lcd.zip': download('current_lcd', innerZip('current_lcd', {}, ['lcd.csv'])) }, [
        mcdExportLoader,
      ]),
    ).rejects.toThrow('mcd/current_lcd.zip[current_lcd_csv.zip/lcd.csv]: the export has no lcd.csv');
  });
});
