// Claim CSV records → claims (issue 12 §2). Two pure halves so the batch pipeline can split them across threads:
// `CsvClaimGrouper` (main thread) gathers the adjacent records of one claim id as text, reading only the id cell,
// and `claimOfCsvRows` (worker) splits their cells and turns them into a Claim, or rejects the claim whole, naming
// the line and column of the first problem.
//
//   readCsvRecords ──CsvClaimGrouper──> CsvRowGroup (record texts + lines) ──claimOfCsvRows──> ReadItem
import { parse as parseCsv } from 'csv-parse/sync';
import { type Claim, PoaIndicator, ProviderType, REVENUE_CODE, parseBillType, parseClaim, parseIcdType } from '../../schemas/claim.js';
import {
  CLAIM_CSV_COLUMNS,
  REQUIRED_CLAIM_CSV_COLUMNS,
  type ClaimCsvColumn,
} from '../../schemas/claim-csv.js';
import type { RejectedRecord } from '../../schemas/scrub.js';
import { ScrubberError } from '../../errors.js';
import { isDecimal, MAX_LINE_NUMBER_DIGITS, MAX_UNITS_CHARS } from './decimal.js';
import { nothingToCheck, rejectedRecord, type ReadItem } from './types.js';
import type { CsvRecord } from './csv-records.js';
import { withoutNul } from './utf8.js';

/** A file's header as the rows are read against it. Plain data: it crosses to worker threads. */
export interface CsvColumnMap {
  /** Where each contract column sits in a row (`-1` absent). */
  readonly at: Readonly<Record<ClaimCsvColumn, number>>;
  /** The header's field count, unknown columns included: every row has as many (one more is a comma out of place). */
  readonly fields: number;
}

/**
 * Maps a header row onto the contract's columns, case-insensitively; unknown columns are kept and ignored.
 * @param header - the first record of the file
 * @param file - for the error message
 * @returns the column map
 * @throws ScrubberError INPUT_FORMAT when a required column is missing or a column appears twice
 */
export function csvColumnMap(header: readonly string[], file: string): CsvColumnMap {
  const byName = new Map<string, number>();
  header.forEach((name, i) => {
    const key = name.trim().replace(/^\uFEFF/, '').toLowerCase();
    if (byName.has(key) && CLAIM_CSV_COLUMNS.some((c) => c.toLowerCase() === key)) {
      throw new ScrubberError('INPUT_FORMAT', `${file}: the header names column ${name.trim()} twice`);
    }
    byName.set(key, i);
  });
  const map = {} as Record<ClaimCsvColumn, number>;
  for (const column of CLAIM_CSV_COLUMNS) {
    map[column] = byName.get(column.toLowerCase()) ?? -1;
  }
  const missing = REQUIRED_CLAIM_CSV_COLUMNS.filter((c) => map[c] < 0);
  if (missing.length > 0) {
    throw new ScrubberError(
      'INPUT_FORMAT',
      `${file}: the header lacks the required column${missing.length > 1 ? 's' : ''} ${missing.join(', ')} ` +
        `(a claim CSV needs ${REQUIRED_CLAIM_CSV_COLUMNS.join(', ')})`,
    );
  }
  return { at: map, fields: header.length };
}

/** The records of one claim, as text (cells are split in the worker by `claimOfCsvRows`). */
export interface CsvRowGroup {
  readonly claimId: string;
  readonly records: CsvRecord[];
}

/**
 * The cells of a record: `split(',')` when it has no quote, csv-parse otherwise (quoted commas, "" and newlines).
 * @returns the cells, or the parser's complaint
 */
export function cellsOf(text: string): string[] | { problem: string } {
  if (!text.includes('"')) {
    return text.split(',');
  }
  try {
    const rows: string[][] = parseCsv(text, { relaxColumnCount: true });
    if (rows.length !== 1) {
      return { problem: `unreadable CSV row: ${rows.length} records on one row` };
    }
    return rows[0] as string[];
  } catch (e) {
    // csv-parse's message quotes the cell at fault (patient data, perhaps): its code says what is wrong.
    const code = (e as { code?: unknown }).code;
    return { problem: `unreadable CSV row: ${typeof code === 'string' ? code : 'not CSV'} (a misplaced quote?)` };
  }
}

