// Splits a CSV byte stream into records on the main thread at the speed of `indexOf`: a record ends at a newline
// outside quotes, so a quoted cell may hold commas, quotes ("") and newlines. Only lines that contain a quote are
// scanned byte by byte. A quote left open at the end of the file, or running over MAX_RECORD_BYTES (an unclosed
// quote in a big file), makes its first physical line an unreadable record and reading resumes on the next line,
// so memory stays bounded by one record; a line over MAX_RECORD_BYTES is one unreadable record, the rest of it passed
// over. Lines may end with LF, CRLF, or a bare CR throughout (told from the first line). Cells are split later, in
// the workers (csv-claims.ts).
import type { Readable } from 'node:stream';
import { dataOf } from '../faults.js';
import { lineLength } from '../lines.js';
import { textProblem } from './utf8.js';

/** One CSV record as text, without its line ending. */
export interface CsvRecord {
  readonly text: string;
  /** Physical line number of the record's first line (header = 1). */
  readonly line: number;
  /** Why the record cannot be read, when it cannot. */
  readonly problem?: string | undefined;
}

/** The most bytes one record may take before its opening quote is taken for an unclosed one. */
export const MAX_RECORD_BYTES = 1 << 20;

/** The reason a line over MAX_RECORD_BYTES is rejected with, in any line-based claim format. */
export const OVERLONG_LINE = `a line longer than ${MAX_RECORD_BYTES} bytes`;

const LF = 0x0a;
const QUOTE = 0x22;

/**
 * Counts the quotes of a buffer's byte ranges, asked in increasing order: it remembers the next quote, so a buffer
 * without quotes is searched once, not once per line (`indexOf` has no end bound: a search from each line's start
 * ran to the end of the buffer, quadratic in the lines a read holds).
 */
class QuoteCounter {
  /** The first quote at or after the last range asked; -1 when there is none; -2 before the first search. */
  private next = -2;

  constructor(private readonly buf: Buffer) {}

  /** Quotes in bytes [from, to); `from` at or after the previous call's `to`, unless after {@link rewind}. */
  count(from: number, to: number): number {
    if (this.next !== -1 && this.next < from) {
      this.next = this.buf.indexOf(QUOTE, from);
    }
    let n = 0;
    while (this.next !== -1 && this.next < to) {
      n++;
      this.next = this.buf.indexOf(QUOTE, this.next + 1);
    }
    return n;
  }

  /** Forgets the position, for ranges before the last one asked. */
  rewind(): void {
    this.next = -2;
  }
}

const COMMA = 0x2c;

/** How a line leaves its record: closed, inside a quoted cell, or with a quoted cell closed by a stray quote. */
type LineEnd = 'closed' | 'open' | 'broken';

/**
 * How bytes [from, to) (one line) leave a record, read as RFC 4180 and csv-parse read it: a quote opens a quoted cell
 * only as a cell's first character; inside an unquoted cell it is text (csv-parse then rejects that row alone), so
 * `2" long` does not run the record on over the next rows. `Broken` when a quote in a quoted cell is followed by
 * neither a quote, a comma nor the line's end (`"q"x`): that cell was not the quoted cell its opening quote promised.
 * @param quoted - whether the line starts inside a quoted cell (the record's previous line ended in one)
 */
function lineEnd(buf: Buffer, from: number, to: number, quoted: boolean): LineEnd {
  // 0 at a cell's start, 1 in an unquoted cell, 2 in a quoted cell, 3 after a quote in a quoted cell.
  let state = quoted ? 2 : 0;
  for (let i = from; i < to; i++) {
    const c = buf[i];
    if (state === 2) {
      state = c === QUOTE ? 3 : 2;
    } else if (state === 1) {
      state = c === COMMA ? 0 : 1;
    } else if (state === 0) {
      state = c === QUOTE ? 2 : c === COMMA ? 0 : 1;
    } else if (c === QUOTE) {
      state = 2; // "" inside a quoted cell
    } else if (c === COMMA) {
      state = 0;
    } else if (!(c === 0x0d && i === to - 1)) {
      return 'broken';
    }
  }
  return state === 2 ? 'open' : 'closed';
}

