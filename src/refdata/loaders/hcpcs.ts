// HCPCS Level II from the CMS annual release ZIPs: the contractor file `HCPC<year>_CONTR_ANWEB.txt` (320-column
// records laid out per that year's record-layout file, HCPCS2019_recordlayout.txt), its processing notes, the NOC
// list and the corrections CMS published after the release. Procedure records go to `hcpcs_code` (every layout
// field), modifiers to `hcpcs_modifier`; `finalize` applies the corrections and writes the `code` rows (system HCPCS).
//
// Dating: a code is valid from its own added date (layout field 27, a full YYYYMMDD on every record) to its
// termination date (field 29, "last date ... may be used"), not from the release date: the 2019 file still lists the
// codes terminated 2014-2018 with their dates, so it answers for earlier dates of service too. Its limits: the titles
// are the 2019 wording, and codes terminated before 2014 are not in it (domain.md section 6).
//
// The NOC list and the corrections are read from the XLSX members: the `.prn` twins are column-truncated prints of
// them (ACTION cut to 9 characters, descriptions to 18-80). The record-layout ZIP is documentation; it loads nothing
// and is left to the builder's skipped list.
import type Database from 'better-sqlite3';
import { ReferenceDataError } from '../../errors.js';
import { readAllBytes } from '../../readers/byte-source.js';
import { readLines } from '../../readers/lines.js';
import { excelSerialToIso, readXlsxRows, type XlsxRow } from '../../readers/xlsx.js';
import { dayBefore, quarterStart } from '../builder/dates.js';
import { CodeSystem } from '../../schemas/code-systems.js';
import type { HcpcsRecord } from '../../schemas/hcpcs.js';
import type { LoadContext, Loader, SourceUnit } from '../builder/types.js';

/** One field of the fixed-width record: 1-based start, width, and how many times it repeats side by side. */
export interface LayoutField {
  /** Field number in the record-layout file. */
  readonly field: number;
  readonly name: string;
  readonly start: number;
  readonly length: number;
  readonly occurs: number;
}

const f = (field: number, name: string, start: number, length: number, occurs = 1): LayoutField => ({
  field,
  name,
  start,
  length,
  occurs,
});

/**
 * The 2019 record layout (HCPCS2019_recordlayout.txt, "HCPCS Contractor Record - 2019", 320 bytes). Fields 2, 3,
 * 24 and 31 (redefinition group and fillers) carry no data and are left out.
 */
export const HCPCS_2019_LAYOUT = {
  code: f(1, 'Healthcare Common Procedure Coding System Code', 1, 5),
  modifier: f(4, 'HCPCS Modifier Code', 4, 2),
  sequence: f(5, 'HCPCS Sequence Number', 6, 5),
  recordId: f(6, 'HCPCS Record Identification Code', 11, 1),
  longDescription: f(7, 'HCPCS Long Description', 12, 80),
  shortDescription: f(8, 'HCPCS Short Description', 92, 28),
  pricingIndicators: f(9, 'HCPCS Pricing Indicator Code', 120, 2, 4),
  multiplePricingIndicator: f(10, 'HCPCS Multiple Pricing Indicator Code', 128, 1),
  cimReferences: f(11, 'HCPCS Coverage Issues Manual Reference Section Number', 129, 6, 3),
  mcmReferences: f(12, 'HCPCS Medicare Carriers Manual Reference Section Number', 147, 8, 3),
  statute: f(13, 'HCPCS Statute Number', 171, 10),
  labCertifications: f(14, 'HCPCS Lab Certification Code', 181, 3, 8),
  crossReferences: f(15, 'HCPCS Cross Reference Code', 205, 5, 5),
  coverage: f(16, 'HCPCS Coverage Code', 230, 1),
  ascGroup: f(17, 'HCPCS ASC Payment Group Code', 231, 2),
  ascEffectiveDate: f(18, 'HCPCS ASC Payment Group Effective Date', 233, 8),
  mogGroup: f(19, 'HCPCS MOG Payment Group Code', 241, 3),
  mogPolicyIndicator: f(20, 'HCPCS MOG Payment Policy Indicator', 244, 1),
  mogEffectiveDate: f(21, 'HCPCS MOG Effective Date', 245, 8),
  processingNote: f(22, 'HCPCS Processing Note Number', 253, 4),
  betos: f(23, 'HCPCS Berenson-Eggers Type Of Service Code', 257, 3),
  typesOfService: f(25, 'HCPCS Type Of Service Code', 261, 1, 5),
  anesthesiaBaseUnits: f(26, 'HCPCS Anesthesia Base Unit Quantity', 266, 3),
  addedDate: f(27, 'HCPCS Code Added Date', 269, 8),
  actionEffectiveDate: f(28, 'HCPCS Action Effective Date', 277, 8),
  terminationDate: f(29, 'HCPCS Termination Date', 285, 8),
  actionCode: f(30, 'HCPCS Action Code', 293, 1),
} as const;

const RECORD_LENGTH = 320;
const L = HCPCS_2019_LAYOUT;

