// Splits an X12 byte stream into segments (issue 12 §2): delimiters come from each ISA, so a file may hold several
// interchanges with delimiters of their own. Bytes are decoded as latin1 (one char per byte, no allocation per
// character); segments are numbered from 1 at the file's first ISA, across interchanges. Line breaks, indentation
// and trailing blanks around segments are tolerated; UTF-16, binary data and text that does not open with an ISA
// are refused with ScrubberError INPUT_FORMAT.
import { ScrubberError } from '../../errors.js';
import type { X12Delimiters } from '../../schemas/x12-ack.js';
import { dataOf } from '../faults.js';

/** One segment: its elements split on the element separator, `elements[0]` being the segment id. */
export interface X12Segment {
  /** Segment id (`CLM`), as written. */
  readonly id: string;
  /** `elements[1]` is the segment's first element (`CLM01`); element values are not trimmed. */
  readonly elements: readonly string[];
  /** 1-based position in the file, counted from its first ISA, continuing across interchanges. */
  readonly segNo: number;
  /** The delimiters of the interchange the segment is in. */
  readonly delimiters: X12Delimiters;
  /**
   * One element without splitting the whole segment (`element(1)` is `CLM01`).
   * @returns the element's text, `''` when the segment has fewer elements
   */
  element(index: number): string;
  /** The number of elements after the id (`CLM*A*B` has 2), without splitting. */
  readonly elementCount: number;
  /** A copy that stays valid after the sink returns (see {@link X12SegmentSink}). */
  detach(): X12Segment;
}

/**
 * Receives each segment as soon as it is complete. The tokenizer hands every segment in the same object, valid
 * until the sink returns: a sink that keeps a segment keeps `segment.detach()`.
 */
export type X12SegmentSink = (segment: X12Segment) => void;

/**
 * A segment read in place: a window on the tokenizer's text, reset for each segment, whose elements are cut out on
 * demand. Most segments of an 837 (N3, REF, PER, PRV...) are only looked at by id and most others for two or three
 * elements, so a segment costs no object and no string of its own unless its elements are asked for.
 */
class SegmentWindow implements X12Segment {
  id = '';
  segNo = 0;
  delimiters: X12Delimiters = NO_DELIMITERS;
  private text = '';
  private start = 0;
  private end = 0;
  /** The element separator's character code. */
  private separator = 0;
  private split: string[] | undefined;
  /** Where element `cursorIndex` starts: `element()` reads left to right from the last element asked for. */
  private cursorIndex = 0;
  private cursorStart = 0;

  /** Points the window at `text[start, end)`. */
  reset(text: string, start: number, end: number, segNo: number, delimiters: X12Delimiters): this {
    this.text = text;
    this.start = start;
    this.end = end;
    this.segNo = segNo;
    this.delimiters = delimiters;
    this.separator = delimiters.element.charCodeAt(0);
    this.split = undefined;
    this.cursorIndex = 0;
    this.cursorStart = start;
    const sep = text.indexOf(delimiters.element, start);
    this.id = idOf(text, start, sep < 0 || sep > end ? end : sep);
    return this;
  }

  get elements(): readonly string[] {
    this.split ??= this.text.slice(this.start, this.end).split(this.delimiters.element);
    return this.split;
  }

  get elementCount(): number {
    if (this.split !== undefined) {
      return this.split.length - 1;
    }
    let n = 0;
    const { text, end } = this;
    const sep = this.delimiters.element;
    for (let at = text.indexOf(sep, this.start); at >= 0 && at < end; at = text.indexOf(sep, at + 1)) {
      n++;
    }
    return n;
  }

  element(index: number): string {
    if (this.split !== undefined) {
      return this.split[index] ?? '';
    }
    // A scan of character codes: elements are short, and a call to indexOf costs more than walking them.
    const t = this.text;
    const sep = this.separator;
    const end = this.end;
    let k = 0;
    let at = this.start;
    if (index >= this.cursorIndex) {
      k = this.cursorIndex;
      at = this.cursorStart;
    }
    for (; k < index; k++) {
      while (at < end && t.charCodeAt(at) !== sep) {
        at++;
      }
      if (at >= end) {
        return '';
      }
      at++;
    }
    this.cursorIndex = index;
    this.cursorStart = at;
    let stop = at;
    while (stop < end && t.charCodeAt(stop) !== sep) {
      stop++;
    }
    return t.slice(at, stop);
  }

