// CMS "ZIP Code to Carrier Locality" file, ZIP5 workbook (`ZIP5_<MON><YYYY>.xlsx`; domain.md section 12): one row
// per 5-digit ZIP with its state, Part B carrier (MAC contractor number), pricing locality, rural indicators, lab
// competitive-bidding locality, the plus-4 flag (1 = the ZIP is split and needs the ZIP9 file) and the Part B drug
// indicator. Every cell is text, so leading zeros stay. The release comes from the `YEAR/QTR` column (`20261` =
// 2026Q1); rows carry the release's interval, closed by finalize when a later release is loaded.
import type Database from 'better-sqlite3';
import { ReferenceDataError } from '../../errors.js';
import { readXlsxRows } from '../../readers/xlsx.js';
import { quarterStart } from '../builder/dates.js';
import type { Loader } from '../builder/types.js';

/** The header row, exactly. */
export const ZIP5_HEADER = [
  'STATE',
  'ZIP CODE',
  'CARRIER',
  'LOCALITY',
  'RURAL IND',
  'LAB CB LOCALITY',
  'RURAL IND2',
  'PLUS 4 FLAG',
  'PART B DRUG INDICATOR',
  'YEAR/QTR',
] as const;

const FILE = /^ZIP5_.*\.xlsx$/i;

/**
 * The ZIP5 file writes two split states by region: `EK`/`WK` (eastern/western Kansas, ZIPs 66xxx-67xxx, carrier
 * 05202) and `EM`/`WM` (eastern/western Missouri, ZIPs 63xxx-65xxx, carrier 05302). Lookups by USPS state need
 * the plain code, so both are stored.
 */
export const REGIONAL_STATE_CODES: Readonly<Record<string, string>> = { EK: 'KS', WK: 'KS', EM: 'MO', WM: 'MO' };

/** The USPS state of a ZIP5 `STATE` value (`EK` → `KS`; other codes unchanged). */
export function uspsState(state: string): string {
  return REGIONAL_STATE_CODES[state] ?? state;
}
const YEAR_QTR = /^(\d{4})([1-4])$/;

/** One parsed ZIP5 row. */
export interface Zip5Record {
  readonly state: string;
  readonly zip5: string;
  readonly carrier: string;
  readonly locality: string;
  readonly ruralInd: string | null;
  readonly labCbLocality: string | null;
  readonly ruralInd2: string | null;
  readonly plus4Flag: 0 | 1;
  readonly partBDrugIndicator: string | null;
  readonly yearQtr: string;
}

const isHeader = (cells: readonly (string | null)[]): boolean =>
  ZIP5_HEADER.every((h, i) => (cells[i] ?? '').trim().toUpperCase() === h);

/**
 * Validates one ZIP row.
 * @returns the row, or a message saying what is wrong
 */
export function parseZip5Record(cells: readonly (string | null)[]): Zip5Record | string {
  if (cells.slice(ZIP5_HEADER.length).some((c) => (c ?? '').trim() !== '')) {
    return `expected ${ZIP5_HEADER.length} columns, found a value beyond column J`;
  }
  const [state = '', zip5 = '', carrier = '', locality = '', rural = '', labCb = '', rural2 = '', plus4 = '', drug = '', yearQtr = ''] =
    ZIP5_HEADER.map((_, i) => (cells[i] ?? '').trim());
  if (!/^\d{5}$/.test(zip5)) {
    return `ZIP CODE ${JSON.stringify(zip5)} is not 5 digits`;
  }
  if (!/^[A-Z]{2}$/.test(state)) {
    return `ZIP ${zip5}: STATE ${JSON.stringify(state)} is not a 2-letter code`;
  }
  if (!/^\d{5}$/.test(carrier)) {
    return `ZIP ${zip5}: CARRIER ${JSON.stringify(carrier)} is not a 5-digit contractor number`;
  }
  if (!/^[0-9A-Z]{2}$/.test(locality)) {
    return `ZIP ${zip5}: LOCALITY ${JSON.stringify(locality)} is not a 2-character locality`;
  }
  if (plus4 !== '0' && plus4 !== '1') {
    return `ZIP ${zip5}: PLUS 4 FLAG ${JSON.stringify(plus4)} is not 0 or 1`;
  }
  if (!YEAR_QTR.test(yearQtr)) {
    return `ZIP ${zip5}: YEAR/QTR ${JSON.stringify(yearQtr)} is not YYYYQ`;
  }
  return {
    state,
    zip5,
    carrier,
    locality,
    ruralInd: rural || null,
    labCbLocality: labCb || null,
    ruralInd2: rural2 || null,
    plus4Flag: plus4 === '1' ? 1 : 0,
    partBDrugIndicator: drug || null,
    yearQtr,
  };
}