/**
 * The claim id cell of a record, read without splitting the whole record when it has no quote.
 * @returns the trimmed cell; `undefined` when the record is unreadable or too short
 */
export function claimIdOf(text: string, column: number): string | undefined {
  if (!text.includes('"')) {
    let from = 0;
    for (let i = 0; i < column; i++) {
      const comma = text.indexOf(',', from);
      if (comma === -1) {
        return undefined;
      }
      from = comma + 1;
    }
    const end = text.indexOf(',', from);
    return text.slice(from, end === -1 ? text.length : end).trim();
  }
  const cells = cellsOf(text);
  return Array.isArray(cells) ? cells[column]?.trim() : undefined;
}

/**
 * The cells of an unreadable record, read leniently: a quote opens a quoted cell only at the cell's start (as in
 * CSV), where a comma or line break does not end the cell and `""` is a quote; a quote elsewhere is dropped. When the
 * text ends inside quotes (the fault may be that quote), the cells before the one it opened stand and the rest of
 * its line is split on every comma, quotes dropped.
 */
function lenientCellsOf(text: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let cellStart = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (quoted) {
      if (c !== '"') {
        cell += c;
      } else if (text[i + 1] === '"') {
        cell += c;
        i++;
      } else {
        quoted = false;
      }
    } else if (c === '"') {
      quoted = i === cellStart;
    } else if (c === ',') {
      cells.push(cell);
      cell = '';
      cellStart = i + 1;
    } else if (c === '\n' || c === '\r') {
      // The record's first line ends its cells (only a quoted cell goes on past a line break).
      break;
    } else {
      cell += c;
    }
  }
  if (quoted) {
    return cells.concat((text.slice(cellStart).split(/\r?\n/, 1)[0] ?? '').replace(/"/g, '').split(','));
  }
  cells.push(cell);
  return cells;
}

/**
 * The id cell of an unreadable record, read leniently (lenientCellsOf: a quoted id holding a comma is read whole, so
 * the record stays with its claim), a NUL byte (a record holding one is unreadable) written U+FFFD
 * (withoutNul); blank → undefined.
 */
function naiveIdOf(text: string, column: number): string | undefined {
  const cell = lenientCellsOf(text)[column]?.trim();
  return cell === undefined || cell === '' ? undefined : withoutNul(cell);
}

/**
 * The claim a record belongs to. A record that cannot be read still names its claim when its id cell can be read
 * leniently (naiveIdOf): it then stays with its claim, so the claim is rejected whole, not scrubbed in pieces.
 * `undefined` when no id can be read.
 */
export function claimOfRecord(record: CsvRecord, idColumn: number): string | undefined {
  return (record.problem === undefined ? claimIdOf(record.text, idColumn) : undefined) ?? naiveIdOf(record.text, idColumn);
}

/** Gathers adjacent records with the same claim id (an unreadable record stands alone unless its id is readable). */
export class CsvClaimGrouper {
  private current: CsvRowGroup | undefined;
  constructor(private readonly idColumn: number) {}

  /**
   * Adds a record; returns the previous claim's group when this record starts another claim.
   * @param record - the record's text and line
   */
  push(record: CsvRecord): CsvRowGroup | undefined {
    const id = claimOfRecord(record, this.idColumn);
    const cur = this.current;
    if (cur !== undefined && id !== undefined && cur.claimId === id) {
      cur.records.push(record);
      return undefined;
    }
    this.current = { claimId: id ?? '', records: [record] };
    return cur;
  }

  /** The last claim's group, at end of input. */
  flush(): CsvRowGroup | undefined {
    const cur = this.current;
    this.current = undefined;
    return cur;
  }
}

// ---- group → claim -------------------------------------------------------------------------------------------

/** Why a row (or the claim) is wrong: thrown inside `claimOfCsvRows` only, caught there. */
class RowProblem extends Error {
  constructor(
    readonly line: number,
    readonly reason: string,
  ) {
    super(reason);
  }
}

/**
 * Each faulty row's own first problem, physical line → reason: a claim is rejected with every row's fault named, not
 * only the first (a biller fixing one fault per run would see the next one only the night after).
 */
type RowFaults = Map<number, string>;

/** The faults of the claim being read (see claimOfCsvRows): most claims have none, so no map is made per claim. */
const FAULTS: RowFaults = new Map();

const CLAIM_LEVEL: readonly ClaimCsvColumn[] = [
  'patientId',
  'patientBirthDate',
  'patientSex',
  'claimType',
  'providerType',
  'billingProviderState',
  'billingProviderZip',
  'contractorNumber',
  'payerCode',
  'diagnosisCodes',
  'poaIndicators',
  'icdType',
  'billType',
];

const ISO_DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const PROVIDER_TYPES = new Map(ProviderType.options.map((t) => [t.toLowerCase(), t]));
const POA = new Set<string>(PoaIndicator.options);

/** A cell's value as a message quotes it: JSON-quoted, cut to 64 characters (a reason is not a copy of the row). */
function shown(value: string): string {
  return JSON.stringify(value.length > 64 ? `${value.slice(0, 64)}…` : value);
}

/** Patient columns: a message names the column, never the value (rejected.csv is not a place for patient data). */
const PATIENT_COLUMNS: ReadonlySet<ClaimCsvColumn> = new Set(['patientId', 'patientBirthDate', 'patientSex']);

/** Each contract column's position in CLAIM_CSV_COLUMNS: `at[COLUMN.procedureCode]` (see positionsOf). */
const COLUMN = Object.fromEntries(CLAIM_CSV_COLUMNS.map((c, i) => [c, i])) as Readonly<Record<ClaimCsvColumn, number>>;

/**
 * Where each contract column sits in a file's rows, by its position in CLAIM_CSV_COLUMNS (`-1` absent), made once
 * per column map: looking a cell up by column name (`columns.at[name]`, a different key each time) cost more than
 * reading it.
 */
function positionsOf(columns: CsvColumnMap): Int32Array {
  let at = POSITIONS.get(columns);
  if (at === undefined) {
    at = Int32Array.from(CLAIM_CSV_COLUMNS, (c) => columns.at[c]);
    POSITIONS.set(columns, at);
  }
  return at;
}
const POSITIONS = new WeakMap<CsvColumnMap, Int32Array>();

/** A row's cell at a position, trimmed ('' for an absent column). */
function cellAt(row: readonly string[], i: number): string {
  return i < 0 ? '' : trimmed(row[i] ?? '');
}

/** `text.trim()`, without the call when both ends are printable ASCII (nearly every cell). */
function trimmed(text: string): string {
  const n = text.length;
  if (n === 0) {
    return text;
  }
  const first = text.charCodeAt(0);
  const last = text.charCodeAt(n - 1);
  return first > 0x20 && first < 0x7f && last > 0x20 && last < 0x7f ? text : text.trim();
}

/** A list cell split on `|`, blanks kept in place (parallel lists), trailing blanks dropped. */
function listOf(cell: string): string[] {
  if (cell === '') {
    return [];
  }
  if (!cell.includes('|')) {
    const one = trimmed(cell);
    return one === '' ? [] : [one];
  }
  const parts = cell.split('|');
  for (let i = 0; i < parts.length; i++) {
    parts[i] = trimmed(parts[i] as string);
  }
  while (parts.length > 0 && parts[parts.length - 1] === '') {
    parts.pop();
  }
  return parts;
}

const DAYS_IN_MONTH = [0, 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** A real calendar date (`2026-02-30` and `2025-02-29` are not). */
function isIsoDate(text: string): boolean {
  // A claim's rows nearly always carry the date the row before had.
  if (text === lastIsoDate) {
    return true;
  }
  if (!ISO_DATE.test(text)) {
    return false;
  }
  const year = Number(text.slice(0, 4));
  const month = Number(text.slice(5, 7));
  const day = Number(text.slice(8, 10));
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const real = day <= (month === 2 && !leap ? 28 : (DAYS_IN_MONTH[month] ?? 0));
  if (real) {
    lastIsoDate = text;
  }
  return real;
}
/** The last text isIsoDate found a real date. */
let lastIsoDate = '';

/**
 * Turns the rows of one claim into a Claim, or rejects the claim whole: every row becomes a rejected record, the
 * row at fault with the reason and the others pointing at it.
 * @param group - the claim's rows as text
 * @param columns - the file's column map
 * @param file - the file name, for provenance
 * @returns the claim, or the rejected records (one per row)
 */
export function claimOfCsvRows(group: CsvRowGroup, columns: CsvColumnMap, file: string): ReadItem {
  const claimId = group.claimId === '' ? undefined : group.claimId;
  const lines = group.records.map((r) => r.line);
  // One map for every claim of the thread, emptied here: a claim's faults are read before the next claim starts.
  // (Only when it holds any: Map#clear makes a new table, most of this function's time when called per claim.)
  const faults = FAULTS;
  if (faults.size > 0) {
    faults.clear();
  }
  try {
    const rows: string[][] = [];
    for (const r of group.records) {
      const cells = r.problem === undefined ? cellsOf(r.text) : { problem: r.problem };
      if (Array.isArray(cells)) {
        rows.push(cells);
      } else {
        faults.set(r.line, cells.problem);
      }
    }
    if (faults.size > 0) {
      throw firstFault(faults);
    }
    const claim = buildClaim(group.claimId, rows, lines, columns, faults);
    const empty = nothingToCheck(claim);
    if (empty !== undefined) {
      throw new RowProblem(lines[0] ?? 1, `${empty}; are the claim's rows adjacent (else give --group-by claimId)?`);
    }
    const revenueOnlyLines = rows.length - claim.lines.length;
    return revenueOnlyLines > 0
      ? { kind: 'claim', claim, file, line: lines[0] ?? 1, inputLines: rows.length, revenueOnlyLines }
      : { kind: 'claim', claim, file, line: lines[0] ?? 1, inputLines: rows.length };
  } catch (e) {
    if (!(e instanceof RowProblem)) {
      throw e;
    }
    // The claim's own fault (a claim-level cell), else the first row's, leads; every faulty row names its own.
    if (!faults.has(e.line)) {
      faults.set(e.line, e.reason);
    }
    const records: RejectedRecord[] = lines.map((line) => {
      const reason = faults.get(line) ?? `claim rejected whole: line ${e.line}: ${e.reason}`;
      return rejectedRecord(file, line, claimId, reason);
    });
    return { kind: 'rejected', file, claimId, records };
  }
}

/** Whether lines are in line-number order already (as a file's rows nearly always are). */
function inLineOrder(lines: readonly { lineNumber: number }[]): boolean {
  for (let i = 1; i < lines.length; i++) {
    if ((lines[i - 1] as { lineNumber: number }).lineNumber > (lines[i] as { lineNumber: number }).lineNumber) {
      return false;
    }
  }
  return true;
}

/** The fault of the first faulty row (`faults` not empty). */
function firstFault(faults: RowFaults): RowProblem {
  const line = Math.min(...faults.keys());
  return new RowProblem(line, faults.get(line) ?? '');
}

/** Sets a member when its text is not blank. */
function setIf(target: Record<string, unknown>, key: string, text: string): void {
  if (text !== '') {
    target[key] = text;
  }
}

/**
 * The rows → Claim conversion. Each row's own fault goes into `faults` and the rows are read on; the first fault, or
 * the claim's own (a claim-level cell), is thrown as a RowProblem naming the row and column.
 */
function buildClaim(claimId: string, rows: string[][], lines: number[], columns: CsvColumnMap, faults: RowFaults): Claim {
  const firstLine = lines[0] ?? 1;
  if (claimId === '') {
    throw new RowProblem(firstLine, 'claimId is blank');
  }
  const at = positionsOf(columns);
  const cell = (row: string[], column: ClaimCsvColumn): string => cellAt(row, at[COLUMN[column]] as number);
  // A row with another field count than the header's has its cells under the wrong columns from some point on (a
  // comma in an unquoted cell, a cell left out): none of its values can be trusted.
  for (let r = 0; r < rows.length; r++) {
    const fields = (rows[r] as string[]).length;
    if (fields !== columns.fields) {
      faults.set(
        lines[r] ?? firstLine,
        `the row has ${fields} fields; the header has ${columns.fields}${fields > columns.fields ? ' (a comma in a cell that is not quoted?)' : ''}`,
      );
    }
  }
  if (faults.size > 0) {
    // Cells under the wrong columns: not read as claim values.
    throw firstFault(faults);
  }

  // Step 1: claim-level cells: the first non-blank value; a later row with another non-blank value is a conflict.
  // (Loops without closures: a closure over the loop's variables costs a context per column and claim.)
  const claimCells = {} as Record<ClaimCsvColumn, string>;
  for (const column of CLAIM_LEVEL) {
    const i = at[COLUMN[column]] as number;
    let value = '';
    for (let r = 0; r < rows.length; r++) {
      const v = cellAt(rows[r] as string[], i);
      if (v === '') {
        continue;
      }
      if (value === '') {
        value = v;
      } else if (v !== value && !faults.has(lines[r] ?? firstLine)) {
        faults.set(
          lines[r] ?? firstLine,
          PATIENT_COLUMNS.has(column)
            ? `${column} differs from the value on an earlier row of the claim`
            : `${column} ${shown(v)} differs from ${shown(value)} on an earlier row of the claim`,
        );
      }
    }
    claimCells[column] = value;
  }
  const claimProblem = (column: ClaimCsvColumn, what: string): RowProblem => {
    const r = rows.findIndex((row) => cell(row, column) !== '');
    return new RowProblem(lines[Math.max(r, 0)] ?? firstLine, `${column}: ${what}`);
  };

  // Step 2: claim fields.
  const claimType = claimCells.claimType.toLowerCase();
  if (claimType !== 'professional' && claimType !== 'institutional' && claimType !== 'dme') {
    throw claimProblem('claimType', `${shown(claimCells.claimType)} is not professional, institutional or dme`);
  }
  const birthDate = claimCells.patientBirthDate;
  if (birthDate !== '' && !isIsoDate(birthDate)) {
    throw claimProblem('patientBirthDate', 'not a YYYY-MM-DD date');
  }
  const sex = claimCells.patientSex.toUpperCase();
  if (sex !== '' && sex !== 'M' && sex !== 'F' && sex !== 'U') {
    throw claimProblem('patientSex', 'not M, F or U');
  }
  const providerType = claimCells.providerType === '' ? undefined : PROVIDER_TYPES.get(claimCells.providerType.toLowerCase());
  if (claimCells.providerType !== '' && providerType === undefined) {
    throw claimProblem('providerType', `${shown(claimCells.providerType)} is not one of ${ProviderType.options.join(', ')}`);
  }
  const icdType = claimCells.icdType === '' ? undefined : parseIcdType(claimCells.icdType);
  if (claimCells.icdType !== '' && icdType === undefined) {
    throw claimProblem('icdType', `${shown(claimCells.icdType)} is not ICD-10 CM or ICD-9 CM`);
  }
  const billType = claimCells.billType === '' ? '' : (parseBillType(claimCells.billType) ?? '');
  if (claimCells.billType !== '' && billType === '') {
    throw claimProblem('billType', `${shown(claimCells.billType)} is not a UB-04 type of bill such as 0111`);
  }
  const codes = listOf(claimCells.diagnosisCodes);
  const poas = listOf(claimCells.poaIndicators);
  if (poas.length > codes.length) {
    throw claimProblem('poaIndicators', `${poas.length} indicators for ${codes.length} diagnosis codes`);
  }
  const diagnoses = codes.map((code, i) => {
    if (code === '') {
      throw claimProblem('diagnosisCodes', `diagnosis ${i + 1} is blank`);
    }
    const poa = (poas[i] ?? '').toUpperCase();
    if (poa !== '' && !POA.has(poa)) {
      throw claimProblem('poaIndicators', `${shown(poas[i] ?? '')} is not Y, N, U, W or 1`);
    }
    return poa === '' ? { code } : { code, poa: poa as PoaIndicator };
  });

  // Step 3: lines.
  let from = '';
  let to = '';
  // An institutional row with a revenue code and no procedure code (room and board, pharmacy, supplies) is a
  // revenue-only line, as an 837I SV2 without HCPCS: read and checked like any row, nothing for the engine to check.
  const readLine = (row: string[], r: number): { lineNumber: number } | undefined => {
    const line = lines[r] ?? firstLine;
    const problem = (column: ClaimCsvColumn, what: string): RowProblem => new RowProblem(line, `${column}: ${what}`);
    const numberText = cellAt(row, at[COLUMN.lineNumber] as number);
    const lineNumber =
      numberText === '' ? r + 1 : isDecimal(numberText, false) && numberText.length <= MAX_LINE_NUMBER_DIGITS ? Number(numberText) : 0;
    if (!Number.isInteger(lineNumber) || lineNumber < 1) {
      throw problem('lineNumber', `${shown(numberText)} is not a positive whole number`);
    }
    // A line number used twice is the claim.structure rule's CLAIM_DUPLICATE_LINE, as for an NDJSON or 837 claim.
    const date = cellAt(row, at[COLUMN.dateOfServiceFrom] as number);
    if (!isIsoDate(date)) {
      throw problem('dateOfServiceFrom', `${shown(date)} is not a YYYY-MM-DD date`);
    }
    const dateTo = cellAt(row, at[COLUMN.dateOfServiceTo] as number);
    if (dateTo !== '' && (!isIsoDate(dateTo) || dateTo < date)) {
      throw problem('dateOfServiceTo', `${shown(dateTo)} is not a YYYY-MM-DD date on or after dateOfServiceFrom`);
    }
    from = from === '' || date < from ? date : from;
    const last = dateTo === '' ? date : dateTo;
    to = last > to ? last : to;
    const procedureCode = cellAt(row, at[COLUMN.procedureCode] as number);
    const revenueCode = cellAt(row, at[COLUMN.revenueCode] as number);
    if (procedureCode === '' && (claimType !== 'institutional' || revenueCode === '')) {
      throw problem('procedureCode', claimType === 'institutional' ? 'blank, and the row has no revenueCode' : 'blank');
    }
    const modifiersText = cellAt(row, at[COLUMN.modifiers] as number);
    const modifiers = listOf(modifiersText).map((m) => m.toUpperCase());
    if (modifiers.length > 4 || modifiers.some((m) => !/^[A-Z0-9]{2}$/.test(m))) {
      throw problem('modifiers', `${shown(modifiersText)} is not up to 4 two-character modifiers separated by |`);
    }
    const unitsText = cellAt(row, at[COLUMN.units] as number);
    const units =
      unitsText === '' ? 1 : isDecimal(unitsText, true) && unitsText.length <= MAX_UNITS_CHARS ? Number(unitsText) : 0;
    if (units <= 0) {
      throw problem('units', `${shown(unitsText)} is not a positive decimal number of at most ${MAX_UNITS_CHARS} characters`);
    }
    const pointersText = cellAt(row, at[COLUMN.diagnosisPointers] as number);
    const pointerText = listOf(pointersText);
    // A pointer past the claim's diagnoses is a readable line: claim.structure reports it (CLAIM_POINTER_INVALID), as for
    // an 837's SV107 or an NDJSON claim, with the claim's other findings.
    const pointers: number[] = [];
    for (const p of pointerText) {
      pointers.push(Number(p));
    }
    if (pointerText.some((p) => !/^[1-9][0-9]?$/.test(p)) || pointers.length > 12) {
      throw problem('diagnosisPointers', `${shown(pointersText)} is not up to 12 diagnosis positions (whole numbers from 1) separated by |`);
    }
    const pos = cellAt(row, at[COLUMN.placeOfService] as number);
    if (pos !== '' && !/^\d{2}$/.test(pos)) {
      throw problem('placeOfService', `${shown(pos)} is not a 2-digit place of service`);
    }
    if (revenueCode !== '' && !REVENUE_CODE.test(revenueCode)) {
      throw problem('revenueCode', `${shown(revenueCode)} is not a 4-digit revenue code`);
    }
    if (procedureCode === '') {
      return undefined;
    }
    // Members set one by one, not spread in: see send() in src/http/wire/pipeline.ts (objects made with spreads
    // survive young-generation collections on node 20).
    const claimLine: Record<string, unknown> = { lineNumber, procedureCode, modifiers, units, dateOfService: date };
    if (pointers.length > 0) {
      claimLine['diagnosisPointers'] = pointers;
    }
    if (pos !== '') {
      claimLine['placeOfService'] = pos;
    }
    if (revenueCode !== '') {
      claimLine['revenueCode'] = revenueCode;
    }
    return claimLine as { lineNumber: number };
  };
  const claimLines: { lineNumber: number }[] = [];
  for (let r = 0; r < rows.length; r++) {
    try {
      const line = readLine(rows[r] as string[], r);
      if (line !== undefined) {
        claimLines.push(line);
      }
    } catch (e) {
      if (!(e instanceof RowProblem)) {
        throw e;
      }
      if (!faults.has(e.line)) {
        faults.set(e.line, e.reason);
      }
    }
  }
  if (faults.size > 0) {
    throw firstFault(faults);
  }

  // Step 4: the claim, checked against the model (the reader's edge: style.md guideline 4).
  // Members set one by one (see the lines above); the schema gives the parsed claim its member order.
  const patient: Record<string, string> = {};
  setIf(patient, 'id', claimCells.patientId);
  setIf(patient, 'birthDate', birthDate);
  setIf(patient, 'sex', sex);
  const provider: Record<string, string> = {};
  setIf(provider, 'type', providerType ?? '');
  setIf(provider, 'state', claimCells.billingProviderState.toUpperCase());
  setIf(provider, 'zip', claimCells.billingProviderZip);
  setIf(provider, 'contractorNumber', claimCells.contractorNumber);
  const candidate: Record<string, unknown> = { claimId, claimType };
  if (Object.keys(patient).length > 0) {
    candidate['patient'] = patient;
  }
  if (Object.keys(provider).length > 0) {
    candidate['provider'] = provider;
  }
  setIf(candidate, 'payerCode', claimCells.payerCode);
  candidate['dateOfServiceFrom'] = from;
  if (to !== from) {
    candidate['dateOfServiceTo'] = to;
  }
  // A type of bill describes an institutional claim only.
  setIf(candidate, 'billType', claimType === 'institutional' ? billType : '');
  setIf(candidate, 'icdType', icdType ?? '');
  candidate['diagnoses'] = diagnoses;
  // Lines in line-number order, whatever order the rows came in (--group-by gathers them from anywhere).
  candidate['lines'] = inLineOrder(claimLines) ? claimLines : claimLines.sort((a, b) => a.lineNumber - b.lineNumber);
  const parsed = parseClaim(candidate);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue?.path ?? [];
    const at = path[0] === 'lines' && typeof path[1] === 'number' ? (lines[path[1]] ?? firstLine) : firstLine;
    throw new RowProblem(at, `${path.join('.')}: ${issue?.message ?? 'invalid'}`);
  }
  return parsed.data;
}