  detach(): X12Segment {
    return new SegmentWindow().reset(this.text.slice(this.start, this.end), 0, this.end - this.start, this.segNo, this.delimiters);
  }
}

const NO_DELIMITERS: X12Delimiters = { element: '*', repetition: undefined, component: ':', segment: '~' };

/** The ids an 837 reader looks at, as constants: no string per segment, and `switch` compares them fast. */
const KNOWN_IDS: readonly string[] = [
  'ISA',
  'IEA',
  'GS',
  'GE',
  'ST',
  'SE',
  'TA1',
  'BHT',
  'HL',
  'PRV',
  'SBR',
  'PAT',
  'NM1',
  'N3',
  'N4',
  'DMG',
  'PER',
  'REF',
  'CLM',
  'DTP',
  'HI',
  'CL1',
  'AMT',
  'NTE',
  'LX',
  'SV1',
  'SV2',
  'SV3',
  'SVD',
  'CAS',
  'LIN',
  'CTP',
  'PWK',
  'K3',
];

/**
 * The known ids by their {@link idKey}, in a small open-addressing table: found with a multiply and a compare or
 * two for each of the file's segments, where a Map lookup hashes the key every time.
 */
const ID_SLOTS = 128;
const idSlotKeys = new Int32Array(ID_SLOTS).fill(-1);
const idSlotNames: string[] = new Array<string>(ID_SLOTS).fill('');
const slotOf = (key: number): number => Math.imul(key, 0x9e3779b1) >>> 25;
for (const id of KNOWN_IDS) {
  let slot = slotOf(idKey(id, 0, id.length));
  while (idSlotKeys[slot] !== -1) {
    slot = (slot + 1) & (ID_SLOTS - 1);
  }
  idSlotKeys[slot] = idKey(id, 0, id.length);
  idSlotNames[slot] = id;
}

/** A segment id of 2 or 3 characters as a number (its character codes), -1 for other lengths. */
function idKey(text: string, from: number, to: number): number {
  const n = to - from;
  if (n < 2 || n > 3) {
    return -1;
  }
  const c2 = n === 3 ? text.charCodeAt(from + 2) : 0;
  return (text.charCodeAt(from) << 16) | (text.charCodeAt(from + 1) << 8) | c2;
}

function idOf(text: string, start: number, end: number): string {
  const key = idKey(text, start, end);
  if (key >= 0) {
    for (let slot = slotOf(key); idSlotKeys[slot] !== -1; slot = (slot + 1) & (ID_SLOTS - 1)) {
      if (idSlotKeys[slot] === key) {
        return idSlotNames[slot] as string;
      }
    }
  }
  return text.slice(start, end);
}

/** A segment longer than this without a terminator means the terminator is wrong or the data is not X12. */
const MAX_SEGMENT_CHARS = 1 << 20;
/** Bytes of a chunk decoded into text at a time (see X12Tokenizer.push). */
const PIECE_BYTES = 64 * 1024;
/** How far past `ISA` the 16 element separators of a (possibly not fixed-length) ISA are looked for. */
const MAX_ISA_CHARS = 256;

/**
 * The pure tokenizer core: feed it chunks; it hands each complete segment to a sink at once (so segments die
 * young). Holds at most one unfinished segment between chunks.
 */
export class X12Tokenizer {
  private pending = '';
  private segNo = 0;
  private delimiters: X12Delimiters | undefined;
  private bytesSeen = 0;
  private readonly window = new SegmentWindow();
  private tail: string | undefined;

  /** @param file - the file name, for error messages */
  constructor(private readonly file: string) {}

