// NCCI Medically Unlikely Edits (domain.md section 10): the CMS quarterly MUE tables for practitioner, outpatient
// hospital and DME supplier services, `MCR_MUE_<Setting>Services_Eff_MM-DD-YYYY.csv` (Latin-1; the first record is
// the AMA notice as one quoted multi-line cell, the second the header `"HCPCS/\nCPT Code",<Setting> Services MUE
// Values,MUE Adjudication Indicator,MUE Rationale`). Rows are dated by their release (the file name's effective
// date); finalize closes each release the day before the next one of the same setting starts.
//
// The official XLSX twin (`…_Eff_MM-DD-YYYY.xlsx`, same rows, CMS publishes both) is read the same way. When its CSV
// sits beside it, the XLSX becomes dataset `<dataset>-xlsx` and is only checked row by row against the CSV rows
// loaded just before it (same loader, so the builder orders `mue-practitioner` before `mue-practitioner-xlsx`): a
// difference fails the build, nothing is inserted twice. Without the CSV (or when the CSV was not built, `--only`)
// the XLSX rows are the data.
import { parse, type CsvError, type Info } from 'csv-parse';
import { readdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ReferenceDataError } from '../../errors.js';
import { readXlsxRows } from '../../readers/xlsx.js';
import type Database from 'better-sqlite3';
import { MUE_DATASET, MueSetting } from '../../schemas/edits.js';
import type { Loader, LoadContext, SourceUnit } from '../builder/types.js';
import { quarterOf } from '../builder/dates.js';

/** File-name part and header label of each setting. */
const SETTINGS: readonly { setting: MueSetting; file: string; header: string }[] = [
  { setting: MueSetting.practitioner, file: 'PractitionerServices', header: 'Practitioner Services' },
  { setting: MueSetting.outpatientHospital, file: 'OutpatientHospitalServices', header: 'Outpatient Hospital Services' },
  { setting: MueSetting.dme, file: 'DMESupplierServices', header: 'DME Supplier Services' },
];

const FILE = /^MCR_MUE_([A-Za-z]+)_Eff_(\d{2})-(\d{2})-(\d{4})\.(csv|xlsx)$/i;
const CODE = /^[A-Z0-9]{5}$/;
/** MUE adjudication indicator as printed: `1 Line Edit`, `2 Date of Service Edit: Policy`, `3 … Clinical`. */
const MAI = /^([123]) +(\S.*)$/;

const isoDate = (y: string, m: string, d: string): string | undefined => {
  const iso = `${y}-${m}-${d}`;
  const t = new Date(`${iso}T00:00:00Z`);
  return !Number.isNaN(t.getTime()) && t.toISOString().startsWith(iso) ? iso : undefined;
};

/** One parsed MUE row. */
export interface MueRecord {
  readonly code: string;
  readonly value: number;
  readonly mai: 1 | 2 | 3;
  readonly maiText: string;
  readonly rationale: string | null;
}

/**
 * Validates one data record of an MUE table: code, MUE value, MAI text, rationale.
 * @returns the row, or a message saying what is wrong
 */
export function parseMueRecord(fields: readonly (string | null)[]): MueRecord | string {
  const cells = fields.map((f) => (f ?? '').trim());
  while (cells.length > 4 && cells[cells.length - 1] === '') {
    cells.pop();
  }
  if (cells.length !== 4) {
    return `expected 4 fields (code, MUE value, MAI, rationale), found ${cells.length}`;
  }
  const [codeText = '', valueText = '', maiText = '', rationale = ''] = cells;
  const code = codeText.toUpperCase();
  if (!CODE.test(code)) {
    return `code ${JSON.stringify(codeText)} is not a 5-character HCPCS/CPT code`;
  }
  if (!/^\d+$/.test(valueText)) {
    return `code ${code}: MUE value ${JSON.stringify(valueText)} is not a whole number`;
  }
  const mai = MAI.exec(maiText);
  if (!mai) {
    return `code ${code}: MUE adjudication indicator ${JSON.stringify(maiText)} is not 1, 2 or 3 followed by its text`;
  }
  return { code, value: Number(valueText), mai: Number(mai[1]) as 1 | 2 | 3, maiText, rationale: rationale || null };
}

/**
 * Reads the setting from a header record (`HCPCS/\nCPT Code`, `<Setting> Services MUE Values`, …).
 * @returns the setting, or `undefined` when the record is not an MUE header
 */
