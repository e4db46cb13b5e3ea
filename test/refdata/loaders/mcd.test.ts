import { describe, expect, test } from 'vitest';
import { mcdIndexDate, mcdIndexLoader, splitContractors } from '../../../src/refdata/loaders/mcd.js';
import { buildFixture } from '../../helpers/build.js';

const HEADER =
  'contractor_name_type,document_display_id,document_id,document_type,document_version,effective_date,note,retirement_date,title,updated_on,updated_on_sort,url';

/** Rows in the layout of `documents_latest.csv` (multi-line quoted contractor cells). */
const rows = [
  HEADER,
  '"Example MAC West, LLC\n(MAC - Part A, MAC - Part B)",L90001,90001,LCD,6,09/07/2025,Future(Notice Ends 09/06/2025),N/A,Example Testing,07/16/2025,20250716101833,https://www.cms.gov/medicare-coverage-database/view/lcd.aspx?lcdid=90001&ver=6',
  '"Example MAC West, LLC\n(MAC - Part A, MAC - Part B)",L90001,90001,LCD,3,11/01/2022,,N/A,Example Testing,09/09/2022,20220909072735,https://www.cms.gov/medicare-coverage-database/view/lcd.aspx?lcdid=90001&ver=3',
  '"Example DME One, LLC\n(DME MAC)\n\nExample DME Two, LLC\n(DME MAC)",A90002,90002,Article,12,01/01/2024,Retired,09/22/2024,"Example Supplies, ""Joint"" Article",09/20/2024,20240920080000,https://www.cms.gov/medicare-coverage-database/view/article.aspx?articleid=90002&ver=12',
];

describe('mcd-index loader', () => {
  test('parses dates and multi-contractor cells', () => {
    expect(mcdIndexDate('08/14/2025')).toBe('2025-08-14');
    expect(mcdIndexDate('N/A')).toBeNull();
    expect(mcdIndexDate('2025-08-14')).toBeUndefined();
    expect(splitContractors('A, LLC\n(DME MAC)\n\nB, Inc.\n(HHH MAC, MAC - Part A)')).toEqual([
      { name: 'A, LLC', types: 'DME MAC' },
      { name: 'B, Inc.', types: 'HHH MAC, MAC - Part A' },
    ]);
    expect(splitContractors('no types here')).toBeUndefined();
  });

  test('loads every document version with its contractors and dates; a superseded version ends before the next', async () => {
    const build = await buildFixture({ 'mcd-derived/documents_latest.csv': `${rows.join('\n')}\n` }, [mcdIndexLoader]);
    expect(build.result.units.map((u) => [u.dataset, u.release, u.member])).toEqual([
      ['mcd-documents-derived', '2025-07-16', undefined],
    ]);
    const db = build.open();
    expect(
      db
        .prepare(
          'SELECT document_type, display_id, document_version, title, effective_date, retirement_date, valid_from, valid_to, line FROM mcd_index_document ORDER BY display_id, document_version',
        )
        .all(),
    ).toEqual([
      {
        document_type: 'Article',
        display_id: 'A90002',
        document_version: 12,
        title: 'Example Supplies, "Joint" Article',
        effective_date: '2024-01-01',
        retirement_date: '2024-09-22',
        valid_from: '2024-01-01',
        valid_to: '2024-09-21',
        line: 10,
      },
      {
        document_type: 'LCD',
        display_id: 'L90001',
        document_version: 3,
        title: 'Example Testing',
        effective_date: '2022-11-01',
        retirement_date: null,
        valid_from: '2022-11-01',
        valid_to: '2025-09-06',
        line: 5,
      },
      {
        document_type: 'LCD',
        display_id: 'L90001',
        document_version: 6,
        title: 'Example Testing',
        effective_date: '2025-09-07',
        retirement_date: null,
        valid_from: '2025-09-07',
        valid_to: null,
        line: 3,
      },
    ]);
    expect(
      db
        .prepare(
          'SELECT ord, contractor_name, contractor_types FROM mcd_index_contractor WHERE document_id = 90002 ORDER BY ord',
        )
        .all(),
    ).toEqual([
      { ord: 1, contractor_name: 'Example DME One, LLC', contractor_types: 'DME MAC' },
      { ord: 2, contractor_name: 'Example DME Two, LLC', contractor_types: 'DME MAC' },
    ]);
    db.close();
  });

  test('skips a CSV with another header, and fails on a malformed row with file and line', async () => {
    const other = await buildFixture({ 'mcd-derived/documents_other.csv': 'doc_id,doc_type\n1,LCD\n' }, [
      mcdIndexLoader,
    ]);
    expect(other.result.skipped.map((s) => s.file)).toEqual(['mcd-derived/documents_other.csv']);
    const bad = [
      ...rows,
      '"Example MAC\n(MAC - Part B)",L90003,90003,LCD,1,2025-01-01,,N/A,Bad date,01/01/2025,20250101000000,https://example.invalid',
    ];
    await expect(
      buildFixture({ 'mcd-derived/documents_latest.csv': bad.join('\n') }, [mcdIndexLoader]),
    ).rejects.toThrow('mcd-derived/documents_latest.csv:12: a date is not MM/DD/YYYY or N/A in document "L90003"');
  });
});
