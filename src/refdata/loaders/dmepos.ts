// DMEPOS and PEN fee schedules (CMS, quarterly XLSX `DMEPOS26_JAN.xlsx`, `DMEPEN26_JAN.xlsx`). Per HCPCS and
// modifier pair: the jurisdiction (JURIS: D = DME MAC, L = local A/B MAC, J = joint), the payment category (CATG),
// ceiling and floor into `dmepos_fee`; the per-state non-rural/rural amounts (`XX (NR)`, `XX (R)`) into the narrow
// `dmepos_fee_state`. The quarter comes from the file name and must match the title row ("January 2026 Fee Schedule").
import type Database from 'better-sqlite3';
import { ReferenceDataError } from '../../errors.js';
import { listSheets, readXlsxRows } from '../../readers/xlsx.js';
import { dayBefore, quarterStart } from '../builder/dates.js';
import type { LoadContext, Loader } from '../builder/types.js';

const FILE = /^DME(POS|PEN)(\d{2})_(JAN|APR|JUL|OCT)\.xlsx$/i;
const QUARTER: Record<string, number> = { JAN: 1, APR: 2, JUL: 3, OCT: 4 };
const MONTH_NAME: Record<number, string> = { 1: 'January', 2: 'April', 3: 'July', 4: 'October' };
/** A state amount column: `AL (NR)` in DMEPOS, `AL(NR)` in PEN. */
const STATE_COLUMN = /^([A-Z]{2}) ?\((NR|R)\)$/;

const head = (s: string | null | undefined): string =>
  (s ?? '')
    .replace(/[\s\u00a0]+/g, ' ')
    .trim()
    .toUpperCase();
const cellOf = (cells: readonly (string | null)[], i: number | undefined): string =>
  i === undefined ? '' : (cells[i] ?? '').replace(/\u00a0/g, ' ').trim();

/**
 * Reads a fee amount (`0.57999999999999996`, `25.87`); blank is null.
 * @throws RangeError for anything that is not a number
 */
function amount(raw: string): number | null {
  if (raw === '') {
    return null;
  }
  if (!/^-?\d+(\.\d+)?(E-?\d+)?$/i.test(raw)) {
    throw new RangeError(`${JSON.stringify(raw)} is not an amount`);
  }
  // Excel writes doubles with 17 digits: `0.57999999999999996` reads back as the double 0.58.
  return Number(raw);
}

async function loadSchedule(ctx: LoadContext): Promise<void> {
  const pos = { file: ctx.file.relPath, member: ctx.unit.member };
  const schedule = ctx.unit.dataset === 'dmepen-fee' ? 'PEN' : 'DMEPOS';
  const sheets = await listSheets(ctx.file.path);
  const sheet = sheets.find((s) => /^DME(POS|PEN)\d{2}_/i.test(s.name)) ?? sheets[0];
  if (!sheet) {
    throw new ReferenceDataError(pos, 'workbook has no sheet');
  }
  const insertFee = ctx.db.prepare(
    `INSERT INTO dmepos_fee (schedule, hcpcs, mod, mod2, jurisdiction, category, ceiling, floor, description, valid_from, valid_to, line, source_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?)`,
  );
  const insertState = ctx.db.prepare(
    `INSERT INTO dmepos_fee_state (hcpcs, mod, mod2, state, nr, r, valid_from, valid_to, source_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, NULL, ?)`,
  );
  const quarter = Number(ctx.unit.release.slice(5));
  const title = `${MONTH_NAME[quarter] ?? ''} ${ctx.unit.release.slice(0, 4)} FEE SCHEDULE`.toUpperCase();
  let titled = false;
  let col: Map<string, number> | undefined;
  let states: { state: string; nr: number; r: number }[] = [];
  for await (const row of readXlsxRows(ctx.file.path, sheet.name)) {
    const at = { ...pos, line: row.rowNumber };
    if (!col) {
      if (row.cells.some((c) => head(c) === title)) {
        titled = true;
      }
      if (head(row.cells[0]) !== 'HCPCS') {
        continue;
      }
      if (!titled) {
        throw new ReferenceDataError(
          at,
          `no title row "${title}" above the header (the file name says ${ctx.unit.release})`,
        );
      }
      col = new Map(row.cells.map((c, i) => [head(c), i]));
      const byState = new Map<string, { nr?: number; r?: number }>();
      row.cells.forEach((c, i) => {
        const m = STATE_COLUMN.exec(head(c));
        if (m?.[1]) {
          byState.set(m[1], { ...byState.get(m[1]), [m[2] === 'NR' ? 'nr' : 'r']: i });
        }
      });
      states = [...byState].flatMap(([state, c]) =>
        c.nr !== undefined && c.r !== undefined ? [{ state, nr: c.nr, r: c.r }] : [],
      );
      const required = schedule === 'DMEPOS' ? ['MOD', 'MOD2', 'JURIS', 'CATG', 'CEILING', 'FLOOR'] : ['MOD', 'MOD2'];
      const missing = required.filter((h) => !col?.has(h));
      if (missing.length > 0 || states.length === 0) {
        throw new ReferenceDataError(
          at,
          `header lacks ${[...missing, ...(states.length === 0 ? ['the XX (NR)/XX (R) state columns'] : [])].join(', ')}`,
        );
      }
      continue;
    }
    const get = (name: string): string => cellOf(row.cells, col?.get(name));
    const hcpcs = get('HCPCS').toUpperCase();
    if (hcpcs === '') {
      if (row.cells.every((c) => (c ?? '').trim() === '')) {
        continue;
      }
      throw new ReferenceDataError(at, 'row without a HCPCS code');
    }
    const mod = get('MOD').toUpperCase();
    const mod2 = get('MOD2').toUpperCase();
    const juris = get('JURIS').toUpperCase() || null;
    if (
      !/^[A-Z]\d{4}$/.test(hcpcs) ||
      !/^([A-Z0-9]{2})?$/.test(mod) ||
      !/^([A-Z0-9]{2})?$/.test(mod2) ||
      (schedule === 'DMEPOS' && !/^[DJL]$/.test(juris ?? ''))
    ) {
      throw new ReferenceDataError(
        at,
        `expected HCPCS, modifiers and JURIS D, L or J; got ${JSON.stringify([hcpcs, mod, mod2, juris])}`,
      );
    }
    try {
      insertFee.run(
        schedule,
        hcpcs,
        mod,
        mod2,
        juris,
        get('CATG') || null,
        amount(get('CEILING')),
        amount(get('FLOOR')),
        get('DESCRIPTION') || get('DESC') || null,
        ctx.unit.validFrom,
        row.rowNumber,
        ctx.sourceId,
      );
      for (const s of states) {
        insertState.run(
          hcpcs,
          mod,
          mod2,
          s.state,
          amount(cellOf(row.cells, s.nr)),
          amount(cellOf(row.cells, s.r)),
          ctx.unit.validFrom,
          ctx.sourceId,
        );
      }
    } catch (err) {
      throw new ReferenceDataError(
        at,
        `${hcpcs}${mod ? `-${mod}` : ''}${mod2 ? `-${mod2}` : ''}: ${(err as Error).message}`,
        { cause: err },
      );
    }
    ctx.progress.add(1);
  }
  if (!col) {
    throw new ReferenceDataError(pos, `sheet ${JSON.stringify(sheet.name)} has no header row starting "HCPCS"`);
  }
}