export function mueHeaderSetting(fields: readonly (string | null)[]): MueSetting | undefined {
  const [first, second, third, fourth] = fields.map((f) => (f ?? '').replace(/\s+/g, ' ').trim());
  if (first !== 'HCPCS/ CPT Code' || third !== 'MUE Adjudication Indicator' || fourth !== 'MUE Rationale') {
    return undefined;
  }
  return SETTINGS.find((s) => second === `${s.header} MUE Values`)?.setting;
}

interface NamedUnit {
  readonly setting: MueSetting;
  readonly format: 'csv' | 'xlsx';
  readonly release: string;
  readonly validFrom: string;
}

/** Setting, format and release from a file name such as `MCR_MUE_DMESupplierServices_Eff_04-01-2026.csv`. */
function fromName(name: string): NamedUnit | undefined {
  const m = FILE.exec(name);
  const setting = SETTINGS.find((s) => s.file.toLowerCase() === (m?.[1] ?? '').toLowerCase())?.setting;
  const validFrom = m && isoDate(m[4] ?? '', m[2] ?? '', m[3] ?? '');
  if (!m || !setting || !validFrom) {
    return undefined;
  }
  const quarter = quarterOf(Number(m[2]));
  return { setting, format: (m[5] ?? '').toLowerCase() === 'csv' ? 'csv' : 'xlsx', release: `${m[4] ?? ''}Q${quarter}`, validFrom };
}

/** The CSV header as it stands in the file's first bytes (after the AMA notice record). */
const CSV_HEADER = /"HCPCS\/\r?\nCPT Code",([^,\r\n]+),MUE Adjudication Indicator,MUE Rationale\r?\n/;

async function xlsxSetting(path: string): Promise<MueSetting | undefined> {
  for await (const row of readXlsxRows(path)) {
    const setting = mueHeaderSetting(row.cells);
    if (setting || row.rowNumber >= 3) {
      return setting;
    }
  }
  return undefined;
}

/** Whether the folder of `path` holds the CSV twin of an XLSX table (same base name). */
async function hasCsvTwin(path: string, name: string): Promise<boolean> {
  const csv = name.replace(/\.xlsx$/i, '.csv').toLowerCase();
  return (await readdir(dirname(path))).some((n) => n.toLowerCase() === csv);
}