const slice = (rec: string, fld: LayoutField, i = 0): string => {
  const at = fld.start - 1 + i * fld.length;
  return rec.slice(at, at + fld.length);
};
const text = (rec: string, fld: LayoutField): string | null => slice(rec, fld).trim() || null;
const list = (rec: string, fld: LayoutField): string[] =>
  Array.from({ length: fld.occurs }, (_, i) => slice(rec, fld, i).trim()).filter((v) => v !== '');

/** True when an ISO `YYYY-MM-DD` string names a day of the calendar (`2019-02-30` does not). */
const isRealDate = (iso: string): boolean => {
  const t = Date.parse(`${iso}T00:00:00Z`);
  return !Number.isNaN(t) && new Date(t).toISOString().slice(0, 10) === iso;
};

/** `YYYYMMDD` (the layout's "EDIT RULES: YYYYMMDD") to ISO; blank is null. */
function yyyymmdd(value: string, what: string): string | null {
  const s = value.trim();
  if (s === '') {
    return null;
  }
  const iso = `${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}`;
  if (!/^\d{8}$/.test(s) || !isRealDate(iso)) {
    throw new RangeError(`${what} ${JSON.stringify(s)} is not a date YYYYMMDD`);
  }
  return iso;
}

/**
 * Parses one record of the contractor file by the 2019 layout.
 * @throws RangeError naming the field that is not in the layout's form
 */
export function parseHcpcsRecord(line: string): HcpcsRecord {
  if (line.length > RECORD_LENGTH) {
    throw new RangeError(`record is ${line.length} characters long; the layout has ${RECORD_LENGTH}`);
  }
  const rec = line.padEnd(RECORD_LENGTH);
  const recordId = slice(rec, L.recordId);
  if (recordId !== '3' && recordId !== '4' && recordId !== '7' && recordId !== '8') {
    throw new RangeError(`record identification code ${JSON.stringify(recordId)} (position 11) is not 3, 4, 7 or 8`);
  }
  const modifierRecord = recordId === '7' || recordId === '8';
  const code = modifierRecord ? slice(rec, L.modifier) : slice(rec, L.code);
  if (modifierRecord ? !/^ {3}$/.test(rec.slice(0, 3)) || !/^[A-Z0-9]{2}$/.test(code) : !/^[A-Z]\d{4}$/.test(code)) {
    throw new RangeError(
      `${JSON.stringify(rec.slice(0, 5))} (positions 1-5) is not a ${modifierRecord ? 'modifier' : 'HCPCS Level II code'}`,
    );
  }
  const sequence = slice(rec, L.sequence);
  if (!/^\d{5}$/.test(sequence)) {
    throw new RangeError(`sequence number ${JSON.stringify(sequence)} (positions 6-10) is not 5 digits`);
  }
  const detail = recordId === '3' || recordId === '7';
  const units = text(rec, L.anesthesiaBaseUnits);
  if (units !== null && !/^\d+$/.test(units)) {
    throw new RangeError(`anesthesia base units ${JSON.stringify(units)} (positions 266-268) is not a number`);
  }
  const ascRaw = slice(rec, L.ascEffectiveDate);
  const record: HcpcsRecord = {
    recordId,
    code,
    sequence: Number(sequence),
    longDescription: slice(rec, L.longDescription).trim(),
    shortDescription: detail ? slice(rec, L.shortDescription).trim() : '',
    pricingIndicators: detail ? list(rec, L.pricingIndicators) : [],
    multiplePricingIndicator: detail ? text(rec, L.multiplePricingIndicator) : null,
    cimReferences: detail ? list(rec, L.cimReferences) : [],
    mcmReferences: detail ? list(rec, L.mcmReferences) : [],
    statute: detail ? text(rec, L.statute) : null,
    labCertifications: detail ? list(rec, L.labCertifications) : [],
    crossReferences: detail ? list(rec, L.crossReferences) : [],
    coverage: detail ? text(rec, L.coverage) : null,
    ascGroup: detail ? text(rec, L.ascGroup) : null,
    ascEffectiveDate: detail ? yyyymmdd(ascRaw, 'ASC payment group effective date (positions 233-240)') : null,
    mogGroup: detail ? text(rec, L.mogGroup) : null,
    mogPolicyIndicator: detail ? text(rec, L.mogPolicyIndicator) : null,
    mogEffectiveDate: detail
      ? yyyymmdd(slice(rec, L.mogEffectiveDate), 'MOG effective date (positions 245-252)')
      : null,
    processingNote: detail ? text(rec, L.processingNote) : null,
    betos: detail ? text(rec, L.betos) : null,
    typesOfService: detail ? list(rec, L.typesOfService) : [],
    anesthesiaBaseUnits: detail && units !== null ? Number(units) : null,
    addedDate: detail ? yyyymmdd(slice(rec, L.addedDate), 'code added date (positions 269-276)') : null,
    actionEffectiveDate: detail
      ? yyyymmdd(slice(rec, L.actionEffectiveDate), 'action effective date (positions 277-284)')
      : null,
    terminationDate: detail ? yyyymmdd(slice(rec, L.terminationDate), 'termination date (positions 285-292)') : null,
    actionCode: detail ? text(rec, L.actionCode) : null,
  };
  if (detail && record.addedDate === null) {
    throw new RangeError(`code ${code} has no added date (positions 269-276)`);
  }
  return record;
}

