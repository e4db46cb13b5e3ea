// Streaming claim CSV reader (issue 12 §2): csv-parse (BOM, CRLF, quoted cells) → adjacent rows of one claim id →
// claims. A row csv-parse cannot read (unclosed quote, stray quote) joins its claim, which is then rejected whole.
import { parse, type CsvError, type Info } from 'csv-parse';
import type { Readable } from 'node:stream';
import { ScrubberError } from '../../errors.js';
import { claimOfCsvRows, csvColumnMap, CsvClaimGrouper, type CsvColumnMap, type CsvRowGroup } from './csv-claims.js';
import type { ReadItem } from './types.js';

/** One claim's rows and the file's column map (the same object for every group of a file). */
export interface CsvGroupItem {
  readonly columns: CsvColumnMap;
  readonly group: CsvRowGroup;
}

/**
 * Yields the row groups of a claim CSV, one per claim id run, in file order.
 * @param source - the file's bytes (UTF-8, BOM accepted)
 * @param file - the file name, for messages
 * @throws ScrubberError INPUT_FORMAT when the file has no header or lacks a required column
 */
export async function* readCsvRowGroups(source: Readable, file: string): AsyncGenerator<CsvGroupItem> {
  const pending: { line: number; reason: string; raw: string | undefined }[] = [];
  const parser = source.pipe(
    parse({
      bom: true,
      info: true,
      relaxColumnCount: true,
      skipEmptyLines: true,
      skipRecordsWithError: true,
      onSkip: (err: CsvError | undefined, raw: string | undefined): undefined => {
        const line = typeof err?.lines === 'number' ? err.lines : 0;
        pending.push({ line, reason: `unreadable CSV row: ${err?.message ?? 'parse error'}`, raw });
        return undefined;
      },
    }),
  );
  source.on('error', (err) => parser.destroy(err));
  let columns: CsvColumnMap | undefined;
  let grouper: CsvClaimGrouper | undefined;
  // csv-parse reports a skipped row when it parses it, which may be before the for-await below has taken the rows
  // above it: skipped rows are merged in by line number, so each lands between the rows around it.
  function* skippedBefore(line: number): Generator<CsvGroupItem> {
    while (pending.length > 0 && (pending[0]?.line ?? 0) < line && columns !== undefined && grouper !== undefined) {
      const bad = pending.shift() as (typeof pending)[number];
      const done = grouper.pushUnreadable(Math.max(bad.line, 1), bad.reason, bad.raw);
      if (done !== undefined) {
        yield { columns, group: done };
      }
    }
  }
  for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: Info }>) {
    if (columns === undefined || grouper === undefined) {
      columns = csvColumnMap(record, file);
      grouper = new CsvClaimGrouper(columns.claimId);
      continue;
    }
    yield* skippedBefore(info.lines);
    const done = grouper.push(record, info.lines);
    if (done !== undefined) {
      yield { columns, group: done };
    }
  }
  if (columns === undefined || grouper === undefined) {
    throw new ScrubberError('INPUT_FORMAT', `${file}: empty file: a claim CSV starts with a header row`);
  }
  yield* skippedBefore(Number.POSITIVE_INFINITY);
  const last = grouper.flush();
  if (last !== undefined) {
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
