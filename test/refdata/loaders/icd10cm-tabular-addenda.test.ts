// The Tabular List addenda as CDC prints them (an action column at x 36, the tabular's text indented by level from
// x 90, a note's items ~55 points right of its heading, wrapped lines without an action), over the hand-made FY2023
// tabular: the events read, stored from the addendum's date, and applied by TabularQueries.noteIndex.
import { describe, expect, test } from 'vitest';
import { icd10cmTabularAddendaLoader, parseTabularAddenda } from '../../../src/refdata/loaders/icd10cm-tabular-addenda.js';
import { icd10cmTabularLoader } from '../../../src/refdata/loaders/icd10cm-tabular.js';
import { createTabularQueries } from '../../../src/reference/queries/tabular.js';
import { buildFixture } from '../../helpers/build.js';
import { makePdf, pageOfLines } from '../../helpers/pdf.js';
import { makeZip } from '../../helpers/zip.js';
import { pdfTextLines } from '../../../src/readers/pdf-text.js';
import { miniTabular } from './icd10cm-tabular.fixture.js';

const addenda2026 = makePdf([
  pageOfLines([
    [[71, 'ICD-10-CM TABULAR LIST of DISEASES and INJURIES']],
    [[245, '2026 Addenda']],
    [[36, 'No Change'], [90, 'Chapter 1']],
    [[36, 'No Change'], [90, 'Certain infectious and parasitic diseases (A00-B99)']],
    [[36, 'No Change'], [90, 'Intestinal infectious diseases (A00-A09)']],
    [[36, 'No Change'], [90, 'Excludes1:']],
    [[36, 'Revise from'], [145, 'helminthiases (B65-B83)']],
    [[36, 'Revise to'], [145, 'helminthiases (B65-B88)']],
    [[36, 'No Change'], [90, 'Chapter 4']],
    [[36, 'No Change'], [90, 'Endocrine, nutritional and metabolic diseases (E00-E89)']],
    [[36, 'No Change'], [90, 'Diabetes mellitus (E08-E13)']],
    [[36, 'No Change'], [90, 'E11 Type 2 diabetes mellitus']],
    [[36, 'Delete'], [111, 'Excludes1:'], [164, 'Diabetes mellitus due to underlying  condition (E08.-)']],
    [[36, 'Add'], [111, 'Excludes2:'], [164, 'diabetes mellitus due to underlying condition (E08.-)']],
  ]),
  pageOfLines([
    [[36, 'No Change'], [111, 'E11.9 Type 2 diabetes mellitus without complications']],
    [[36, 'Add'], [140, 'Excludes1:'], [193, 'type 2 diabetes mellitus, without complications in']],
    [[193, 'remission (E11.A)']],
    [[36, 'Delete'], [140, 'Excludes1:'], [193, 'no such note (K99.9)']],
    [[36, 'Add'], [111, 'E11.A Type 2 diabetes mellitus without complications in remission']],
    // An inclusion term (~35 points right of its code), then a note of another kind: no Excludes change.
    [[36, 'Add'], [146, 'Type 2 diabetes in remission NOS']],
    [[36, 'Add'], [146, 'Code also, if applicable, insulin use (Z79.4)']],
  ]),
]);