// Small workbooks nested in the release ZIPs (NOC list, corrections): a few kilobytes, read into memory (nothing
// goes to disk) and read with the same XLSX reader as the workbooks in the sources folder.

/** The rows of the first worksheet of an XLSX held in memory. */
async function readNestedXlsx(bytes: Buffer): Promise<XlsxRow[]> {
  const rows: XlsxRow[] = [];
  for await (const row of readXlsxRows(bytes, 0)) {
    rows.push(row);
  }
  return rows;
}

const cellText = (row: XlsxRow, i: number): string => (row.cells[i] ?? '').replace(/\u00a0/g, ' ').trim();
const headerKey = (s: string | null | undefined): string => (s ?? '').replace(/\s+/g, ' ').trim().toUpperCase();

/** Finds the header row (first cell `first`) and maps each wanted header to its column. */
function headerColumns(
  rows: readonly XlsxRow[],
  first: string,
  wanted: readonly string[],
): { at: number; col: Map<string, number> } | undefined {
  const at = rows.findIndex((r) => headerKey(r.cells[0]) === first);
  const header = rows[at];
  if (!header) {
    return undefined;
  }
  const col = new Map<string, number>();
  header.cells.forEach((c, i) => col.set(headerKey(c), i));
  return wanted.every((w) => col.has(w)) ? { at, col } : undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// Units: which members of which ZIPs are ours.

const ANWEB = /^(?:.*\/)?HCPC(\d{4})_(CONTR|JAN|APR|JUL|OCT)_ANWEB(?:_v\d+)?\.txt$/i;
const PROC_NOTES = /^(?:.*\/)?proc_notes_(\d{4})\.txt$/i;
const NOC = /^(?:.*\/)?NOC_Codes_(\d{4})\.xlsx$/i;
const CORRECTIONS = /^(?:.*\/)?HCPC(\d{4})_Corrections_ALPHA(?:_v(\d+))?\.xlsx$/i;
const QUARTER: Record<string, number> = { CONTR: 1, JAN: 1, APR: 2, JUL: 3, OCT: 4 };

const NOC_HEADERS = ['HCPCS', 'LONG DESCRIPTION', 'ADD DATE', 'TERM DATE'] as const;
const CORRECTION_HEADERS = [
  'CODE',
  'ACTION',
  'EFF DATE',
  'SHORT DESC',
  'LONG DESC',
  'TOS',
  'BETOS',
  'COV',
  'PRICE',
  'XREF CODE',
  'ASC IND',
  'ASC DATE',
] as const;
/** A procedure (RIC 3) or modifier (RIC 7) record at the start of a line, for recognising the contractor file. */
const FIRST_RECORD = /^(?:[A-Z]\d{4}| {3}[A-Z0-9]{2})\d{5}[37]/m;
/** The first 11 columns of any record (code or modifier, sequence number, RIC). */
const RECORD_START = /^(?:[A-Z]\d{4}| {3}[A-Z0-9]{2})\d{5}[3478]/;

/** Recognises one member (or loose file) by name and content; `head` reads the first bytes of it. */
async function unitFor(
  name: string,
  head: (maxBytes: number) => Promise<string>,
  member: string | undefined,
): Promise<SourceUnit | undefined> {
  let m = ANWEB.exec(name);
  if (m) {
    const quarter = QUARTER[(m[2] ?? '').toUpperCase()] ?? 1;
    return FIRST_RECORD.test(await head(8192))
      ? { dataset: 'hcpcs', member, release: `${m[1]}Q${quarter}`, validFrom: quarterStart(Number(m[1]), quarter) }
      : undefined;
  }
  m = PROC_NOTES.exec(name);
  if (m) {
    return /PROCESSING NOTES|^\s*\d{4}--/m.test(await head(2048))
      ? { dataset: 'hcpcs-proc-notes', member, release: `${m[1]}Q1`, validFrom: `${m[1]}-01-01` }
      : undefined;
  }
  m = NOC.exec(name) ?? CORRECTIONS.exec(name);
  if (m) {
    const noc = NOC.test(name);
    let rows: XlsxRow[];
    try {
      rows = await readNestedXlsx(Buffer.from(await head(8 * 1024 * 1024), 'latin1'));
    } catch {
      return undefined;
    }
    const ok = noc ? headerColumns(rows, 'HCPCS', NOC_HEADERS) : headerColumns(rows, 'CODE', CORRECTION_HEADERS);
    if (!ok) {
      return undefined;
    }
    const version = !noc && m[2] ? `-v${m[2]}` : '';
    return {
      dataset: noc ? 'hcpcs-noc' : 'hcpcs-corrections',
      member,
      release: `${m[1]}Q1${version}`,
      validFrom: `${m[1]}-01-01`,
    };
  }
  return undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// Loading.

const json = (values: readonly string[]): string => JSON.stringify(values);

async function loadContractorFile(ctx: LoadContext): Promise<void> {
  const insertCode = ctx.db.prepare(
    `INSERT INTO hcpcs_code (code, seq, long_desc, short_desc, pricing_indicators, multiple_pricing_indicator, cim_refs, mcm_refs,
       statute, lab_cert_codes, xref_codes, coverage_code, asc_group, asc_effective_date, mog_group, mog_policy_indicator,
       mog_effective_date, processing_note, betos, type_of_service, anesthesia_base_units, added_date, action_effective_date,
       termination_date, action_code, valid_from, valid_to, desc_lines, line, source_id)
     VALUES (@code, @seq, @long, @short, @pricing, @mult, @cim, @mcm, @statute, @lab, @xref, @coverage, @ascGroup, @ascDate,
       @mogGroup, @mogIndicator, @mogDate, @note, @betos, @tos, @anesthesia, @added, @actionDate, @termination, @action,
       @validFrom, @validTo, @descLines, @line, @source)`,
  );
  const insertModifier = ctx.db.prepare(
    `INSERT INTO hcpcs_modifier (modifier, seq, long_desc, short_desc, cim_refs, mcm_refs, xref_codes, coverage_code,
       processing_note, added_date, action_effective_date, termination_date, action_code, valid_from, valid_to, desc_lines, line, source_id)
     VALUES (@code, @seq, @long, @short, @cim, @mcm, @xref, @coverage, @note, @added, @actionDate, @termination, @action,
       @validFrom, @validTo, @descLines, @line, @source)`,
  );
  const pos = { file: ctx.file.relPath, member: ctx.unit.member };
  let open: { rec: HcpcsRecord; long: string[]; line: number } | undefined;
  const flush = (): void => {
    if (!open) {
      return;
    }
    const { rec, line } = open;
    const row = {
      code: rec.code,
      seq: rec.sequence,
      long: open.long.join(' '),
      short: rec.shortDescription || null,
      pricing: json(rec.pricingIndicators),
      mult: rec.multiplePricingIndicator,
      cim: json(rec.cimReferences),
      mcm: json(rec.mcmReferences),
      statute: rec.statute,
      lab: json(rec.labCertifications),
      xref: json(rec.crossReferences),
      coverage: rec.coverage,
      ascGroup: rec.ascGroup,
      ascDate: rec.ascEffectiveDate,
      mogGroup: rec.mogGroup,
      mogIndicator: rec.mogPolicyIndicator,
      mogDate: rec.mogEffectiveDate,
      note: rec.processingNote,
      betos: rec.betos,
      tos: json(rec.typesOfService),
      anesthesia: rec.anesthesiaBaseUnits,
      added: rec.addedDate,
      actionDate: rec.actionEffectiveDate,
      termination: rec.terminationDate,
      action: rec.actionCode,
      // A code is valid from its added date to its termination date, both from the record itself (layout fields 27
      // and 29: "Last date for which a procedure or modifier code may be used").
      validFrom: rec.addedDate,
      validTo: rec.terminationDate,
      descLines: open.long.length,
      line,
      source: ctx.sourceId,
    };
    try {
      (rec.recordId === '3' ? insertCode : insertModifier).run(row);
    } catch (err) {
      throw new ReferenceDataError(
        { ...pos, line },
        `${rec.recordId === '3' ? 'code' : 'modifier'} ${rec.code}: ${(err as Error).message}`,
        { cause: err },
      );
    }
    ctx.progress.add(1);
    open = undefined;
  };
  let inPreamble = true;
  for await (const { text: lineText, lineNo } of readLines(await ctx.open(), 'latin1')) {
    // The file opens with disclaimer lines: `*` lines and their indented continuations. Modifier records also
    // open with spaces, so the preamble ends at the first line that starts like a record.
    if (lineText.trim() === '' || (inPreamble && /^[*\s\u00a0]/.test(lineText) && !RECORD_START.test(lineText))) {
      continue;
    }
    inPreamble = false;
    let rec: HcpcsRecord;
    try {
      rec = parseHcpcsRecord(lineText);
    } catch (err) {
      throw new ReferenceDataError({ ...pos, line: lineNo }, `not a HCPCS record: ${(err as Error).message}`);
    }
    if (rec.recordId === '3' || rec.recordId === '7') {
      flush();
      open = { rec, long: [rec.longDescription], line: lineNo };
      continue;
    }
    // RIC 4/8: the next line of the long description of the record above (same code, same kind).
    const parentRic = rec.recordId === '4' ? '3' : '7';
    if (open?.rec.code !== rec.code || open.rec.recordId !== parentRic) {
      throw new ReferenceDataError(
        { ...pos, line: lineNo },
        `continuation record (RIC ${rec.recordId}) for ${rec.code} does not follow a RIC ${parentRic} record of the same code`,
      );
    }
    open.long.push(rec.longDescription);
  }
  flush();
}

async function loadProcessingNotes(ctx: LoadContext): Promise<void> {
  const insert = ctx.db.prepare(
    'INSERT INTO hcpcs_processing_note (note, text, valid_from, valid_to, line, source_id) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const pos = { file: ctx.file.relPath, member: ctx.unit.member };
  let open: { note: string; parts: string[]; line: number } | undefined;
  const flush = (): void => {
    if (open) {
      try {
        insert.run(
          open.note,
          open.parts.join(' ').replace(/\s+/g, ' ').trim(),
          ctx.unit.validFrom,
          ctx.unit.validTo ?? null,
          open.line,
          ctx.sourceId,
        );
      } catch (err) {
        throw new ReferenceDataError(
          { ...pos, line: open.line },
          `processing note ${open.note}: ${(err as Error).message}`,
          { cause: err },
        );
      }
      ctx.progress.add(1);
      open = undefined;
    }
  };
  for await (const { text: lineText, lineNo } of readLines(await ctx.open(), 'latin1')) {
    // Notes are `NNNN--text`, wrapped onto indented lines; a column of `*` closes each line of the box.
    const content = lineText.replace(/\*\s*$/, '').trim();
    const start = /^(\d{4})--\s*(.*)$/.exec(content);
    if (start) {
      flush();
      open = { note: start[1] ?? '', parts: [start[2] ?? ''], line: lineNo };
    } else if (content === '' || (!open && (/PROCESSING NOTES/.test(content) || /^_+$/.test(content)))) {
      continue;
    } else if (open) {
      open.parts.push(content);
    } else {
      throw new ReferenceDataError(
        { ...pos, line: lineNo },
        `text before the first processing note: ${JSON.stringify(content.slice(0, 60))}`,
      );
    }
  }
  flush();
}

async function loadNoc(ctx: LoadContext): Promise<void> {
  const rows = await readNestedXlsx(await readAllBytes(await ctx.open()));
  const pos = { file: ctx.file.relPath, member: ctx.unit.member };
  const header = headerColumns(rows, 'HCPCS', NOC_HEADERS);
  if (!header) {
    throw new ReferenceDataError(pos, `expected a header row ${NOC_HEADERS.join(', ')}`);
  }
  const c = (name: (typeof NOC_HEADERS)[number]): number => header.col.get(name) ?? -1;
  const insert = ctx.db.prepare(
    `INSERT INTO hcpcs_noc (code, long_desc, added_date, termination_date, valid_from, valid_to, line, source_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  // The list wraps a long description onto a second row that repeats the code and has no dates; join them.
  let open: { code: string; desc: string[]; added: string; term: string | null; line: number } | undefined;
  const flush = (): void => {
    if (open) {
      try {
        insert.run(
          open.code,
          open.desc.join(' '),
          open.added,
          open.term,
          open.added,
          open.term,
          open.line,
          ctx.sourceId,
        );
      } catch (err) {
        throw new ReferenceDataError({ ...pos, line: open.line }, `NOC code ${open.code}: ${(err as Error).message}`, {
          cause: err,
        });
      }
      ctx.progress.add(1);
      open = undefined;
    }
  };
  for (const row of rows.slice(header.at + 1)) {
    const code = cellText(row, c('HCPCS')).toUpperCase();
    // `_x001A_` is the DOS end-of-file mark the list was printed with.
    if (code === '' || code === '_X001A_' || code === '\u001a') {
      continue;
    }
    const desc = cellText(row, c('LONG DESCRIPTION'));
    const addedText = cellText(row, c('ADD DATE'));
    if (addedText === '' && open?.code === code) {
      open.desc.push(desc);
      continue;
    }
    if (!/^[A-Z]\d{4}$/.test(code)) {
      throw new ReferenceDataError(
        { ...pos, line: row.rowNumber },
        `${JSON.stringify(code)} is not a HCPCS Level II code`,
      );
    }
    let added: string | null;
    let term: string | null;
    try {
      added = yyyymmdd(addedText, 'ADD DATE');
      term = yyyymmdd(cellText(row, c('TERM DATE')), 'TERM DATE');
    } catch (err) {
      throw new ReferenceDataError({ ...pos, line: row.rowNumber }, `NOC code ${code}: ${(err as Error).message}`);
    }
    if (added === null) {
      throw new ReferenceDataError({ ...pos, line: row.rowNumber }, `NOC code ${code} has no ADD DATE`);
    }
    flush();
    open = { code, desc: [desc], added, term, line: row.rowNumber };
  }
  flush();
}

/** Kinds of correction, from the free-text ACTION column. */
export type CorrectionKind = 'add' | 'discontinue' | 'restore' | 'change';

/** Classifies the ACTION text of a correction row (`ADD CODE`, `Discontinue`, `Removed in error - add back to file`, ...). */
export function correctionKind(action: string): CorrectionKind {
  if (/^add code\b/i.test(action)) {
    return 'add';
  }
  if (/^discontinu/i.test(action)) {
    return 'discontinue';
  }
  if (/add back to (the )?file/i.test(action)) {
    return 'restore';
  }
  return 'change';
}

/** A corrections-sheet date: an Excel serial, or `MM/DD/YYYY`; anything else (the 2019 sheet has `01/0/12019`) is null. */
function correctionDate(value: string): string | null {
  if (/^\d+(\.\d+)?$/.test(value)) {
    return excelSerialToIso(Number(value));
  }
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(value);
  if (!m) {
    return null;
  }
  const iso = `${m[3]}-${(m[1] ?? '').padStart(2, '0')}-${(m[2] ?? '').padStart(2, '0')}`;
  return isRealDate(iso) ? iso : null;
}

async function loadCorrections(ctx: LoadContext): Promise<void> {
  const rows = await readNestedXlsx(await readAllBytes(await ctx.open()));
  const pos = { file: ctx.file.relPath, member: ctx.unit.member };
  const header = headerColumns(rows, 'CODE', CORRECTION_HEADERS);
  if (!header) {
    throw new ReferenceDataError(pos, `expected a header row ${CORRECTION_HEADERS.join(', ')}`);
  }
  const get = (row: XlsxRow, name: string): string | null => {
    const i = header.col.get(name);
    return i === undefined ? null : cellText(row, i) || null;
  };
  const insert = ctx.db.prepare(
    `INSERT INTO hcpcs_correction (code, action, kind, effective_date, effective_date_text, short_desc, long_desc, type_of_service,
       betos, coverage_code, pricing_indicators, xref_code, asc_group, asc_effective_date, comments, valid_from, valid_to, line, source_id)
     VALUES (@code, @action, @kind, @effective, @effectiveText, @short, @long, @tos, @betos, @coverage, @pricing, @xref, @ascGroup,
       @ascDate, @comments, @validFrom, @validTo, @line, @source)`,
  );
  for (const row of rows.slice(header.at + 1)) {
    const code = (get(row, 'CODE') ?? '').toUpperCase();
    if (code === '') {
      continue;
    }
    const action = get(row, 'ACTION');
    if (!/^(?:[A-Z]\d{4}|[A-Z0-9]{2})$/.test(code) || !action) {
      throw new ReferenceDataError(
        { ...pos, line: row.rowNumber },
        `a correction needs a HCPCS code or modifier and an ACTION; got ${JSON.stringify(code)}`,
      );
    }
    const effectiveText = get(row, 'EFF DATE');
    const effective = effectiveText === null ? null : correctionDate(effectiveText);
    const ascText = get(row, 'ASC DATE');
    insert.run({
      code,
      action,
      kind: correctionKind(action),
      effective,
      effectiveText,
      short: get(row, 'SHORT DESC'),
      long: get(row, 'LONG DESC'),
      tos: json((get(row, 'TOS') ?? '').split(/[\s,]+/).filter((s) => s !== '')),
      betos: get(row, 'BETOS'),
      coverage: get(row, 'COV'),
      pricing: json((get(row, 'PRICE') ?? '').split(/[\s,]+/).filter((s) => s !== '')),
      xref: get(row, 'XREF CODE'),
      ascGroup: get(row, 'ASC IND'),
      ascDate: ascText === null ? null : correctionDate(ascText),
      comments: get(row, 'COMMENTS'),
      // A date CMS typed wrongly leaves the correction dated by its release.
      validFrom: effective ?? ctx.unit.validFrom,
      validTo: null,
      line: row.rowNumber,
      source: ctx.sourceId,
    });
    ctx.progress.add(1);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Finalize: corrections, then the `code` intervals.

interface CorrectionRow {
  code: string;
  kind: CorrectionKind;
  valid_from: string;
  short_desc: string | null;
  long_desc: string | null;
  type_of_service: string;
  betos: string | null;
  coverage_code: string | null;
  pricing_indicators: string;
  xref_code: string | null;
  asc_group: string | null;
  asc_effective_date: string | null;
  line: number;
  source_id: number;
  release_from: string;
}

/**
 * Applies the published corrections to the release they correct: an added (or restored) code or modifier missing
 * from the file gets a detail row from the correction sheet; a discontinued one ends the day before the correction's
 * effective date. Other corrections (changed coverage, pricing, cross-reference) stay in `hcpcs_correction` and are
 * served beside the detail.
 */
function applyCorrections(db: Database.Database): void {
  const corrections = db
    .prepare(
      `SELECT c.*, s.valid_from AS release_from FROM hcpcs_correction c JOIN source s ON s.id = c.source_id
       WHERE c.kind IN ('add', 'restore', 'discontinue') ORDER BY c.valid_from, c.source_id, c.line`,
    )
    .all() as CorrectionRow[];
  const hasCode = db.prepare('SELECT 1 FROM hcpcs_code WHERE code = ?');
  const hasModifier = db.prepare('SELECT 1 FROM hcpcs_modifier WHERE modifier = ?');
  const addCode = db.prepare(
    `INSERT INTO hcpcs_code (code, seq, long_desc, short_desc, pricing_indicators, cim_refs, mcm_refs, lab_cert_codes, xref_codes,
       coverage_code, asc_group, asc_effective_date, betos, type_of_service, added_date, action_code, valid_from, valid_to, desc_lines,
       line, source_id)
     VALUES (@code, 0, @long_desc, @short_desc, @pricing_indicators, '[]', '[]', '[]', @xref, @coverage_code, @asc_group,
       @asc_effective_date, @betos, @type_of_service, @valid_from, 'A', @valid_from, NULL, 0, @line, @source_id)`,
  );
  const addModifier = db.prepare(
    `INSERT INTO hcpcs_modifier (modifier, seq, long_desc, short_desc, cim_refs, mcm_refs, xref_codes, valid_from, valid_to, desc_lines, line, source_id)
     VALUES (@code, 0, @long_desc, @short_desc, '[]', '[]', '[]', @valid_from, NULL, 0, @line, @source_id)`,
  );
  const endCode = db.prepare(
    `UPDATE hcpcs_code SET valid_to = @to WHERE code = @code AND valid_from <= @to AND (valid_to IS NULL OR valid_to > @to)
       AND source_id IN (SELECT id FROM source WHERE valid_from <= @release)`,
  );
  const endModifier = db.prepare(
    `UPDATE hcpcs_modifier SET valid_to = @to WHERE modifier = @code AND valid_from <= @to AND (valid_to IS NULL OR valid_to > @to)
       AND source_id IN (SELECT id FROM source WHERE valid_from <= @release)`,
  );
  for (const c of corrections) {
    const modifier = c.code.length === 2;
    if (c.kind === 'discontinue') {
      (modifier ? endModifier : endCode).run({ code: c.code, to: dayBefore(c.valid_from), release: c.release_from });
    } else if (modifier ? !hasModifier.get(c.code) : !hasCode.get(c.code)) {
      if (modifier) {
        addModifier.run(c);
      } else {
        addCode.run({ ...c, xref: JSON.stringify(c.xref_code ? [c.xref_code] : []) });
      }
    }
  }
}

interface DetailRow {
  code: string;
  short_desc: string | null;
  long_desc: string | null;
  valid_from: string;
  valid_to: string | null;
  source_id: number;
  release_from: string;
}

/**
 * Writes `code` rows (system HCPCS) from `hcpcs_code`. With one release a code gets one interval, from its added date
 * to its termination date. When several releases are loaded, releases with the same titles merge; a changed title
 * starts a new interval at the release that brings it, and a code missing from a later release without a
 * termination date ends the day before that release.
 */
function writeCodeIntervals(db: Database.Database): void {
  const releases = (
    db.prepare("SELECT DISTINCT valid_from FROM source WHERE dataset = 'hcpcs' ORDER BY valid_from").all() as {
      valid_from: string;
    }[]
  ).map((r) => r.valid_from);
  const rows = db
    .prepare(
      `SELECT h.code, h.short_desc, h.long_desc, h.valid_from, h.valid_to, h.source_id, s.valid_from AS release_from
       FROM hcpcs_code h JOIN source s ON s.id = h.source_id ORDER BY h.code, s.valid_from, h.source_id`,
    )
    .all() as DetailRow[];
  const insert = db.prepare(
    `INSERT INTO code (system, code, valid_from, valid_to, billable, short_title, long_title, ord, first_source_id, last_source_id)
     VALUES (?, ?, ?, ?, 1, ?, ?, NULL, ?, ?)`,
  );
  type Interval = {
    code: string;
    from: string;
    to: string | null;
    short: string | null;
    long: string | null;
    first: number;
    last: number;
    lastRelease: string;
  };
  let open: Interval | undefined;
  const flush = (): void => {
    if (open) {
      const next = releases.find((r) => r > open!.lastRelease);
      const to = open.to ?? (next ? dayBefore(next) : null);
      insert.run(CodeSystem.HCPCS, open.code, open.from, to, open.short, open.long, open.first, open.last);
      open = undefined;
    }
  };
  for (const row of rows) {
    if (open?.code === row.code && open.short === row.short_desc && open.long === row.long_desc) {
      Object.assign(open, { to: row.valid_to, last: row.source_id, lastRelease: row.release_from });
      continue;
    }
    if (open?.code === row.code) {
      const from = row.release_from > row.valid_from ? row.release_from : row.valid_from;
      if (row.valid_to !== null && row.valid_to < from) {
        // A code terminated before this release: a retouched title never applied, the dates stand.
        Object.assign(open, { to: row.valid_to, last: row.source_id, lastRelease: row.release_from });
        continue;
      }
      if (from <= open.from) {
        // The earlier title never applied on its own: the newer release replaces it outright.
        open = {
          ...open,
          short: row.short_desc,
          long: row.long_desc,
          to: row.valid_to,
          last: row.source_id,
          lastRelease: row.release_from,
        };
        continue;
      }
      const previousEnd = dayBefore(from);
      open.to = open.to !== null && open.to < previousEnd ? open.to : previousEnd;
      open.lastRelease = row.release_from;
      flush();
      open = {
        code: row.code,
        from,
        to: row.valid_to,
        short: row.short_desc,
        long: row.long_desc,
        first: row.source_id,
        last: row.source_id,
        lastRelease: row.release_from,
      };
      continue;
    }
    flush();
    open = {
      code: row.code,
      from: row.valid_from,
      to: row.valid_to,
      short: row.short_desc,
      long: row.long_desc,
      first: row.source_id,
      last: row.source_id,
      lastRelease: row.release_from,
    };
  }
  flush();
}

/** The HCPCS Level II loader: contractor file, processing notes, NOC list and corrections. */
export const hcpcsLoader: Loader = {
  name: 'hcpcs',
  version: 1,
  ddl: `
-- List fields (up to 4 pricing indicators, 3 CIM and 3 MCM references, 8 lab certifications, 5 cross-references,
-- 5 types of service) are JSON arrays. desc_lines counts the records (RIC 3 + its RIC 4 lines) the long description
-- spans; 0 for a code or modifier added from the corrections sheet. line is the first record's line in the file.
CREATE TABLE hcpcs_code (
  code TEXT NOT NULL,
  seq INTEGER NOT NULL,
  long_desc TEXT,
  short_desc TEXT,
  pricing_indicators TEXT NOT NULL,
  multiple_pricing_indicator TEXT,
  cim_refs TEXT NOT NULL,
  mcm_refs TEXT NOT NULL,
  statute TEXT,
  lab_cert_codes TEXT NOT NULL,
  xref_codes TEXT NOT NULL,
  coverage_code TEXT,
  asc_group TEXT,
  asc_effective_date TEXT,
  mog_group TEXT,
  mog_policy_indicator TEXT,
  mog_effective_date TEXT,
  processing_note TEXT,
  betos TEXT,
  type_of_service TEXT NOT NULL,
  anesthesia_base_units INTEGER,
  added_date TEXT,
  action_effective_date TEXT,
  termination_date TEXT,
  action_code TEXT,
  valid_from TEXT NOT NULL,
  valid_to TEXT,
  desc_lines INTEGER NOT NULL,
  line INTEGER NOT NULL,
  source_id INTEGER NOT NULL REFERENCES source(id),
  PRIMARY KEY (code, source_id)
) WITHOUT ROWID;
CREATE TABLE hcpcs_modifier (
  modifier TEXT NOT NULL,
  seq INTEGER NOT NULL,
  long_desc TEXT,
  short_desc TEXT,
  cim_refs TEXT NOT NULL,
  mcm_refs TEXT NOT NULL,
  xref_codes TEXT NOT NULL,
  coverage_code TEXT,
  processing_note TEXT,
  added_date TEXT,
  action_effective_date TEXT,
  termination_date TEXT,
  action_code TEXT,
  valid_from TEXT NOT NULL,
  valid_to TEXT,
  desc_lines INTEGER NOT NULL,
  line INTEGER NOT NULL,
  source_id INTEGER NOT NULL REFERENCES source(id),
  PRIMARY KEY (modifier, source_id)
) WITHOUT ROWID;
CREATE TABLE hcpcs_processing_note (
  note TEXT NOT NULL,
  text TEXT NOT NULL,
  valid_from TEXT NOT NULL,
  valid_to TEXT,
  line INTEGER NOT NULL,
  source_id INTEGER NOT NULL REFERENCES source(id),
  PRIMARY KEY (note, source_id)
) WITHOUT ROWID;
CREATE TABLE hcpcs_noc (
  code TEXT NOT NULL,
  long_desc TEXT NOT NULL,
  added_date TEXT NOT NULL,
  termination_date TEXT,
  valid_from TEXT NOT NULL,
  valid_to TEXT,
  line INTEGER NOT NULL,
  source_id INTEGER NOT NULL REFERENCES source(id),
  PRIMARY KEY (code, source_id)
) WITHOUT ROWID;
CREATE TABLE hcpcs_correction (
  code TEXT NOT NULL,
  action TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('add', 'discontinue', 'restore', 'change')),
  effective_date TEXT,
  effective_date_text TEXT,
  short_desc TEXT,
  long_desc TEXT,
  type_of_service TEXT NOT NULL,
  betos TEXT,
  coverage_code TEXT,
  pricing_indicators TEXT NOT NULL,
  xref_code TEXT,
  asc_group TEXT,
  asc_effective_date TEXT,
  comments TEXT,
  valid_from TEXT NOT NULL,
  valid_to TEXT,
  line INTEGER NOT NULL,
  source_id INTEGER NOT NULL REFERENCES source(id),
  PRIMARY KEY (source_id, line)
) WITHOUT ROWID;
CREATE INDEX hcpcs_correction_by_code ON hcpcs_correction (code);
`,
  async recognise(file, probe) {
    if (!/\.zip$/i.test(file.name)) {
      const unit = await unitFor(file.name, (n) => probe.head(undefined, n), undefined);
      return unit ? [unit] : [];
    }
    const units: SourceUnit[] = [];
    for (const member of await probe.members()) {
      const unit = await unitFor(member, (n) => probe.head(member, n), member);
      if (unit) {
        units.push(unit);
      }
    }
    return units;
  },
  async load(ctx) {
    switch (ctx.unit.dataset) {
      case 'hcpcs':
        return loadContractorFile(ctx);
      case 'hcpcs-proc-notes':
        return loadProcessingNotes(ctx);
      case 'hcpcs-noc':
        return loadNoc(ctx);
      case 'hcpcs-corrections':
        return loadCorrections(ctx);
      default:
        throw new ReferenceDataError(
          { file: ctx.file.relPath, member: ctx.unit.member },
          `hcpcs loader has no dataset ${ctx.unit.dataset}`,
        );
    }
  },
  finalize(db) {
    applyCorrections(db);
    writeCodeIntervals(db);
  },
};
