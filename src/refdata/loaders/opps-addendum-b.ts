// OPPS Addendum B (CMS, quarterly): per HCPCS/CPT code the status indicator, APC, relative weight, payment rate and
// copayments. Official workbooks are dated by their sheet name ("2025 January Addendum B") and checked against their
// title row ("... for CY 2025"), since files get renamed. A DERIVED CSV (softek/CMS.HCPCS `sample.csv`, April 2026:
// code, short descriptor, SI, payment rate; no APC) loads into the same table with `derived = 1`. Each row is valid
// for its release's own quarter (domain.md section 8: no version for the date → no data); `finalize` sets it.
import { parse, type CsvError, type Info } from 'csv-parse';
import type Database from 'better-sqlite3';
import { ReferenceDataError } from '../../errors.js';
import { listSheets, readXlsxRows } from '../../readers/xlsx.js';
import { quarterStart } from '../builder/dates.js';
import type { LoadContext, Loader, SourceUnit } from '../builder/types.js';

const QUARTER_MONTH: Record<string, number> = { january: 1, april: 4, july: 7, october: 10 };
const QUARTER_MONTHS =
  /(?<![A-Za-z0-9])(?:(\d{4})[ _-]*(January|April|July|October)|(January|April|July|October)[ _-]*(\d{4}))(?![A-Za-z0-9])/i;

/** Header of the derived CSV, exactly. */
export const DERIVED_HEADER = 'HCPCSCode,ShortDescriptor,StatusIndicator,PaymentRate,Changed?,Source';

/** The release of a quarter named by year and month: (2025, 'January') is `2025Q1` from 2025-01-01. */
function quarterOf(year: number, month: number): { release: string; validFrom: string } {
  const q = Math.floor((month - 1) / 3) + 1;
  return { release: `${year}Q${q}`, validFrom: quarterStart(year, q) };
}

/** Reads `2025 January` (either order) from a sheet or file name. */
export function quarterFromName(name: string): { release: string; validFrom: string } | undefined {
  const m = QUARTER_MONTHS.exec(name);
  if (!m) {
    return undefined;
  }
  const year = Number(m[1] ?? m[4]);
  const month = QUARTER_MONTH[(m[2] ?? m[3] ?? '').toLowerCase()] ?? 1;
  return quarterOf(year, month);
}

/** Normalised header text: `' SI'`, `'APC '` and `'Relative Weight '` become `si`, `apc`, `relative weight`. */
const key = (s: string | null | undefined): string =>
  (s ?? '')
    .replace(/[\s\u00a0]+/g, ' ')
    .trim()
    .toLowerCase();

/** Columns by normalised header; the first eight are required in every official year. */
const COLUMNS = {
  hcpcs: 'hcpcs code',
  shortDesc: 'short descriptor',
  si: 'si',
  apc: 'apc',
  relativeWeight: 'relative weight',
  paymentRate: 'payment rate',
  nationalCopay: 'national unadjusted copayment',
  minimumCopay: 'minimum unadjusted copayment',
  adjustedCopay: 'adjusted beneficiary copayment',
  iraCoinsurance: 'ira coinsurance percentage',
  passThrough: 'drug and device pass-through expiration during calendar year',
  note: 'note',
  changed: '* indicates a change',
} as const;
const REQUIRED = [
  'hcpcs',
  'shortDesc',
  'si',
  'apc',
  'relativeWeight',
  'paymentRate',
  'nationalCopay',
  'minimumCopay',
] as const;
/** CY2023 flags copayments capped at the inpatient deductible in a column whose header is this note. */
const CAPPED_HEADER = /^note: actual copayments would be lower due to the cap/;

/** Cleans a code cell: CMS cells carry trailing spaces and no-break spaces (`J1429   `, `G0465\u00a0`). */
const cleanCode = (s: string | null | undefined): string => (s ?? '').replace(/[\s\u00a0]+/g, '').toUpperCase();