/** Text of bytes [from, to) without a trailing CR. */
function textOf(buf: Buffer, from: number, to: number): string {
  const end = to > from && buf[to - 1] === 0x0d ? to - 1 : to;
  return buf.toString('utf8', from, end);
}

/**
 * The record of bytes [from, to): unreadable when longer than MAX_RECORD_BYTES (its start only is kept) or not claim
 * text (see textProblem: not UTF-8, a NUL byte).
 */
function recordOf(buf: Buffer, from: number, to: number, line: number): CsvRecord {
  if (lineLength(buf, from, to) > MAX_RECORD_BYTES) {
    return overlong(buf, from, to, line);
  }
  const text = textOf(buf, from, to);
  const problem = textProblem(text);
  return problem === undefined ? { text, line } : { text, line, problem };
}

/** Bytes kept of each cell of a line over MAX_RECORD_BYTES, and cells kept. */
const OVERLONG_CELL = 64;
const OVERLONG_CELLS = 1024;

/**
 * The unreadable record of a line over MAX_RECORD_BYTES: the start of each of its cells (a comma inside a quoted
 * cell splits none) in their places, so the claim id is read from its column wherever the header puts it and the row
 * stays with its claim, which is then rejected whole. Only the cells of the bytes given are seen (a line read over
 * several reads: those of its first MiB).
 */
