// CDC ICD-10-CM Conversion Table (XLSX, one sheet): per code added since FY2016, its effective date and the code(s)
// it was previously assigned to. The previous-code cell is free text ("A04.7", "C56.1 and C56.2",
// "H02.101-H02.106; H02.109", "I63.- and P91.88", "Codes in Categories T15-T19", "None"); it is split into one link
// row per code or range. Codes are stored undotted; the cell text is kept as printed.
import type Database from 'better-sqlite3';
import { ReferenceDataError } from '../../errors.js';
import { excelSerialToIso, readXlsxRows } from '../../readers/xlsx.js';
import { fiscalYearStart } from '../builder/dates.js';
import { normaliseCode } from '../../schemas/code-systems.js';
import type { Loader } from '../builder/types.js';

const FILE = /conversion[-_ ]?table.*FY ?(\d{4}).*\.xlsx$/i;
const HEADER_CELL = /^\s*current code/i;
/** An ICD-10-CM code, dotted or not; FY2026 brought categories with a letter second (`QA0.0101`). */
const CODE = '[A-Z][0-9A-Z]{2}(?:\\.?[0-9A-Z]{1,4})?';
const SINGLE = new RegExp(`^(${CODE})$`);
const RANGE = new RegExp(`^(${CODE})\\s*-\\s*(${CODE})$`);
/** A whole category: `I63.-` or `R11-`. */
const CATEGORY = /^([A-Z][0-9A-Z]{2})\.?-$/;
/** Words around codes that name a set of codes rather than a code: "Codes in Categories", "a code from". */
const SET_WORDS = /^(?:a\s+)?codes?\s+(?:in|from)\s+(?:categor(?:y|ies)\s+)?/i;

/** One previous-code item of a conversion-table row. */
export interface PreviousCode {
  /** The code, or the first code of a range (undotted); `null` when the table says `None`. */
  readonly first: string | null;
  /**
   * The last code of a range, read as a prefix bound (`I63.-` is `I63`..`I63`, every code of the category);
   * `null` for a single code.
   */
  readonly last: string | null;
}

/**
 * Splits a previous-code cell into codes and ranges.
 * @returns the items, or `undefined` when some part is neither a code, a range nor a category
 */
export function parsePreviousCodes(cell: string): PreviousCode[] | undefined {
  const text = cell.trim();
  if (/^none$/i.test(text)) {
    return [{ first: null, last: null }];
  }
  const items: PreviousCode[] = [];
  for (const raw of text.split(/\s*(?:,|;|&|\band\b)\s*/i)) {
    const part = raw.trim().replace(SET_WORDS, '');
    if (part === '') {
      continue;
    }
    const single = SINGLE.exec(part);
    const range = RANGE.exec(part);
    const category = CATEGORY.exec(part);
    if (single) {
      items.push({ first: normaliseCode(single[1] ?? ''), last: null });
    } else if (range) {
      items.push({ first: normaliseCode(range[1] ?? ''), last: normaliseCode(range[2] ?? '') });
    } else if (category) {
      items.push({ first: category[1] ?? '', last: category[1] ?? '' });
    } else {
      return undefined;
    }
  }
  return items.length > 0 ? items : undefined;
}

/**
 * Reads the Effective cell: a year means October 1 of that year ("Unless otherwise specified the code effective
 * date is October 1 of the year listed", the table's own preface); other dates are Excel serials or `m/d/yyyy`.
 * @returns the ISO date, or `undefined` when the cell is none of these
 */
export function parseEffective(cell: string): string | undefined {
  const text = cell.trim();
  if (/^(?:19|20)\d{2}$/.test(text)) {
    return `${text}-10-01`;
  }
  if (/^\d{5}(?:\.0+)?$/.test(text)) {
    return excelSerialToIso(Number(text));
  }
  const mdy = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text);
  if (mdy) {
    const iso = `${mdy[3] ?? ''}-${(mdy[1] ?? '').padStart(2, '0')}-${(mdy[2] ?? '').padStart(2, '0')}`;
    const d = new Date(`${iso}T00:00:00Z`);
    return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(iso) ? iso : undefined;
  }
  return undefined;
}