/**
 * Reads an amount as CMS prints it: `$1,428.75`, `41.52`, `19.648%`, `34.780200000000001`.
 * @returns the number, or null for an empty cell or the `.` CMS prints where no amount applies
 * @throws RangeError for anything else
 */
export function parseAmount(raw: string | null | undefined): number | null {
  const s = (raw ?? '').replace(/[\s\u00a0$,%]/g, '');
  if (s === '' || s === '.') {
    return null;
  }
  if (!/^-?(\d+\.?\d*|\.\d+)(E-?\d+)?$/i.test(s)) {
    throw new RangeError(`${JSON.stringify(raw)} is not an amount`);
  }
  return Number(s);
}

const CODE = /^[A-Z0-9]{4}[A-Z0-9]$/;
const SI = /^[A-Z][A-Z0-9]?$/;

interface OppsRow {
  hcpcs: string;
  short: string | null;
  si: string;
  apc: string | null;
  weight: number | null;
  rate: number | null;
  national: number | null;
  minimum: number | null;
  adjusted: number | null;
  ira: number | null;
  capped: number;
  passThrough: number;
  note: string | null;
  changed: number;
}

function inserter(ctx: LoadContext, derived: 0 | 1): (row: OppsRow, line: number) => void {
  const insert = ctx.db.prepare(
    `INSERT INTO opps_addendum_b (hcpcs, short_desc, status_indicator, apc, relative_weight, payment_rate, national_copay, minimum_copay,
       adjusted_copay, ira_coinsurance_pct, copay_capped, pass_through_expiring, note, changed, derived, valid_from, valid_to, line, source_id)
     VALUES (@hcpcs, @short, @si, @apc, @weight, @rate, @national, @minimum, @adjusted, @ira, @capped, @passThrough, @note, @changed,
       @derived, @validFrom, NULL, @line, @source)`,
  );
  return (row, line) => {
    try {
      insert.run({ ...row, derived, validFrom: ctx.unit.validFrom, line, source: ctx.sourceId });
    } catch (err) {
      throw new ReferenceDataError(
        { file: ctx.file.relPath, member: ctx.unit.member, line },
        `code ${row.hcpcs}: ${(err as Error).message}`,
        { cause: err },
      );
    }
    ctx.progress.add(1);
  };
}