  /**
   * Adds a chunk of the file.
   * @param chunk - the next bytes
   * @param sink - receives the segments completed by this chunk, in order
   * @throws ScrubberError INPUT_FORMAT for UTF-16 or binary input, a file not opening with an ISA, or an ISA
   *   whose delimiters cannot be read
   */
  push(chunk: Buffer, sink: X12SegmentSink): void {
    if (chunk.length === 0) {
      return;
    }
    // Bytes before a NUL are read (their segments and claims kept), then the NUL refuses the rest.
    const nul = this.checkBytes(chunk);
    const offset = this.bytesSeen + nul;
    if (nul >= 0) {
      chunk = chunk.subarray(0, nul);
    }
    this.bytesSeen += chunk.length;
    // Decoded PIECE_BYTES at a time: a string past V8's largest regular object (128 KB) is given pages of its own,
    // mapped and faulted in afresh for every chunk (the 837 bench file read with 256 KB chunks: 39 MB/s; in 64 KB
    // pieces: 48 MB/s, 2026-11-27). One flat string per piece (the tail joined as bytes): a concatenated string would
    // be read through its halves.
    for (let at = 0; at < chunk.length; at += PIECE_BYTES) {
      const piece = chunk.subarray(at, at + PIECE_BYTES);
      this.pending =
        this.pending === ''
          ? piece.toString('latin1')
          : Buffer.concat([Buffer.from(this.pending, 'latin1'), piece]).toString('latin1');
      this.scan(false, sink);
    }
    if (nul >= 0) {
      throw new ScrubberError('INPUT_FORMAT', `${this.file}: binary data, not X12 text (NUL byte at offset ${offset})`);
    }
  }

  /**
   * Ends the input: the text after the last terminator, if any, is the last segment (a file may omit the final
   * terminator).
   * @param sink - receives the remaining segments
   * @throws ScrubberError INPUT_FORMAT when the input held no ISA at all
   */
  end(sink: X12SegmentSink): void {
    this.scan(true, sink);
    if (this.delimiters === undefined) {
      throw new ScrubberError('INPUT_FORMAT', `${this.file}: not an X12 file: it is empty`);
    }
  }

  /** Number of the last segment returned (0 before the first). */
  get lastSegNo(): number {
    return this.segNo;
  }

  /**
   * After `end`: why the last segment ran to the end of the file without its terminator when it holds line breaks
   * followed by what look like segments (the file's segments end with another character than the ISA declares),
   * e.g. "segment 2 runs to the end of the file (40 lines): its lines end with '!', not the '~' the ISA declares".
   */
  get unterminated(): string | undefined {
    return this.tail;
  }

  /**
   * Refuses UTF-16 (a BOM, or NUL bytes between characters); binary data (any NUL byte) is refused by `push` once the
   * bytes before it are read.
   * @returns where the chunk's first NUL byte is, -1 for none
   */
  private checkBytes(chunk: Buffer): number {
    if (this.bytesSeen === 0 && chunk.length >= 2) {
      const b0 = chunk[0];
      const b1 = chunk[1];
      if ((b0 === 0xff && b1 === 0xfe) || (b0 === 0xfe && b1 === 0xff)) {
        throw new ScrubberError(
          'INPUT_FORMAT',
          `${this.file}: UTF-16 text (byte order mark); X12 must be ASCII or UTF-8`,
        );
      }
    }
    const nul = chunk.indexOf(0);
    if (nul >= 0 && this.bytesSeen === 0 && looksLikeUtf16(chunk)) {
      throw new ScrubberError(
        'INPUT_FORMAT',
        `${this.file}: UTF-16 text (every second byte is 0); X12 must be ASCII or UTF-8`,
      );
    }
    return nul;
  }