export const icd10cmConversionLoader: Loader = {
  name: 'icd10cm-conversion',
  version: 1,
  ddl: `
CREATE TABLE icd10cm_conversion (
  current_code TEXT NOT NULL,
  effective TEXT NOT NULL,
  previous_code TEXT,
  previous_last TEXT,
  previous_text TEXT NOT NULL,
  row_no INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  valid_from TEXT NOT NULL,
  valid_to TEXT,
  source_id INTEGER NOT NULL REFERENCES source(id),
  PRIMARY KEY (source_id, row_no, seq)
) WITHOUT ROWID;
CREATE INDEX icd10cm_conversion_by_current ON icd10cm_conversion (current_code, valid_from);
CREATE INDEX icd10cm_conversion_by_previous ON icd10cm_conversion (previous_code, valid_from);
CREATE INDEX icd10cm_conversion_ranges ON icd10cm_conversion (previous_code) WHERE previous_last IS NOT NULL;
`,
  async recognise(file, probe) {
    const m = FILE.exec(file.name);
    if (!m || !/icd-?10-?cm/i.test(file.name) || !(await probe.members()).includes('xl/sharedStrings.xml')) {
      return [];
    }
    // Confirm by content: the column heading "Current code assignment" is among the first shared strings.
    if (!/current code assignment/i.test(await probe.head('xl/sharedStrings.xml', 16_384))) {
      return [];
    }
    const fy = Number(m[1]);
    return [{ dataset: 'icd10cm-conversion', release: `FY${fy}`, validFrom: fiscalYearStart(fy) }];
  },
  async load(ctx) {
    const insert = ctx.db.prepare(
      `INSERT INTO icd10cm_conversion (current_code, effective, previous_code, previous_last, previous_text, row_no, seq, valid_from, valid_to, source_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    let headerSeen = false;
    for await (const { rowNumber, cells } of readXlsxRows(ctx.file.path, 0)) {
      const fail = (message: string): never => {
        throw new ReferenceDataError({ file: ctx.file.relPath, line: rowNumber }, message);
      };
      const [current, effective, previous] = cells.map((c) => (c ?? '').trim());
      if (!headerSeen) {
        // The sheet opens with a preface (merged A1:C1), then the column headings.
        headerSeen = HEADER_CELL.test(current ?? '');
        if (!headerSeen && SINGLE.test(current ?? '')) {
          fail('data row before the "Current code assignment" heading');
        }
        continue;
      }
      if (!current && !effective && !previous) {
        continue;
      }
      if (!SINGLE.test(current ?? '')) {
        fail(`current code ${JSON.stringify(current)} is not an ICD-10-CM code`);
      }
      const date =
        parseEffective(effective ?? '') ??
        fail(`effective date ${JSON.stringify(effective)} is neither a year nor a date`);
      const items =
        parsePreviousCodes(previous ?? '') ??
        fail(`previous code(s) ${JSON.stringify(previous)} could not be read as codes or ranges`);
      items.forEach((item, seq) => {
        insert.run(
          normaliseCode(current ?? ''),
          date,
          item.first,
          item.last,
          previous,
          rowNumber,
          seq,
          ctx.unit.validFrom,
          ctx.unit.validTo ?? null,
          ctx.sourceId,
        );
      });
      ctx.progress.add(items.length);
    }
    if (!headerSeen) {
      throw new ReferenceDataError({ file: ctx.file.relPath }, 'no "Current code assignment" heading row found');
    }
  },
  finalize(db: Database.Database) {
    // A table release ends the day before the next one starts (the builder derives it per source).
    db.exec(`UPDATE icd10cm_conversion SET valid_to = (SELECT s.valid_to FROM source s WHERE s.id = icd10cm_conversion.source_id)
             WHERE valid_to IS NULL AND source_id IN (SELECT id FROM source WHERE valid_to IS NOT NULL)`);
  },
};
