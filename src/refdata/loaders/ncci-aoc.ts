// NCCI add-on code edits (Medicare, practitioner): the CMS quarterly workbook `AOC_V<YYYY>Q<n>-MCR.xlsx`, an AMA
// notice row, the header row `AOC_Edit_Type, Add-On_Code, AOC_DelDT, Primary_Code, Primary_Code_DelDT,
// AOC_Edit_EffDT, AOC_Edit_DelDT, Special_Instruction_Notes`, then one add-on/primary pair per row. Dates are Julian
// `YYYYDDD` (2013091 = 2013-04-01); a deletion date is the last day the edit is in force (the file's deletion
// dates fall on quarter ends, e.g. 2022365). Type 2 rows name the primary code `CCCCC`: "Contractor Defined Primary
// Codes". The workbook is cumulative, so each row keeps its own edit dates; queries also require the release.
import { ReferenceDataError } from '../../errors.js';
import { readXlsxRows } from '../../readers/xlsx.js';
import { julianToIso, quarterStart } from '../builder/dates.js';
import type { Loader } from '../builder/types.js';

/** The header row, exactly. */
export const AOC_HEADER = [
  'AOC_Edit_Type',
  'Add-On_Code',
  'AOC_DelDT',
  'Primary_Code',
  'Primary_Code_DelDT',
  'AOC_Edit_EffDT',
  'AOC_Edit_DelDT',
  'Special_Instruction_Notes',
] as const;

/** Primary code of type 2 edits: the contractor defines the primary codes. */
export const CONTRACTOR_DEFINED_PRIMARY = 'CCCCC';

const FILE = /^AOC_V(\d{4})Q([1-4])[-_](?:.*[-_])?MCR\.xlsx$/i;
const CODE = /^[A-Z0-9]{5}$/;

/** One parsed add-on code edit row. */
export interface AocRecord {
  readonly editType: 1 | 2 | 3;
  readonly addOnCode: string;
  readonly addOnDeleted: string | null;
  readonly primaryCode: string;
  readonly primaryDeleted: string | null;
  readonly effective: string;
  readonly deleted: string | null;
  readonly notes: string | null;
}

const isHeader = (cells: readonly (string | null)[]): boolean =>
  AOC_HEADER.every((h, i) => (cells[i] ?? '').trim() === h);

/**
 * Validates one edit row of the add-on code workbook.
 * @returns the row, or a message saying what is wrong
 */
export function parseAocRecord(cells: readonly (string | null)[]): AocRecord | string {
  const [type, addOn, addOnDel, primary, primaryDel, eff, del, notes] = AOC_HEADER.map((_, i) => (cells[i] ?? '').trim());
  if (cells.slice(AOC_HEADER.length).some((c) => (c ?? '').trim() !== '')) {
    return `expected ${AOC_HEADER.length} columns, found a value beyond column H`;
  }
  if (type !== '1' && type !== '2' && type !== '3') {
    return `AOC_Edit_Type ${JSON.stringify(type)} is not 1, 2 or 3`;
  }
  const addOnCode = (addOn ?? '').toUpperCase();
  const primaryCode = (primary ?? '').toUpperCase();
  if (!CODE.test(addOnCode)) {
    return `Add-On_Code ${JSON.stringify(addOn)} is not a 5-character HCPCS/CPT code`;
  }
  if (!CODE.test(primaryCode)) {
    return `add-on ${addOnCode}: Primary_Code ${JSON.stringify(primary)} is not a 5-character HCPCS/CPT code`;
  }
  const dates: Record<string, string | null> = {};
  for (const [name, text] of [
    ['AOC_DelDT', addOnDel],
    ['Primary_Code_DelDT', primaryDel],
    ['AOC_Edit_EffDT', eff],
    ['AOC_Edit_DelDT', del],
  ] as const) {
    try {
      dates[name] = julianToIso(text);
    } catch {
      return `add-on ${addOnCode}, primary ${primaryCode}: ${name} ${JSON.stringify(text)} is not a Julian date YYYYDDD`;
    }
  }
  const effective = dates['AOC_Edit_EffDT'];
  if (!effective) {
    return `add-on ${addOnCode}, primary ${primaryCode}: AOC_Edit_EffDT is empty`;
  }
  return {
    editType: Number(type) as 1 | 2 | 3,
    addOnCode,
    addOnDeleted: dates['AOC_DelDT'] ?? null,
    primaryCode,
    primaryDeleted: dates['Primary_Code_DelDT'] ?? null,
    effective,
    deleted: dates['AOC_Edit_DelDT'] ?? null,
    notes: notes || null,
  };
}

export const ncciAocLoader: Loader = {
  name: 'ncci-aoc',
  version: 1,
  ddl: `
CREATE TABLE ncci_aoc (
  add_on_code TEXT NOT NULL,
  primary_code TEXT NOT NULL,
  edit_type INTEGER NOT NULL,
  add_on_deleted TEXT,
  primary_deleted TEXT,
  valid_from TEXT NOT NULL,
  valid_to TEXT,
  notes TEXT,
  row_no INTEGER NOT NULL,
  source_id INTEGER NOT NULL REFERENCES source(id)
);
CREATE INDEX ncci_aoc_by_add_on ON ncci_aoc (add_on_code, valid_from);
CREATE INDEX ncci_aoc_by_primary ON ncci_aoc (primary_code, valid_from);
`,
  async recognise(file) {
    const m = FILE.exec(file.name);
    if (!m) {
      return [];
    }
    for await (const row of readXlsxRows(file.path)) {
      if (isHeader(row.cells)) {
        const year = Number(m[1]);
        const quarter = Number(m[2]);
        return [{ dataset: 'ncci-aoc', release: `${year}Q${quarter}`, validFrom: quarterStart(year, quarter) }];
      }
      if (row.rowNumber >= 5) {
        break;
      }
    }
    return [];
  },
  async load(ctx) {
    const pos = { file: ctx.file.relPath, member: ctx.unit.member };
    const insert = ctx.db.prepare(
      `INSERT INTO ncci_aoc (add_on_code, primary_code, edit_type, add_on_deleted, primary_deleted, valid_from, valid_to, notes, row_no, source_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    let headerSeen = false;
    for await (const row of readXlsxRows(ctx.file.path)) {
      if (!headerSeen) {
        // Rows before the header: the AMA notice.
        headerSeen = isHeader(row.cells);
        if (!headerSeen && row.rowNumber >= 5) {
          throw new ReferenceDataError({ ...pos, line: row.rowNumber }, `expected the header row ${AOC_HEADER.join(', ')}`);
        }
        continue;
      }
      if (row.cells.every((c) => (c ?? '').trim() === '')) {
        continue;
      }
      const rec = parseAocRecord(row.cells);
      if (typeof rec === 'string') {
        throw new ReferenceDataError({ ...pos, line: row.rowNumber }, rec);
      }
      insert.run(
        rec.addOnCode,
        rec.primaryCode,
        rec.editType,
        rec.addOnDeleted,
        rec.primaryDeleted,
        rec.effective,
        rec.deleted,
        rec.notes,
        row.rowNumber,
        ctx.sourceId,
      );
      ctx.progress.add(1);
    }
  },
};