function overlong(buf: Buffer, from: number, to: number, line: number): CsvRecord {
  const cells: string[] = [];
  let cellStart = from;
  let quoted = false;
  for (let i = from; i <= to && cells.length < OVERLONG_CELLS; i++) {
    const c = i < to ? buf[i] : COMMA;
    if (c === QUOTE) {
      quoted = !quoted;
    } else if (c === COMMA && (!quoted || i === to)) {
      // Its quotes and commas go: the kept starts are read back by a plain split on commas.
      cells.push(textOf(buf, cellStart, Math.min(i, cellStart + OVERLONG_CELL)).replace(/[",]/g, ' ').trim());
      cellStart = i + 1;
    }
  }
  return { text: cells.join(','), line, problem: OVERLONG_LINE };
}

/**
 * Yields the records of a CSV byte stream in order; blank lines are skipped (they still count as lines).
 * @param source - UTF-8 bytes; a BOM is dropped
 */
export async function* readCsvRecords(source: Readable | AsyncIterable<Buffer>): AsyncGenerator<CsvRecord[]> {
  let pending: Buffer = Buffer.alloc(0);
  let line = 1; // physical line number of pending[0]
  let first = true;
  // Lines end with a bare CR (Excel's "CSV (Macintosh)"): each CR is read as a LF, byte for byte. Told from the
  // first line break; `undefined` until one is read.
  let lineEnds: 'cr' | 'lf' | undefined;
  let crLines = false;
  // The rest of a line reported as too long is passed over up to its end.
  let skipping = false;
  const header = new HeaderShape();
  // A fault after whole data ends the chunks like the end (dataOf): the last record is read, then it is passed on.
  const data = dataOf(source as AsyncIterable<Buffer>);
  for await (const chunk of data.chunks) {
    let buf = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    if (first) {
      if (buf.length < 3) {
        pending = Buffer.from(buf); // too short to tell whether it starts with a BOM
        continue;
      }
      first = false;
      if (buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) {
        buf = buf.subarray(3);
      }
    }
    if (lineEnds === undefined) {
      lineEnds = lineEndsOf(buf);
      if (lineEnds === undefined) {
        pending = Buffer.from(buf); // no line break read yet
        continue;
      }
      crLines = lineEnds === 'cr';
    }
    if (crLines) {
      buf = crToLf(buf);
    }
    if (skipping) {
      const lf = buf.indexOf(LF);
      if (lf === -1) {
        pending = Buffer.alloc(0);
        continue;
      }
      buf = buf.subarray(lf + 1);
      line++;
      skipping = false;
    }
    const out: CsvRecord[] = [];
    const consumed = split(buf, false, out, line, header);
    line = consumed.line;
    skipping = consumed.skipping === true;
    pending = skipping ? Buffer.alloc(0) : Buffer.from(buf.subarray(consumed.at));
    if (out.length > 0) {
      yield out;
    }
  }
  if (first && pending[0] === 0xef && pending[1] === 0xbb && pending[2] === 0xbf) {
    pending = pending.subarray(3);
  }
  if (lineEnds === undefined && lineEndsOf(pending, true) === 'cr') {
    pending = crToLf(pending);
  }
  if (pending.length > 0) {
    const out: CsvRecord[] = [];
    split(pending, true, out, line, header);
    if (out.length > 0) {
      yield out;
    }
  }
  data.passOn();
}

/**
 * How the first line of a file's first bytes ends: `cr` for a bare CR (a CR before any LF, not followed by one),
 * `lf` for LF or CRLF; `undefined` while no line break is read (a CR as the last byte read proves nothing, unless
 * `atEnd`). Past MAX_RECORD_BYTES without one, `lf`: the record splitter reports the overlong line.
 */
function lineEndsOf(buf: Buffer, atEnd = false): 'cr' | 'lf' | undefined {
  const cr = buf.indexOf(0x0d);
  const lf = buf.indexOf(LF);
  if (cr !== -1 && (lf === -1 || lf > cr + 1) && (cr < buf.length - 1 || atEnd)) {
    return 'cr';
  }
  return lf !== -1 || buf.length > MAX_RECORD_BYTES ? 'lf' : undefined;
}

/** A copy of `buf` with every CR read as a LF (same length, so line numbers and offsets hold). */
function crToLf(buf: Buffer): Buffer {
  const out = Buffer.from(buf);
  for (let i = out.indexOf(0x0d); i !== -1; i = out.indexOf(0x0d, i + 1)) {
    out[i] = LF;
  }
  return out;
}

/** Whether bytes [from, to) hold nothing but spaces, tabs and a CR: a blank line, skipped like an empty one. */
function isBlank(buf: Buffer, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = buf[i];
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d) {
      return false;
    }
  }
  return true;
}

/**
 * The file's header (its first record), once read: a line of a quoted cell that reads as a row of the file (no
 * quote, as many commas as the header has separators, and a YYYY-MM-DD date under dateOfServiceFrom, which every
 * row of a claim CSV has) is taken for a row, so the quote that opened the cell was never closed. Without a
 * dateOfServiceFrom column nothing is taken for a row.
 */
class HeaderShape {
  private commas = 0;
  private dateColumn = -1;
  private seen = false;

  /** Reads the header's shape from the file's first record (an unreadable one gives none). */
  see(first: CsvRecord): void {
    if (!this.seen) {
      this.seen = true;
      if (first.problem === undefined) {
        this.commas = commasOutsideQuotes(first.text);
        this.dateColumn = first.text
          .split(',')
          .map((c) => c.trim().replace(/^"|"$/g, '').toLowerCase())
          .indexOf('dateofservicefrom');
      }
    }
  }

  /** Whether bytes [from, to) (one line, without a quote) read as a row of the file: see the class. */
  looksLikeRow(buf: Buffer, from: number, to: number): boolean {
    if (this.dateColumn === -1) {
      return false;
    }
    let n = 0;
    let cellStart = from;
    let date = false;
    for (let i = buf.indexOf(COMMA, from); i !== -1 && i < to; i = buf.indexOf(COMMA, i + 1)) {
      if (n === this.dateColumn) {
        date = isIsoDateAt(buf, cellStart, i);
      }
      if (++n > this.commas) {
        return false;
      }
      cellStart = i + 1;
    }
    if (n === this.dateColumn) {
      date = isIsoDateAt(buf, cellStart, to);
    }
    return n === this.commas && date;
  }
}

/** Whether bytes [from, to), spaces aside, are a YYYY-MM-DD date's shape. */
function isIsoDateAt(buf: Buffer, from: number, to: number): boolean {
  return /^\s*\d{4}-\d{2}-\d{2}\s*$/.test(buf.toString('latin1', from, Math.min(to, from + 32)));
}

/** Commas outside quoted cells in one record's text. */
function commasOutsideQuotes(text: string): number {
  let n = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      quoted = !quoted;
    } else if (c === COMMA && !quoted) {
      n++;
    }
  }
  return n;
}

