// Streaming claim CSV reader (issue 12 §2): records split on the main thread (csv-records.ts: BOM, CRLF, quoted
// cells over several lines), adjacent records of one claim id grouped, cells split and checked into claims
// (csv-claims.ts; in the batch pipeline that last step runs in the workers). An unreadable record (unclosed quote)
// is rejected with its line, and its claim with it when its id can be read.
import type { Readable } from 'node:stream';
import { ScrubberError } from '../../errors.js';
import { FaultAfterData } from '../faults.js';
import { cellsOf, claimOfCsvRows, csvColumnMap, CsvClaimGrouper, type CsvColumnMap, type CsvRowGroup } from './csv-claims.js';
import { readCsvRecords, type CsvRecord } from './csv-records.js';
import type { ReadItem } from './types.js';

/** One claim's records and the file's column map (the same object for every group of a file). */
export interface CsvGroupItem {
  readonly columns: CsvColumnMap;
  readonly group: CsvRowGroup;
}

/** A data record of a claim CSV with the file's column map. */
export interface CsvRecordItem {
  readonly columns: CsvColumnMap;
  readonly record: CsvRecord;
}

/**
 * Yields the data records of a claim CSV (the header read into the column map), in file order.
 * @param source - the file's bytes (UTF-8, BOM accepted)
 * @param file - the file name, for messages
 * @throws ScrubberError INPUT_FORMAT when the file has no header or lacks a required column
 */
export async function* readCsvClaimRecords(source: Readable, file: string): AsyncGenerator<CsvRecordItem> {
  let columns: CsvColumnMap | undefined;
  for await (const records of readCsvRecords(source)) {
    for (const record of records) {
      if (columns === undefined) {
        const header = cellsOf(record.text);
        if (!Array.isArray(header)) {
          throw new ScrubberError('INPUT_FORMAT', `${file}:${record.line}: the header row is unreadable: ${header.problem}`);
        }
        columns = csvColumnMap(header, file);
        continue;
      }
      yield { columns, record };
    }
  }
  if (columns === undefined) {
    throw new ScrubberError('INPUT_FORMAT', `${file}: empty file: a claim CSV starts with a header row`);
  }
}

/**
 * A claim whose rows may go on past a fault that stops the file being read: rejected whole, its last row read saying
 * why (the others are "rejected whole" by it).
 * @param fault - the reader's error
 * @param lastLine - with --group-by, the last line read (any claim may have rows after it); else the claim's last
 *   row is the last one read
 */
export function cutShort(group: CsvRowGroup, fault: unknown, lastLine?: number): CsvRowGroup {
  const last = group.records.at(-1);
  if (last === undefined) {
    return group;
  }
  const [past, after] = lastLine === undefined ? ['this row', 'after it'] : ['that point', `after line ${String(lastLine)}`];
  const why = `the file cannot be read past ${past} (${fault instanceof Error ? fault.message : String(fault)}): rows of this claim ${after} may be lost`;
  const problem = last.problem === undefined ? why : `${last.problem}; ${why}`;
  return { ...group, records: [...group.records.slice(0, -1), { ...last, problem }] };
}

/**
 * Yields the record groups of a claim CSV, one per run of a claim id, in file order.
 * @param source - the file's bytes (UTF-8, BOM accepted)
 * @param file - the file name, for messages
 * @throws ScrubberError INPUT_FORMAT when the file has no header or lacks a required column
 */
export async function* readCsvRowGroups(source: Readable, file: string): AsyncGenerator<CsvGroupItem> {
  let columns: CsvColumnMap | undefined;
  let grouper: CsvClaimGrouper | undefined;
  try {
    for await (const item of readCsvClaimRecords(source, file)) {
      columns = item.columns;
      grouper ??= new CsvClaimGrouper(columns.at.claimId);
      const done = grouper.push(item.record);
      if (done !== undefined) {
        yield { columns, group: done };
      }
    }
  } catch (e) {
    // The file cannot be read on (a gzip cut short): the claim whose rows were being read may have lost some, so it
    // is rejected whole, its last row read saying why, before the fault goes up (no claim is lost unreported). A
    // fault after whole data (FaultAfterData) cut nothing: the last claim is whole.
    const cut = grouper?.flush();
    if (columns !== undefined && cut !== undefined && cut.records.length > 0) {
      yield { columns, group: e instanceof FaultAfterData ? cut : cutShort(cut, e) };
    }
    throw e;
  }
  const last = grouper?.flush();
  if (columns !== undefined && last !== undefined) {
    yield { columns, group: last };
  }
}

/**
 * Yields the claims of a claim CSV (and the claims that could not be read), in file order.
 * @param source - the file's bytes
 * @param file - the file name, for provenance
 */
export async function* readCsvClaims(source: Readable, file: string): AsyncGenerator<ReadItem> {
  for await (const { columns, group } of readCsvRowGroups(source, file)) {
    yield claimOfCsvRows(group, columns, file);
  }
}