  /** Cuts the pending text into segments; keeps an unfinished tail unless `final`. */
  private scan(final: boolean, sink: X12SegmentSink): void {
    const t = this.pending;
    const n = t.length;
    let pos = 0;
    // The next LF and CR at or after `pos` (-1: none left), each found once and reused, so a file without them is
    // searched once per chunk, not once per segment.
    let nextLf = -2;
    let nextCr = -2;
    for (;;) {
      while (pos < n && t.charCodeAt(pos) <= 32) {
        pos++;
      }
      if (pos >= n) {
        break;
      }
      if (this.delimiters === undefined) {
        // Start of file: an optional UTF-8 BOM, then the ISA.
        if (t.startsWith('\u00ef\u00bb\u00bf', pos)) {
          pos += 3;
          continue;
        }
        if (n - pos < 4 && !final) {
          break;
        }
        if (!t.startsWith('ISA', pos) || !isIsaStart(t, pos)) {
          throw new ScrubberError(
            'INPUT_FORMAT',
            `${this.file}: not an X12 file: it does not start with an ISA segment`,
          );
        }
      }
      if (t.charCodeAt(pos) === 73 /* I */ && t.startsWith('ISA', pos)) {
        if (n - pos < 4 && !final) {
          break;
        }
        if (isIsaStart(t, pos)) {
          const next = this.readIsa(t, pos, final, sink);
          if (next < 0) {
            break;
          }
          pos = next;
          continue;
        }
      }
      const delims = this.delimiters as X12Delimiters;
      let end = t.indexOf(delims.segment, pos);
      if (end < 0) {
        if (!final) {
          if (n - pos > MAX_SEGMENT_CHARS) {
            throw new ScrubberError(
              'INPUT_FORMAT',
              `${this.file}: no segment terminator '${printable(delims.segment)}' after segment ${this.segNo} ` +
                `within ${MAX_SEGMENT_CHARS} bytes`,
            );
          }
          break;
        }
        end = n;
        this.tail = unterminatedTail(t, pos, n, this.segNo + 1, delims);
      }
      let stop = end;
      while (stop > pos && t.charCodeAt(stop - 1) <= 32) {
        stop--;
      }
      if (stop > pos) {
        this.segNo++;
        if (nextLf !== -1 && nextLf < pos) {
          nextLf = t.indexOf('\n', pos);
        }
        if (nextCr !== -1 && nextCr < pos) {
          nextCr = t.indexOf('\r', pos);
        }
        // A line break inside a segment (a file wrapped at 80 columns: `HL*4*1*2` CRLF `2*0`) is no part of it, unless
        // it is the terminator (X12 RFI 28: extraneous bytes are ignored wherever they appear). Kept, it read HL03
        // as an unknown level and the claim took the previous patient.
        const broken = (nextLf !== -1 && nextLf < stop) || (nextCr !== -1 && nextCr < stop);
        if (broken && !isBreak(delims.segment)) {
          const joined = t.slice(pos, stop).replace(/\r\n?|\n/g, '');
          sink(this.window.reset(joined, 0, joined.length, this.segNo, delims));
        } else {
          sink(this.window.reset(t, pos, stop, this.segNo, delims));
        }
      }
      pos = end + 1;
    }
    this.pending = pos >= n ? '' : t.slice(pos);
  }

  /**
   * Reads an ISA at `pos` (fixed-length or not): the element separator is the byte after `ISA`, ISA16 the byte
   * after the 16th separator, the terminator the byte after that.
   * @returns the position after the terminator, or -1 when more input is needed
   */
  private readIsa(t: string, pos: number, final: boolean, sink: X12SegmentSink): number {
    const element = t.charAt(pos + 3);
    let seen = 1; // the separator right after `ISA`
    let j = pos + 3;
    const limit = Math.min(t.length, pos + MAX_ISA_CHARS);
    while (seen < 16) {
      j = t.indexOf(element, j + 1);
      if (j < 0 || j >= limit) {
        break;
      }
      seen++;
    }
    const where = `${this.file}: segment ${this.segNo + 1} (ISA)`;
    if (seen < 16 || j + 2 >= t.length) {
      if (!final && t.length < pos + MAX_ISA_CHARS) {
        return -1;
      }
      throw new ScrubberError(
        'INPUT_FORMAT',
        `${where}: truncated or malformed: 16 elements then a terminator expected`,
      );
    }
    const component = t.charAt(j + 1);
    const segment = t.charAt(j + 2);
    if (isAlphanumeric(component) || isAlphanumeric(segment) || component === element || segment === element) {
      throw new ScrubberError(
        'INPUT_FORMAT',
        `${where}: cannot read the delimiters (ISA16 '${printable(component)}', terminator '${printable(segment)}')`,
      );
    }
    const rep = (t.slice(pos, j + 2).split(element)[11] ?? '').trim();
    const delimiters: X12Delimiters = {
      element,
      repetition: rep.length === 1 && !isAlphanumeric(rep) ? rep : undefined,
      component,
      segment,
    };
    this.delimiters = delimiters;
    this.segNo++;
    sink(this.window.reset(t, pos, j + 2, this.segNo, delimiters));
    return j + 3;
  }
}

/** `ISA` followed by a separator that is not a letter, digit or blank. */
const isBreak = (c: string): boolean => c === '\n' || c === '\r';

function isIsaStart(t: string, pos: number): boolean {
  const c = t.charAt(pos + 3);
  return c !== '' && t.charCodeAt(pos + 3) > 32 && !isAlphanumeric(c);
}