/** Ends each release of a schedule the day before the next release of the same schedule starts. */
function closeReleases(db: Database.Database): void {
  const starts = db
    .prepare('SELECT DISTINCT schedule, valid_from AS v FROM dmepos_fee ORDER BY schedule, valid_from')
    .all() as { schedule: string; v: string }[];
  const fee = db.prepare('UPDATE dmepos_fee SET valid_to = ? WHERE schedule = ? AND valid_from = ?');
  const state = db.prepare(
    `UPDATE dmepos_fee_state SET valid_to = ? WHERE valid_from = ?
       AND source_id IN (SELECT source_id FROM dmepos_fee WHERE schedule = ? AND valid_from = ?)`,
  );
  for (const { schedule, v } of starts) {
    const next = starts.find((s) => s.schedule === schedule && s.v > v);
    if (next) {
      fee.run(dayBefore(next.v), schedule, v);
      state.run(dayBefore(next.v), v, schedule, v);
    }
  }
}

/** DMEPOS (`dmepos-fee`) and PEN (`dmepen-fee`) fee schedules. */
export const dmeposLoader: Loader = {
  name: 'dmepos',
  version: 1,
  ddl: `
CREATE TABLE dmepos_fee (
  schedule TEXT NOT NULL CHECK (schedule IN ('DMEPOS', 'PEN')),
  hcpcs TEXT NOT NULL,
  mod TEXT NOT NULL,
  mod2 TEXT NOT NULL,
  jurisdiction TEXT,
  category TEXT,
  ceiling REAL,
  floor REAL,
  description TEXT,
  valid_from TEXT NOT NULL,
  valid_to TEXT,
  line INTEGER NOT NULL,
  source_id INTEGER NOT NULL REFERENCES source(id),
  PRIMARY KEY (hcpcs, mod, mod2, source_id)
) WITHOUT ROWID;
CREATE INDEX dmepos_fee_by_date ON dmepos_fee (hcpcs, valid_from);
CREATE TABLE dmepos_fee_state (
  hcpcs TEXT NOT NULL,
  mod TEXT NOT NULL,
  mod2 TEXT NOT NULL,
  state TEXT NOT NULL,
  nr REAL,
  r REAL,
  valid_from TEXT NOT NULL,
  valid_to TEXT,
  source_id INTEGER NOT NULL REFERENCES source(id),
  PRIMARY KEY (hcpcs, mod, mod2, state, source_id)
) WITHOUT ROWID;
`,
  async recognise(file) {
    const m = FILE.exec(file.name);
    if (!m) {
      return [];
    }
    let sheets: string[];
    try {
      sheets = (await listSheets(file.path)).map((s) => s.name);
    } catch {
      return [];
    }
    // Content check: the workbook's sheet is named like the file (`DMEPOS26_Jan`).
    if (
      !sheets.some(
        (s) => s.toUpperCase() === `DME${(m[1] ?? '').toUpperCase()}${m[2] ?? ''}_${(m[3] ?? '').toUpperCase()}`,
      )
    ) {
      return [];
    }
    const year = 2000 + Number(m[2]);
    const q = QUARTER[(m[3] ?? '').toUpperCase()] ?? 1;
    return [
      {
        dataset: m[1]?.toUpperCase() === 'PEN' ? 'dmepen-fee' : 'dmepos-fee',
        release: `${year}Q${q}`,
        validFrom: quarterStart(year, q),
      },
    ];
  },
  load: loadSchedule,
  finalize: closeReleases,
};
