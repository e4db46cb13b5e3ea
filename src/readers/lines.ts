// Splits a byte stream into lines (LF or CRLF, and with `bareCr` a lone CR too), decoding each with the file's own
// encoding. Official CMS text files are ASCII, ISO-8859-1 (ICD-9 v32) or Windows-1252 (MCE text); bytes are split
// before decoding so a multi-byte sequence never straddles a chunk boundary. With `maxLineBytes`, a longer line is
// one overlong line (its start only) and memory stays bounded by that.
import type { Readable } from 'node:stream';
import { dataOf } from './faults.js';

/** Encodings official text files come in. */
export type TextEncoding = 'utf-8' | 'latin1' | 'windows-1252';

/** One line of a text file, without its line ending; `lineNo` is 1-based. */
export interface Line {
  readonly text: string;
  readonly lineNo: number;
  /** The line ran over `maxLineBytes`: `text` is its start (at most 256 bytes), the rest was passed over. */
  readonly overlong?: true;
  /**
   * The stream failed right after this line's bytes, before its line end (a gzip cut short): the line may be cut
   * short. It is the last line yielded; the stream's error is thrown after it.
   */
  readonly cut?: true;
}

/** How lines end and how long they may be. */
export interface LineOptions {
  /** A CR not followed by a LF ends a line too (for text that never holds a raw CR, such as JSON). */
  readonly bareCr?: boolean;
  /** Longer lines are yielded as `overlong`, their rest passed over. */
  readonly maxLineBytes?: number;
  /** When the stream fails inside a line, that line is yielded as `cut` before the error is thrown. */
  readonly cutLines?: boolean;
}

const LF = 0x0a;
const CR = 0x0d;

/** The length of a line's bytes [from, to), leaving out the CR of a CRLF: what a longest line is measured by. */
export function lineLength(bytes: Buffer, from: number, to: number): number {
  return to - from - (to > from && bytes[to - 1] === CR ? 1 : 0);
}

/**
 * Yields the lines of a byte stream.
 * @param stream - bytes
 * @param encoding - how to decode each line @default 'utf-8'
 * @param options - bare CR line ends, a longest line
 */
export async function* readLines(
  stream: Readable,
  encoding: TextEncoding = 'utf-8',
  options: LineOptions = {},
): AsyncGenerator<Line> {
  const decoder = new TextDecoder(encoding);
  const max = options.maxLineBytes ?? Infinity;
  let pending: Buffer | undefined;
  let lineNo = 0;
  // Passing over the rest of an overlong line (already yielded) up to its end.
  let skipping = false;
  const decode = (bytes: Buffer): string => {
    const end = bytes.length > 0 && bytes[bytes.length - 1] === CR ? bytes.length - 1 : bytes.length;
    return decoder.decode(bytes.subarray(0, end));
  };
  // The stream's own fault is told from the loop's by where it is thrown: the loop body only yields. A fault after
  // whole data ends the chunks like the end (dataOf): the last line is read, then it is passed on.
  const whole = dataOf(stream as AsyncIterable<Buffer>);
  try {
    for await (const chunk of whole.chunks) {
      const data = pending ? Buffer.concat([pending, chunk]) : chunk;
      let start = 0;
      // The next LF and (with bareCr) the next CR at or after `start`, each searched again only once passed.
      let lf = data.indexOf(LF);
      let cr = options.bareCr === true ? data.indexOf(CR) : -1;
      for (;;) {
        if (lf !== -1 && lf < start) {
          lf = data.indexOf(LF, start);
        }
        if (cr !== -1 && cr < start) {
          cr = data.indexOf(CR, start);
        }
        // A CR ends a line unless a LF follows it (CRLF ends at the LF); a CR as the last byte waits for the next.
        const bareCrAt = cr !== -1 && cr + 1 < data.length && data[cr + 1] !== LF ? cr : -1;
        const crLast = cr !== -1 && cr === data.length - 1 && (lf === -1 || cr < lf);
        const end = bareCrAt !== -1 && (lf === -1 || bareCrAt < lf) ? bareCrAt : crLast ? -1 : lf;
        if (end < 0) {
          break;
        }
        if (skipping) {
          skipping = false;
        } else {
          lineNo++;
          yield lineLength(data, start, end) > max
            ? { text: decode(data.subarray(start, start + 256)), lineNo, overlong: true }
            : { text: decode(data.subarray(start, end)), lineNo };
        }
        start = end + 1;
      }
      const rest = data.length - start;
      // A CR as the last byte may end the line (bare, or the CR of a CRLF): the next chunk tells, so it is kept.
      const lastCr = rest > 0 && data[data.length - 1] === CR;
      if (skipping) {
        pending = lastCr ? Buffer.from([CR]) : undefined;
      } else if (lineLength(data, start, data.length) > max) {
        lineNo++;
        yield { text: decode(data.subarray(start, start + 256)), lineNo, overlong: true };
        skipping = true;
        pending = lastCr ? Buffer.from([CR]) : undefined;
      } else {
        pending = rest > 0 ? Buffer.from(data.subarray(start)) : undefined;
      }
    }
  } catch (e) {
    if (options.cutLines === true && pending && pending.length > 0 && !skipping) {
      // A line whose CR was read is whole (its LF, if any, was lost); any other may be cut short.
      lineNo++;
      yield pending[pending.length - 1] === CR
        ? { text: decode(pending), lineNo }
        : { text: decode(pending), lineNo, cut: true };
    }
    throw e;
  }
  if (pending && pending.length > 0 && !skipping) {
    lineNo++;
    yield { text: decode(pending), lineNo };
  }
  whole.passOn();
}