function isAlphanumeric(c: string): boolean {
  const code = c.charCodeAt(0);
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

/** A delimiter as an error message shows it (line breaks visible). */
/**
 * The diagnosis of a last segment [pos, n) with no terminator, when line breaks inside it are followed by segment
 * ids (two or three letters or digits, then the element separator): the segments end with another character.
 */
function unterminatedTail(t: string, pos: number, n: number, segNo: number, delims: X12Delimiters): string | undefined {
  const text = t.slice(pos, n).trimEnd();
  const breaks = text.match(/\r?\n|\r/g)?.length ?? 0;
  const element = delims.element.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const starts = [...text.matchAll(new RegExp(`([^\\r\\n]?)(?:\\r?\\n|\\r)[ \\t]*[A-Z][A-Z0-9]{1,2}${element}`, 'g'))];
  if (starts.length === 0) {
    return undefined;
  }
  const ends = new Set(starts.map((m) => m[1] ?? ''));
  const endsWith = ends.size === 1 && !ends.has('') ? `its lines end with '${printable([...ends][0] ?? '')}'` : 'its lines hold segments';
  return (
    `segment ${String(segNo)} runs to the end of the file (${String(breaks + 1)} lines): ${endsWith}, not the ` +
    `'${printable(delims.segment)}' the ISA declares as the segment terminator`
  );
}

function printable(c: string): string {
  return c === '\n' ? '\\n' : c === '\r' ? '\\r' : c === '\t' ? '\\t' : c;
}

/** Every second byte of the first bytes is 0 (UTF-16 LE or BE text without a BOM). */
function looksLikeUtf16(chunk: Buffer): boolean {
  const n = Math.min(chunk.length, 64) & ~1;
  if (n < 4) {
    return false;
  }
  let even = 0;
  let odd = 0;
  for (let i = 0; i < n; i += 2) {
    even += chunk[i] === 0 ? 1 : 0;
    odd += chunk[i + 1] === 0 ? 1 : 0;
  }
  return even === n / 2 || odd === n / 2;
}

/**
 * The async shell over {@link X12Tokenizer} that every X12 reader shares: `each` reads each segment in place (valid
 * until it returns) and pushes what it completes to `out`; `last` adds what the end of the input completes. Yields
 * the items each chunk of the file finishes, in file order, never an empty batch: one step of the async iteration
 * per chunk, not per item. When the bytes fail part way (a compressed input cut short), `last` is given `cut`, why
 * the input ends there, before the fault is thrown on.
 * @param source - the file's bytes
 * @param file - the file name, for error messages
 * @throws ScrubberError INPUT_FORMAT for UTF-16, binary data or text that does not open with an ISA
 */
export async function* readX12Batches<T>(
  source: AsyncIterable<Buffer>,
  file: string,
  each: (segment: X12Segment, out: T[]) => void,
  last?: (out: T[], tokenizer: X12Tokenizer, cut?: string) => void,
): AsyncGenerator<T[]> {
  const tokenizer = new X12Tokenizer(file);
  let out: T[] = [];
  const sink = (segment: X12Segment): void => {
    each(segment, out);
  };
  // A fault after whole data ends the chunks like the end (dataOf): the last segment is read, then it is passed on.
  const data = dataOf(source);
  try {
    for await (const chunk of data.chunks) {
      tokenizer.push(chunk, sink);
      if (out.length > 0) {
        const ready = out;
        out = [];
        yield ready;
      }
    }
  } catch (e) {
    // A fault inside the data (a gzip or ZIP member cut short, binary bytes): the segments read are kept, the one
    // being read is dropped (it may be cut), and what is still open (a claim, its transaction) ends as cut short,
    // never lost; then the fault goes on.
    // Our own refusal (binary bytes) says why; a fault of the bytes' source (gzip, ZIP) is most often a cut.
    const why = e instanceof ScrubberError ? e.message.replace(`${file}: `, '') : 'it may be cut short';
    last?.(out, tokenizer, `the file cannot be read past segment ${String(tokenizer.lastSegNo)}: ${why}`);
    if (out.length > 0) {
      yield out;
    }
    throw e;
  }
  tokenizer.end(sink);
  last?.(out, tokenizer);
  if (out.length > 0) {
    yield out;
  }
  data.passOn();
}

/**
 * Yields the segments of an X12 byte stream, each detached (see {@link readX12Batches}).
 * @param source - the file's bytes
 * @param file - the file name, for error messages
 */
export async function* readX12Segments(source: AsyncIterable<Buffer>, file: string): AsyncGenerator<X12Segment> {
  for await (const batch of readX12Batches<X12Segment>(source, file, (segment, out) => out.push(segment.detach()))) {
    yield* batch;
  }
}
