// Clinical diagnostic laboratory NCD code lists (domain.md section 11): the CMS quarterly spreadsheet
// `<YYYY><Q>00-…-ICD10-NCD-Spreadsheet-….xlsx` (`2026100` = January 2026). One sheet: legend rows, a two-row header
// (`NCD / Number`, `NCD / DESCRIPTION`, `CPT/HCPCS / CODES`, … `RESOLUTION / CODE`), then per NCD a block of rows.
// Two independent lists share the rows of a block: the NCD's HCPCS codes (columns C–E, filled only on the block's
// first rows) and its ICD-10 codes with a resolution (columns F–I, one per row). The NCD number and description are
// filled only where a block starts and are carried forward. Dates are Excel serials (or text dates); a termination
// date is the last day in force (they fall on Sep 30, the day before a fiscal year); a HCPCS code without an
// effective date is in force from the release's start. Each block ends with the ICD-10
// code `@@@@@@@`: every code the block does not list gets that row's resolution (every ICD-10 code falls in one
// of the three lists), e.g. 190.15 lists the denied codes and `@@@@@@@` is covered.
import type Database from 'better-sqlite3';
import { ReferenceDataError } from '../../errors.js';
import { excelSerialToIso, readXlsxRows } from '../../readers/xlsx.js';
import { quarterStart } from '../builder/dates.js';
import type { Loader } from '../builder/types.js';

// The Section 508 twin (`…-508.xlsx`) marks changed rows with a leading `*` instead of red font: same content, not
// loaded (it would load every row twice).
const FILE = /^(\d{4})([1-4])\d{2}-.*NCD.*(?<!-508)\.xlsx$/i;
const NCD = /^\d{1,3}(?:\.\d{1,3})?[A-Z]?$/;
const HCPCS = /^[A-Z0-9]{5}$/;
const ICD10 = /^(?:[A-Z][0-9][0-9A-Z]{1,5}|@{7})$/;

/** Number of columns A–I. */
const COLUMNS = 9;

/**
 * Reads a date cell: an Excel serial day number, or text `MM/DD/YYYY` or `YYYY-MM-DD`; blank gives `null`.
 * @returns the ISO date, `null`, or `undefined` when the cell is not a date
 */
export function ncdDate(cell: string | null): string | null | undefined {
  const s = (cell ?? '').trim();
  if (s === '') {
    return null;
  }
  let iso: string | undefined;
  if (/^\d{4,5}(?:\.0+)?$/.test(s)) {
    iso = excelSerialToIso(Number(s));
  } else {
    const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(s);
    iso = us ? `${us[3] ?? ''}-${(us[1] ?? '').padStart(2, '0')}-${(us[2] ?? '').padStart(2, '0')}` : /^\d{4}-\d{2}-\d{2}$/.test(s) ? s : undefined;
  }
  const d = iso === undefined ? undefined : new Date(`${iso}T00:00:00Z`);
  return d && !Number.isNaN(d.getTime()) && iso !== undefined && d.toISOString().startsWith(iso) && iso >= '1990-01-01' ? iso : undefined;
}

/** Whether two sheet rows form the spreadsheet's header (`NCD` over `Number`, … `RESOLUTION` over `CODE`). */
export function isNcdHeader(top: readonly (string | null)[], bottom: readonly (string | null)[]): boolean {
  const label = (i: number): string => `${top[i] ?? ''} ${bottom[i] ?? ''}`.replace(/\s+/g, ' ').trim().toUpperCase();
  return (
    label(0) === 'NCD NUMBER' &&
    label(1) === 'NCD DESCRIPTION' &&
    label(2) === 'CPT/HCPCS CODES' &&
    label(5) === 'ICD-10 CODE' &&
    label(8).startsWith('RESOLUTION CODE')
  );
}

interface Block {
  ncd: string;
  description: string | null;
}