async function loadWorkbook(ctx: LoadContext): Promise<void> {
  const pos = { file: ctx.file.relPath, member: ctx.unit.member };
  const sheet = (await listSheets(ctx.file.path)).find((s) => /addendum b/i.test(s.name));
  if (!sheet) {
    throw new ReferenceDataError(pos, 'no "Addendum B" sheet');
  }
  const insert = inserter(ctx, 0);
  const year = ctx.unit.release.slice(0, 4);
  let titled = false;
  let col: Map<string, number> | undefined;
  let cappedCol: number | undefined;
  for await (const row of readXlsxRows(ctx.file.path, sheet.name)) {
    const at = { ...pos, line: row.rowNumber };
    if (!col) {
      // Title rows, then the header row that starts with "HCPCS Code".
      const title = /addendum b\.?-*\s*opps payment by hcpcs code for cy (\d{4})/i.exec(
        row.cells.map((c) => c ?? '').join(' '),
      );
      if (title) {
        if (title[1] !== year) {
          throw new ReferenceDataError(
            at,
            `title says CY ${title[1] ?? ''} but the sheet ${JSON.stringify(sheet.name)} is ${ctx.unit.release}`,
          );
        }
        titled = true;
      }
      if (key(row.cells[0]) === COLUMNS.hcpcs) {
        if (!titled) {
          throw new ReferenceDataError(
            at,
            'header row before the title "Addendum B ... OPPS Payment by HCPCS Code for CY <year>"',
          );
        }
        col = new Map(row.cells.map((c, i) => [key(c), i]));
        const missing = REQUIRED.filter((k) => !col?.has(COLUMNS[k]));
        if (missing.length > 0) {
          throw new ReferenceDataError(at, `header lacks ${missing.map((k) => JSON.stringify(COLUMNS[k])).join(', ')}`);
        }
        cappedCol = row.cells.findIndex((c) => CAPPED_HEADER.test(key(c)));
      }
      continue;
    }
    const cell = (k: keyof typeof COLUMNS): string | null => {
      const i = col?.get(COLUMNS[k]);
      const v = i === undefined ? null : (row.cells[i] ?? null);
      return v === null || v.trim() === '' ? null : v.trim();
    };
    const hcpcs = cleanCode(cell('hcpcs'));
    if (hcpcs === '' && row.cells.every((c) => (c ?? '').trim() === '')) {
      continue;
    }
    const si = (cell('si') ?? '').toUpperCase();
    if (!CODE.test(hcpcs) || !SI.test(si)) {
      throw new ReferenceDataError(
        at,
        `expected a HCPCS/CPT code and a status indicator, got ${JSON.stringify(cell('hcpcs'))} / ${JSON.stringify(cell('si'))}`,
      );
    }
    const note = cell('note');
    try {
      insert(
        {
          hcpcs,
          short: cell('shortDesc'),
          si,
          apc: cell('apc'),
          weight: parseAmount(cell('relativeWeight')),
          rate: parseAmount(cell('paymentRate')),
          national: parseAmount(cell('nationalCopay')),
          minimum: parseAmount(cell('minimumCopay')),
          adjusted: parseAmount(cell('adjustedCopay')),
          ira: parseAmount(cell('iraCoinsurance')),
          // CY2023 flags the cap with `*` in a column of its own; CY2025 says it in the Note column.
          capped:
            (cappedCol !== undefined && cappedCol >= 0 && (row.cells[cappedCol] ?? '').trim() === '*') ||
            /copayments capped/i.test(note ?? '')
              ? 1
              : 0,
          passThrough: cell('passThrough') === '*' ? 1 : 0,
          note,
          changed: cell('changed') === '*' ? 1 : 0,
        },
        row.rowNumber,
      );
    } catch (err) {
      throw err instanceof ReferenceDataError
        ? err
        : new ReferenceDataError(at, `code ${hcpcs}: ${(err as Error).message}`);
    }
  }
  if (!col) {
    throw new ReferenceDataError(pos, `sheet ${JSON.stringify(sheet.name)} has no header row starting "HCPCS Code"`);
  }
}

async function loadDerived(ctx: LoadContext): Promise<void> {
  const pos = { file: ctx.file.relPath, member: ctx.unit.member };
  const insert = inserter(ctx, 1);
  const expectedSource = `${ctx.unit.validFrom.slice(0, 7)}`;
  // Not UTF-8: the converter wrote the workbook's no-break spaces as single bytes (0xA0).
  const parser = (await ctx.open()).pipe(parse({ encoding: 'latin1', info: true, skip_empty_lines: true }));
  let line = 0;
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: Info }>) {
      line = info.lines;
      if (info.records === 1) {
        if (record.join(',') !== DERIVED_HEADER) {
          throw new ReferenceDataError({ ...pos, line }, `expected the header ${DERIVED_HEADER}`);
        }
        continue;
      }
      const [code, short, si, rate, changed, source] = record;
      const hcpcs = cleanCode(code);
      const indicator = (si ?? '').trim().toUpperCase();
      if (record.length !== 6 || !CODE.test(hcpcs) || !SI.test(indicator) || !/^(true|false)$/.test(changed ?? '')) {
        throw new ReferenceDataError(
          { ...pos, line },
          `expected code, descriptor, SI, rate, true/false and source; got ${JSON.stringify(record)}`,
        );
      }
      if (source !== expectedSource) {
        throw new ReferenceDataError(
          { ...pos, line },
          `Source ${JSON.stringify(source)} differs from the file's release ${expectedSource}`,
        );
      }
      let payment: number | null;
      try {
        payment = parseAmount(rate);
      } catch (err) {
        throw new ReferenceDataError({ ...pos, line }, `code ${hcpcs}: ${(err as Error).message}`);
      }
      insert(
        {
          hcpcs,
          short: (short ?? '').trim() || null,
          si: indicator,
          apc: null,
          weight: null,
          rate: payment,
          national: null,
          minimum: null,
          adjusted: null,
          ira: null,
          capped: 0,
          passThrough: 0,
          note: null,
          changed: changed === 'true' ? 1 : 0,
        },
        line,
      );
    }
  } catch (err) {
    if (err instanceof ReferenceDataError) {
      throw err;
    }
    const csv = err as CsvError;
    throw new ReferenceDataError(
      { ...pos, line: typeof csv.lines === 'number' ? csv.lines : line + 1 },
      `not valid CSV: ${csv.message}`,
      { cause: err },
    );
  }
}