/**
 * Splits the complete records of `buf` into `out`.
 * @returns where the unfinished tail starts, and its line number; `skipping` when the tail is the rest of a line
 *   reported as too long (the caller passes over it up to the line's end)
 */
function split(
  buf: Buffer,
  atEnd: boolean,
  out: CsvRecord[],
  startLine: number,
  header: HeaderShape,
): { at: number; line: number; skipping?: boolean } {
  let start = 0;
  let line = startLine;
  const quotes = new QuoteCounter(buf);
  while (start < buf.length) {
    // Fast path: a line without quotes is a record.
    let nl = buf.indexOf(LF, start);
    const end = nl === -1 ? buf.length : nl;
    if (nl === -1 && !atEnd) {
      if (buf.length - start > MAX_RECORD_BYTES) {
        out.push(overlong(buf, start, end, line));
        return { at: buf.length, line, skipping: true };
      }
      return { at: start, line };
    }
    if (lineLength(buf, start, end) > MAX_RECORD_BYTES) {
      // A line over the limit that arrived whole in one read: one unreadable record, like one that did not.
      out.push(overlong(buf, start, end, line));
      quotes.rewind();
      start = end + 1;
      line++;
      continue;
    }
    if (quotes.count(start, end) === 0 || lineEnd(buf, start, end, false) !== 'open') {
      if (!isBlank(buf, start, end)) {
        const record = recordOf(buf, start, end, line);
        header.see(record);
        out.push(record);
      }
      start = end + 1;
      line++;
      continue;
    }
    // A quoted cell is open at the end of the line: the record runs on over the next lines until it closes.
    let open = true;
    let broken = false;
    let rowNext = false;
    let lines = 1;
    while (open) {
      const from = nl + 1;
      nl = buf.indexOf(LF, from);
      const to = nl === -1 ? buf.length : nl;
      const lineQuotes = quotes.count(from, to);
      if ((nl !== -1 || atEnd) && lineQuotes === 0 && header.looksLikeRow(buf, from, to)) {
        // A line with the header's number of cells is a row of the file, not text of a quoted cell: the quote that
        // opened the cell was never meant to (an inch mark, `"wound 2 long`), and the rows after it are read as rows.
        broken = true;
        rowNext = true;
        break;
      }
      const ends = lineQuotes === 0 ? 'open' : lineEnd(buf, from, to, true);
      if (ends === 'broken') {
        broken = true;
        break;
      }
      if (ends === 'closed') {
        open = false;
      }
      if (nl === -1) {
        break;
      }
      lines++;
      if (to - start > MAX_RECORD_BYTES) {
        break;
      }
    }
    const recordEnd = nl === -1 ? buf.length : nl;
    if (!open && (nl !== -1 || atEnd)) {
      const record = recordOf(buf, start, recordEnd, line);
      header.see(record);
      out.push(record);
      start = recordEnd + 1;
      line += lines;
      continue;
    }
    if (!broken && !atEnd && recordEnd - start <= MAX_RECORD_BYTES) {
      return { at: start, line }; // wait for more bytes
    }
    // Unclosed quote (end of file, the record too long, or a later quote that closes no quoted cell): its first line
    // is unreadable; go on after it.
    const firstEnd = buf.indexOf(LF, start);
    const cut = firstEnd === -1 ? buf.length : firstEnd;
    out.push({
      text: textOf(buf, start, cut),
      line,
      problem: rowNext
        ? 'a quoted cell is not closed on this line, and the next line is a row of the file (unclosed quote?)'
        : broken
          ? 'a quoted cell is not closed on this line, and no later quote closes it (unclosed quote?)'
          : atEnd
            ? 'a quoted cell is not closed before the end of the file'
            : `a quoted cell runs over ${MAX_RECORD_BYTES} bytes (unclosed quote?)`,
    });
    start = cut + 1;
    line++;
    quotes.rewind();
  }
  return { at: start, line };
}