function closeReleases(db: Database.Database): void {
  db.exec(`UPDATE zip5_locality SET valid_to = (SELECT s.valid_to FROM source s WHERE s.id = zip5_locality.source_id)
           WHERE valid_to IS NULL AND (SELECT s.valid_to FROM source s WHERE s.id = zip5_locality.source_id) IS NOT NULL`);
}

export const zipLocalityLoader: Loader = {
  name: 'zip-locality',
  version: 1,
  ddl: `
CREATE TABLE zip5_locality (
  zip5 TEXT NOT NULL,
  valid_from TEXT NOT NULL,
  valid_to TEXT,
  state TEXT NOT NULL,
  usps_state TEXT NOT NULL,
  carrier TEXT NOT NULL,
  locality TEXT NOT NULL,
  rural_ind TEXT,
  lab_cb_locality TEXT,
  rural_ind2 TEXT,
  plus4_flag INTEGER NOT NULL,
  part_b_drug_indicator TEXT,
  source_id INTEGER NOT NULL REFERENCES source(id),
  PRIMARY KEY (zip5, valid_from)
) WITHOUT ROWID;
`,
  async recognise(file) {
    if (!FILE.test(file.name)) {
      return [];
    }
    // The header row first, then the release from the first ZIP row's YEAR/QTR.
    let headerSeen = false;
    for await (const row of readXlsxRows(file.path)) {
      if (!headerSeen) {
        headerSeen = isHeader(row.cells);
        if (!headerSeen) {
          return [];
        }
        continue;
      }
      const m = YEAR_QTR.exec((row.cells[9] ?? '').trim());
      if (!m) {
        return [];
      }
      const year = Number(m[1]);
      const quarter = Number(m[2]);
      return [{ dataset: 'zip5-locality', release: `${year}Q${quarter}`, validFrom: quarterStart(year, quarter) }];
    }
    return [];
  },
  async load(ctx) {
    const pos = { file: ctx.file.relPath, member: ctx.unit.member };
    const insert = ctx.db.prepare(
      `INSERT INTO zip5_locality (zip5, valid_from, valid_to, state, usps_state, carrier, locality, rural_ind, lab_cb_locality,
         rural_ind2, plus4_flag, part_b_drug_indicator, source_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const yearQtr = ctx.unit.release.replace('Q', '');
    let batch = 0;
    for await (const row of readXlsxRows(ctx.file.path)) {
      if (row.rowNumber === 1) {
        if (!isHeader(row.cells)) {
          throw new ReferenceDataError({ ...pos, line: 1 }, `expected the header row ${ZIP5_HEADER.join(', ')}`);
        }
        continue;
      }
      if (row.cells.every((c) => (c ?? '').trim() === '')) {
        continue;
      }
      const rec = parseZip5Record(row.cells);
      if (typeof rec === 'string') {
        throw new ReferenceDataError({ ...pos, line: row.rowNumber }, rec);
      }
      if (rec.yearQtr !== yearQtr) {
        throw new ReferenceDataError({ ...pos, line: row.rowNumber }, `ZIP ${rec.zip5}: YEAR/QTR ${rec.yearQtr} differs from the file's ${yearQtr}`);
      }
      try {
        insert.run(
          rec.zip5,
          ctx.unit.validFrom,
          ctx.unit.validTo ?? null,
          rec.state,
          uspsState(rec.state),
          rec.carrier,
          rec.locality,
          rec.ruralInd,
          rec.labCbLocality,
          rec.ruralInd2,
          rec.plus4Flag,
          rec.partBDrugIndicator,
          ctx.sourceId,
        );
      } catch (err) {
        throw new ReferenceDataError({ ...pos, line: row.rowNumber }, `ZIP ${rec.zip5}: ${(err as Error).message}`, { cause: err });
      }
      if (++batch === 1000) {
        ctx.progress.add(batch);
        batch = 0;
      }
    }
    ctx.progress.add(batch);
  },
  finalize: closeReleases,
};