function closeReleases(db: Database.Database): void {
  db.exec(`UPDATE ncd_lab SET valid_to = (SELECT s.valid_to FROM source s WHERE s.id = ncd_lab.source_id)
           WHERE valid_to IS NULL AND (SELECT s.valid_to FROM source s WHERE s.id = ncd_lab.source_id) IS NOT NULL`);
}

export const ncdLabLoader: Loader = {
  name: 'ncd-lab',
  version: 1,
  ddl: `
CREATE TABLE ncd_lab (
  ncd TEXT NOT NULL,
  description TEXT NOT NULL,
  valid_from TEXT NOT NULL,
  valid_to TEXT,
  row_no INTEGER NOT NULL,
  source_id INTEGER NOT NULL REFERENCES source(id),
  PRIMARY KEY (ncd, valid_from)
) WITHOUT ROWID;
CREATE TABLE ncd_lab_hcpcs (
  ncd TEXT NOT NULL,
  hcpcs TEXT NOT NULL,
  valid_from TEXT NOT NULL,
  valid_to TEXT,
  row_no INTEGER NOT NULL,
  source_id INTEGER NOT NULL REFERENCES source(id)
);
CREATE INDEX ncd_lab_hcpcs_by_code ON ncd_lab_hcpcs (hcpcs, ncd);
CREATE TABLE ncd_lab_icd10 (
  ncd TEXT NOT NULL,
  icd10 TEXT NOT NULL,
  valid_from TEXT NOT NULL,
  valid_to TEXT,
  resolution INTEGER NOT NULL,
  row_no INTEGER NOT NULL,
  source_id INTEGER NOT NULL REFERENCES source(id)
);
CREATE INDEX ncd_lab_icd10_by_code ON ncd_lab_icd10 (ncd, icd10, valid_from);
`,
  async recognise(file) {
    const m = FILE.exec(file.name);
    if (!m) {
      return [];
    }
    let previous: readonly (string | null)[] = [];
    for await (const row of readXlsxRows(file.path)) {
      if (isNcdHeader(previous, row.cells)) {
        const year = Number(m[1]);
        const quarter = Number(m[2]);
        return [{ dataset: 'ncd-lab', release: `${year}Q${quarter}`, validFrom: quarterStart(year, quarter) }];
      }
      if (row.rowNumber >= 15) {
        break;
      }
      previous = row.cells;
    }
    return [];
  },
  async load(ctx) {
    const pos = { file: ctx.file.relPath, member: ctx.unit.member };
    const fail = (line: number, message: string): never => {
      throw new ReferenceDataError({ ...pos, line }, message);
    };
    const insertNcd = ctx.db.prepare(
      'INSERT INTO ncd_lab (ncd, description, valid_from, valid_to, row_no, source_id) VALUES (?, ?, ?, ?, ?, ?)',
    );
    const insertHcpcs = ctx.db.prepare(
      'INSERT INTO ncd_lab_hcpcs (ncd, hcpcs, valid_from, valid_to, row_no, source_id) VALUES (?, ?, ?, ?, ?, ?)',
    );
    const insertIcd = ctx.db.prepare(
      'INSERT INTO ncd_lab_icd10 (ncd, icd10, valid_from, valid_to, resolution, row_no, source_id) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    const date = (cell: string | null, what: string, line: number): string | null => {
      const d = ncdDate(cell);
      return d === undefined ? fail(line, `${what} ${JSON.stringify(cell)} is not a date`) : d;
    };
    let previous: readonly (string | null)[] = [];
    let headerSeen = false;
    let block: Block | undefined;
    const seen = new Set<string>();
    let batch = 0;
    for await (const row of readXlsxRows(ctx.file.path)) {
      const line = row.rowNumber;
      if (!headerSeen) {
        headerSeen = isNcdHeader(previous, row.cells);
        previous = row.cells;
        if (!headerSeen && line >= 15) {
          fail(line, 'expected the two-row header NCD Number, NCD Description, CPT/HCPCS Codes, … Resolution Code');
        }
        continue;
      }
      const cells = Array.from({ length: COLUMNS }, (_, i) => (row.cells[i] ?? '').trim());
      if (cells.every((c) => c === '')) {
        continue;
      }
      if (row.cells.slice(COLUMNS).some((c) => (c ?? '').trim() !== '')) {
        fail(line, `expected ${COLUMNS} columns (A–I), found a value beyond column I`);
      }
      const [ncdText = '', description = '', hcpcsText = '', hcpcsEff = '', hcpcsTerm = '', icdText = '', icdEff = '', icdTerm = '', resolution = ''] = cells;
      // A block starts where the NCD number (or, within a number, the description) is filled.
      if (ncdText !== '' && ncdText !== block?.ncd) {
        if (!NCD.test(ncdText)) {
          fail(line, `NCD number ${JSON.stringify(ncdText)} is not an NCD number such as 190.12 or 190.20A`);
        }
        if (seen.has(ncdText)) {
          fail(line, `NCD ${ncdText} starts a second block`);
        }
        seen.add(ncdText);
        block = { ncd: ncdText, description: null };
      }
      if (!block) {
        return fail(line, 'a data row before any NCD number');
      }
      if (description !== '' && block.description === null) {
        block.description = description;
        insertNcd.run(block.ncd, description, ctx.unit.validFrom, ctx.unit.validTo ?? null, line, ctx.sourceId);
      } else if (block.description === null) {
        fail(line, `NCD ${block.ncd} has no description on its first row`);
      } else if (description !== '' && description !== block.description) {
        fail(line, `NCD ${block.ncd}: a second description ${JSON.stringify(description)}`);
      }
      // One cell may hold several HCPCS codes (separated by commas, spaces or line breaks).
      if (hcpcsText !== '') {
        const from = date(hcpcsEff, 'CPT/HCPCS Eff Date', line) ?? ctx.unit.validFrom;
        const to = date(hcpcsTerm, 'CPT/HCPCS Term Date', line);
        for (const code of hcpcsText.toUpperCase().split(/[\s,;]+/).filter(Boolean)) {
          if (!HCPCS.test(code)) {
            fail(line, `NCD ${block.ncd}: CPT/HCPCS code ${JSON.stringify(code)} is not a 5-character code`);
          }
          insertHcpcs.run(block.ncd, code, from, to, line, ctx.sourceId);
        }
      } else if (hcpcsEff !== '' || hcpcsTerm !== '') {
        fail(line, `NCD ${block.ncd}: CPT/HCPCS dates without a code`);
      }
      if (icdText === '') {
        if (icdEff !== '' || icdTerm !== '' || resolution !== '') {
          fail(line, `NCD ${block.ncd}: ICD-10 dates or resolution without a code`);
        }
        continue;
      }
      const icd10 = icdText.replace(/\./g, '').toUpperCase();
      if (!ICD10.test(icd10)) {
        fail(line, `NCD ${block.ncd}: ICD-10 code ${JSON.stringify(icdText)} is not an ICD-10-CM code`);
      }
      if (resolution !== '1' && resolution !== '2' && resolution !== '3') {
        fail(line, `NCD ${block.ncd}, ${icd10}: resolution code ${JSON.stringify(resolution)} is not 1, 2 or 3`);
      }
      const from = date(icdEff, 'ICD-10 Eff Date', line) ?? fail(line, `NCD ${block.ncd}, ${icd10}: no ICD-10 Eff Date`);
      insertIcd.run(block.ncd, icd10, from, date(icdTerm, 'ICD-10 Term Date', line), Number(resolution), line, ctx.sourceId);
      if (++batch === 1000) {
        ctx.progress.add(batch);
        batch = 0;
      }
    }
    ctx.progress.add(batch);
    if (!headerSeen) {
      throw new ReferenceDataError(pos, 'no header row found');
    }
  },
  finalize: closeReleases,
};