describe('icd10cm-tabular-addenda loader', () => {
  test('reads the Excludes1 and Excludes2 changes with the code, section or chapter they stand under', async () => {
    const { events, problems } = parseTabularAddenda(await pdfTextLines(addenda2026));
    expect(problems).toEqual([]);
    expect(events.map((e) => [e.level, e.owner, e.type, e.action, e.text])).toEqual([
      ['section', 'A00-A09', 'excludes1', 'delete', 'helminthiases (B65-B83)'],
      ['section', 'A00-A09', 'excludes1', 'add', 'helminthiases (B65-B88)'],
      ['diag', 'E11', 'excludes1', 'delete', 'Diabetes mellitus due to underlying condition (E08.-)'],
      ['diag', 'E11', 'excludes2', 'add', 'diabetes mellitus due to underlying condition (E08.-)'],
      ['diag', 'E119', 'excludes1', 'add', 'type 2 diabetes mellitus, without complications in remission (E11.A)'],
      ['diag', 'E119', 'excludes1', 'delete', 'no such note (K99.9)'],
    ]);
    expect(events.map((e) => e.page)).toEqual([1, 1, 1, 1, 2, 2]);
  });

  test('stores them from the addendum\'s date; the note index applies them from that date on', async () => {
    const build = await buildFixture(
      {
        'icd10cm/icd10cm_tabular_2023.xml': miniTabular({ version: 2023 }),
        'icd10cm/tabular-addenda/icd10cm-addenda-2026.zip': makeZip({
          'icd10cm-tabular-addenda-2026.pdf': addenda2026,
          'icd10cm-index-addenda-2026.pdf': makePdf([pageOfLines([[[36, 'Add'], [90, 'not read']]])]),
        }),
      },
      [icd10cmTabularLoader, icd10cmTabularAddendaLoader],
    );
    const db = build.open();
    expect(db.prepare("SELECT dataset, member, release, valid_from AS validFrom, rows FROM source WHERE dataset LIKE '%addenda'").all()).toEqual([
      { dataset: 'icd10cm-tabular-addenda', member: 'icd10cm-tabular-addenda-2026.pdf', release: 'FY2026 addenda', validFrom: '2025-10-01', rows: 6 },
    ]);
    const q = createTabularQueries(db);
    const texts = (date: string, owner: string): string[] | undefined =>
      q.noteIndex('excludes1', date)?.byOwner.get(owner)?.map((n) => n.text);
    // The day before: the tabular as its XML has it.
    expect(q.noteIndex('excludes1', '2025-09-30')?.release).toBe('FY2023');
    expect(texts('2025-09-30', 'section:A00-A09')).toEqual(['helminthiases (B65-B83)']);
    expect(texts('2025-09-30', 'diag:E11')).toEqual(['diabetes mellitus due to underlying condition (E08.-)', 'type 1 diabetes mellitus (E10.-)']);
    // From the addendum's date: revised, deleted (case and spacing aside), added with its ranges; the deletion of a
    // note the tabular does not have is counted, not applied.
    const index = q.noteIndex('excludes1', '2025-10-01');
    expect(index?.release).toBe('FY2023 + FY2026 addenda');
    expect(index?.addenda).toEqual({ applied: 4, unmatched: ['E11.9: no such note (K99.9)'] });
    expect(texts('2025-10-01', 'section:A00-A09')).toEqual(['helminthiases (B65-B88)']);
    expect(texts('2025-10-01', 'diag:E11')).toEqual(['type 1 diabetes mellitus (E10.-)']);
    expect(index?.byOwner.get('diag:E119')?.map((n) => ({ at: n.at, ranges: n.ranges.map((r) => [r.first, r.last]) }))).toEqual([
      { at: 'E11.9', ranges: [['E11A', 'E11A']] },
    ]);
    // Other note types are the XML's on every date (the loader reads only Excludes1 and Excludes2 changes).
    expect(q.noteIndex('codeFirst', '2026-01-01')?.release).toBe('FY2023');
    db.close();
  });

  test('fails on a member that is not a PDF, or a PDF without the addenda layout', async () => {
    const zip = (pdf: Buffer): Record<string, Buffer> => ({
      'icd10cm/icd10cm-addenda-2026.zip': makeZip({ 'icd10cm-tabular-addenda-2026.pdf': pdf }),
    });
    await expect(buildFixture(zip(Buffer.from('not a pdf')), [icd10cmTabularAddendaLoader])).rejects.toThrow(
      /icd10cm-addenda-2026\.zip\[icd10cm-tabular-addenda-2026\.pdf\]: not a readable PDF/,
    );
    await expect(
      buildFixture(zip(makePdf([pageOfLines([[[72, 'Some other document']]])])), [icd10cmTabularAddendaLoader]),
    ).rejects.toThrow(/no Excludes1 or Excludes2 change found in 1 lines/);
    // An action set so close to its text that the reader joins them: its indentation is unknown, so the load fails.
    const joined = makePdf([
      pageOfLines([
        [[36, 'No Change'], [90, 'E11 Type 2 diabetes mellitus']],
        [[36, 'Delete'], [111, 'Excludes1:'], [164, 'type 1 diabetes mellitus (E10.-)']],
        [[36, 'No Change'], [75, 'E11.9 Type 2 diabetes mellitus without complications']],
      ]),
    ]);
    await expect(buildFixture(zip(joined), [icd10cmTabularAddendaLoader])).rejects.toThrow(
      /1 line\(s\) could not be read, e.g. page 1: the action is not set apart from the text: "No ChangeE11\.9 Type 2/,
    );
  });
});