/**
 * Ends each release's rows with the release, which answers for its own quarter only (the builder's
 * `releasePeriodEnd`): the January 2025 workbook for 2025Q1, the derived April 2026 rows for 2026Q2. Official and
 * derived releases start on quarter days, so no release reaches into the next one's quarter.
 */
function closeReleases(db: Database.Database): void {
  db.exec(`UPDATE opps_addendum_b SET valid_to = (SELECT s.valid_to FROM source s WHERE s.id = opps_addendum_b.source_id)
           WHERE (SELECT s.valid_to FROM source s WHERE s.id = opps_addendum_b.source_id) < coalesce(valid_to, '9999-12-31')`);
}

/** OPPS Addendum B: the official quarterly workbooks (`opps-addendum-b`) and the derived April 2026 CSV. */
export const oppsAddendumBLoader: Loader = {
  name: 'opps-addendum-b',
  version: 2,
  ddl: `
CREATE TABLE opps_addendum_b (
  hcpcs TEXT NOT NULL,
  short_desc TEXT,
  status_indicator TEXT NOT NULL,
  apc TEXT,
  relative_weight REAL,
  payment_rate REAL,
  national_copay REAL,
  minimum_copay REAL,
  adjusted_copay REAL,
  ira_coinsurance_pct REAL,
  copay_capped INTEGER NOT NULL,
  pass_through_expiring INTEGER NOT NULL,
  note TEXT,
  changed INTEGER NOT NULL,
  derived INTEGER NOT NULL CHECK (derived IN (0, 1)),
  valid_from TEXT NOT NULL,
  valid_to TEXT,
  line INTEGER NOT NULL,
  source_id INTEGER NOT NULL REFERENCES source(id),
  PRIMARY KEY (hcpcs, source_id)
) WITHOUT ROWID;
CREATE INDEX opps_addendum_b_by_date ON opps_addendum_b (hcpcs, derived, valid_from);
`,
  async recognise(file, probe) {
    if (/\.csv$/i.test(file.name) && /addendum[-_ ]?b/i.test(file.name)) {
      const [header, first] = (await probe.head(undefined, 1024)).split(/\r?\n/);
      const source = /,"?(\d{4})-(\d{2})"?\s*$/.exec(first ?? '');
      if (header?.trim() !== DERIVED_HEADER || !source) {
        return [];
      }
      return [{ dataset: 'opps-addendum-b-derived', ...quarterOf(Number(source[1]), Number(source[2])) }];
    }
    if (!/\.xlsx$/i.test(file.name) || !/addendum[-_ ]?b/i.test(file.name)) {
      return [];
    }
    // The sheet name carries the quarter ("2023 January Addendum B"); the file name is the fallback.
    let sheets: string[];
    try {
      sheets = (await listSheets(file.path)).map((s) => s.name);
    } catch {
      return [];
    }
    const sheet = sheets.find((s) => /addendum b/i.test(s));
    const quarter = sheet ? (quarterFromName(sheet) ?? quarterFromName(file.name)) : undefined;
    const unit: SourceUnit | undefined = quarter ? { dataset: 'opps-addendum-b', ...quarter } : undefined;
    return unit ? [unit] : [];
  },
  async load(ctx) {
    return ctx.unit.dataset === 'opps-addendum-b-derived' ? loadDerived(ctx) : loadWorkbook(ctx);
  },
  finalize: closeReleases,
};
