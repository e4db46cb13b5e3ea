// Splits a byte stream into lines (LF or CRLF), decoding each with the file's own encoding. Official CMS text
// files are ASCII, ISO-8859-1 (ICD-9 v32) or Windows-1252 (MCE text); bytes are split before decoding so a
// multi-byte sequence never straddles a chunk boundary.
import type { Readable } from 'node:stream';

/** Encodings official text files come in. */
export type TextEncoding = 'utf-8' | 'latin1' | 'windows-1252';

/** One line of a text file, without its line ending; `lineNo` is 1-based. */
export interface Line {
  readonly text: string;
  readonly lineNo: number;
}

/**
 * Yields the lines of a byte stream.
 * @param stream - bytes
 * @param encoding - how to decode each line @default 'utf-8'
 */
export async function* readLines(stream: Readable, encoding: TextEncoding = 'utf-8'): AsyncGenerator<Line> {
  const decoder = new TextDecoder(encoding);
  let pending: Buffer | undefined;
  let lineNo = 0;
  const decode = (bytes: Buffer): string => {
    const end = bytes.length > 0 && bytes[bytes.length - 1] === 0x0d ? bytes.length - 1 : bytes.length;
    return decoder.decode(bytes.subarray(0, end));
  };
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    let data = pending ? Buffer.concat([pending, chunk]) : chunk;
    let start = 0;
    let nl = data.indexOf(0x0a, start);
    while (nl !== -1) {
      lineNo++;
      yield { text: decode(data.subarray(start, nl)), lineNo };
      start = nl + 1;
      nl = data.indexOf(0x0a, start);
    }
    pending = start < data.length ? Buffer.from(data.subarray(start)) : undefined;
    data = Buffer.alloc(0);
  }
  if (pending && pending.length > 0) {
    lineNo++;
    yield { text: decode(pending), lineNo };
  }
}