/** Stores rows of one unit, or (for a checked twin) compares them with the rows already stored for its release. */
function rowSink(ctx: LoadContext, setting: MueSetting): { put(rec: MueRecord, line: number): void; end(): void } {
  const pos = { file: ctx.file.relPath, member: ctx.unit.member };
  const existing = ctx.db.prepare('SELECT count(*) AS n FROM mue WHERE setting = ? AND valid_from = ?');
  const already = (existing.get(setting, ctx.unit.validFrom) as { n: number }).n;
  if (ctx.unit.dataset.endsWith('-xlsx') && already > 0) {
    const find = ctx.db.prepare('SELECT mue_value, mai, mai_text, rationale FROM mue WHERE setting = ? AND code = ? AND valid_from = ?');
    let compared = 0;
    return {
      put(rec, line) {
        const twin = find.get(setting, rec.code, ctx.unit.validFrom) as
          | { mue_value: number; mai: number; mai_text: string; rationale: string | null }
          | undefined;
        const mine = { mue_value: rec.value, mai: rec.mai, mai_text: rec.maiText, rationale: rec.rationale };
        if (!twin || JSON.stringify(twin) !== JSON.stringify(mine)) {
          throw new ReferenceDataError(
            { ...pos, line },
            `code ${rec.code} differs from its CSV twin: ${JSON.stringify(mine)} here, ${twin ? JSON.stringify(twin) : 'absent'} in the CSV`,
          );
        }
        compared++;
      },
      end() {
        if (compared !== already) {
          throw new ReferenceDataError(pos, `holds ${compared} codes; its CSV twin holds ${already}`);
        }
      },
    };
  }
  const insert = ctx.db.prepare(
    `INSERT INTO mue (setting, code, valid_from, valid_to, mue_value, mai, mai_text, rationale, source_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  return {
    put(rec, line) {
      try {
        insert.run(setting, rec.code, ctx.unit.validFrom, ctx.unit.validTo ?? null, rec.value, rec.mai, rec.maiText, rec.rationale, ctx.sourceId);
      } catch (err) {
        throw new ReferenceDataError({ ...pos, line }, `code ${rec.code}: ${(err as Error).message}`, { cause: err });
      }
      ctx.progress.add(1);
    },
    end: () => undefined,
  };
}

/** Walks the records of a table: record 1 is the AMA notice, record 2 the header, then one code per record. */
function recordHandler(ctx: LoadContext, setting: MueSetting): { take(fields: readonly (string | null)[], line: number, index: number): void; end(): void } {
  const pos = { file: ctx.file.relPath, member: ctx.unit.member };
  const sink = rowSink(ctx, setting);
  return {
    take(fields, line, index) {
      if (index === 1) {
        if (!/American Medical Association/.test(fields[0] ?? '')) {
          throw new ReferenceDataError({ ...pos, line }, 'expected the AMA copyright notice as the first record');
        }
        return;
      }
      if (index === 2) {
        if (mueHeaderSetting(fields) !== setting) {
          throw new ReferenceDataError({ ...pos, line }, `expected the header "HCPCS/CPT Code", "<Setting> MUE Values", "MUE Adjudication Indicator", "MUE Rationale" of the ${setting} table`);
        }
        return;
      }
      if (fields.every((f) => (f ?? '').trim() === '')) {
        return;
      }
      const rec = parseMueRecord(fields);
      if (typeof rec === 'string') {
        throw new ReferenceDataError({ ...pos, line }, rec);
      }
      sink.put(rec, line);
    },
    end: () => sink.end(),
  };
}

async function loadCsv(ctx: LoadContext, setting: MueSetting): Promise<void> {
  const pos = { file: ctx.file.relPath, member: ctx.unit.member };
  const handler = recordHandler(ctx, setting);
  const parser = (await ctx.open()).pipe(parse({ encoding: 'latin1', info: true, relax_column_count: true, skip_empty_lines: true }));
  let line = 0;
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: Info }>) {
      line = info.lines;
      handler.take(record, line, info.records);
    }
  } catch (err) {
    if (err instanceof ReferenceDataError) {
      throw err;
    }
    const csv = err as CsvError;
    const at = csv.code === 'CSV_QUOTE_NOT_CLOSED' || typeof csv.lines !== 'number' ? line + 1 : csv.lines;
    throw new ReferenceDataError({ ...pos, line: at }, `not valid CSV: ${csv.message}`, { cause: err });
  }
  handler.end();
}

async function loadXlsx(ctx: LoadContext, setting: MueSetting): Promise<void> {
  const handler = recordHandler(ctx, setting);
  let index = 0;
  for await (const row of readXlsxRows(ctx.file.path)) {
    if (row.cells.every((c) => c === null)) {
      continue;
    }
    handler.take(row.cells, row.rowNumber, ++index);
  }
  handler.end();
}

/** Rows carry their release's interval: the end is known only once every release is in. */
function closeReleases(db: Database.Database): void {
  db.exec(`UPDATE mue SET valid_to = (SELECT s.valid_to FROM source s WHERE s.id = mue.source_id)
           WHERE valid_to IS NULL AND (SELECT s.valid_to FROM source s WHERE s.id = mue.source_id) IS NOT NULL`);
}

export const mueLoader: Loader = {
  name: 'mue',
  version: 1,
  ddl: `
CREATE TABLE mue (
  setting TEXT NOT NULL,
  code TEXT NOT NULL,
  valid_from TEXT NOT NULL,
  valid_to TEXT,
  mue_value INTEGER NOT NULL,
  mai INTEGER NOT NULL,
  mai_text TEXT NOT NULL,
  rationale TEXT,
  source_id INTEGER NOT NULL REFERENCES source(id),
  PRIMARY KEY (setting, code, valid_from)
) WITHOUT ROWID;
`,
  async recognise(file, probe) {
    const named = fromName(file.name);
    if (!named) {
      return [];
    }
    let setting: MueSetting | undefined;
    if (named.format === 'csv') {
      const header = CSV_HEADER.exec(await probe.head(undefined, 4096));
      setting = header ? mueHeaderSetting(['HCPCS/ CPT Code', header[1] ?? '', 'MUE Adjudication Indicator', 'MUE Rationale']) : undefined;
    } else {
      setting = await xlsxSetting(file.path);
    }
    if (setting !== named.setting) {
      return [];
    }
    const dataset = MUE_DATASET[setting];
    const twin = named.format === 'xlsx' && (await hasCsvTwin(file.path, file.name));
    const unit: SourceUnit = { dataset: twin ? `${dataset}-xlsx` : dataset, release: named.release, validFrom: named.validFrom };
    return [unit];
  },
  async load(ctx) {
    const named = fromName(ctx.file.name);
    if (!named) {
      throw new ReferenceDataError({ file: ctx.file.relPath }, 'not an MUE table file name');
    }
    await (named.format === 'csv' ? loadCsv(ctx, named.setting) : loadXlsx(ctx, named.setting));
  },
  finalize: closeReleases,
};
