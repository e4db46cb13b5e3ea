// Streams the rows of one worksheet of an XLSX workbook without loading the sheet: the workbook is a ZIP, its
// shared-string table is read once into memory (it is small next to the sheet), and the sheet XML is parsed as a
// stream. Cell values come back as text exactly as stored (numbers in their stored decimal form), so codes keep
// their leading zeros and loaders decide how to read dates.
import type { Readable } from 'node:stream';
import { openBytes, zipMembers } from './byte-source.js';
import { createXmlParser, parseXml } from './xml.js';
import { openZipBufferEntry, zipBufferEntries } from './zip-buffer.js';

/** A workbook: the path of an .xlsx file, or the bytes of one held in memory (nested inside another ZIP). */
export type Workbook = string | Buffer;

async function openMember(book: Workbook, member: string): Promise<{ stream: Readable; close(): Promise<void> }> {
  if (typeof book === 'string') {
    return openBytes({ path: book, member });
  }
  const stream = openZipBufferEntry(book, member);
  return { stream, close: async () => void stream.destroy() };
}

async function membersOf(book: Workbook): Promise<string[]> {
  return typeof book === 'string' ? zipMembers(book) : zipBufferEntries(book).map((e) => e.name);
}

/** One worksheet row: `cells[i]` is column i (A = 0); empty cells are `null`. `rowNumber` is 1-based. */
export interface XlsxRow {
  readonly rowNumber: number;
  readonly cells: readonly (string | null)[];
}

/** A sheet of a workbook, with its name and the ZIP member that holds it. */
export interface XlsxSheet {
  readonly name: string;
  readonly member: string;
}

async function readMember(book: Workbook, member: string, handlers: Parameters<typeof parseXml>[1]): Promise<void> {
  const opened = await openMember(book, member);
  try {
    await parseXml(opened.stream, handlers);
  } finally {
    await opened.close();
  }
}

/** Lists the worksheets of a workbook in workbook order. */
export async function listSheets(path: Workbook): Promise<XlsxSheet[]> {
  const rels = new Map<string, string>();
  await readMember(path, 'xl/_rels/workbook.xml.rels', {
    onOpen(name, attrs) {
      if (name === 'Relationship' && attrs['Id'] && attrs['Target']) {
        const target = attrs['Target'].replace(/^\/?xl\//, '').replace(/^\//, '');
        rels.set(attrs['Id'], `xl/${target}`);
      }
    },
  });
  const sheets: XlsxSheet[] = [];
  await readMember(path, 'xl/workbook.xml', {
    onOpen(name, attrs) {
      if (name === 'sheet') {
        const member = rels.get(attrs['r:id'] ?? '');
        if (member && attrs['name'] !== undefined) {
          sheets.push({ name: attrs['name'], member });
        }
      }
    },
  });
  return sheets;
}

async function readSharedStrings(path: Workbook): Promise<string[]> {
  const members = await membersOf(path);
  if (!members.includes('xl/sharedStrings.xml')) {
    return [];
  }
  const strings: string[] = [];
  let current: string[] | undefined;
  let inText = false;
  let phoneticDepth = 0;
  await readMember(path, 'xl/sharedStrings.xml', {
    onOpen(name) {
      if (name === 'si') {
        current = [];
      } else if (name === 'rPh') {
        phoneticDepth++;
      } else if (name === 't' && phoneticDepth === 0) {
        inText = true;
      }
    },
    onText(text) {
      if (inText && current) {
        current.push(text);
      }
    },
    onClose(name) {
      if (name === 'si') {
        strings.push((current ?? []).join(''));
        current = undefined;
      } else if (name === 'rPh') {
        phoneticDepth--;
      } else if (name === 't') {
        inText = false;
      }
    },
  });
  return strings;
}

/** Column index (A = 0) of a cell reference such as `AB12`. */
export function columnIndex(ref: string): number {
  let n = 0;
  for (let i = 0; i < ref.length; i++) {
    const c = ref.charCodeAt(i);
    if (c < 65 || c > 90) {
      break;
    }
    n = n * 26 + (c - 64);
  }
  return n - 1;
}

/**
 * Yields the rows of one worksheet.
 * @param path - the .xlsx file, or its bytes
 * @param sheet - sheet name, or its 0-based position @default 0
 */
export async function* readXlsxRows(path: Workbook, sheet: string | number = 0): AsyncGenerator<XlsxRow> {
  const sheets = await listSheets(path);
  const chosen = typeof sheet === 'number' ? sheets[sheet] : sheets.find((s) => s.name === sheet);
  if (!chosen) {
    throw new RangeError(`Expected the sheet ${JSON.stringify(sheet)} in ${typeof path === 'string' ? path : 'the workbook'}; it has ${sheets.map((s) => s.name).join(', ')}`);
  }
  const shared = await readSharedStrings(path);
  const opened = await openMember(path, chosen.member);
  // Rows are collected by the SAX callbacks and handed out after each chunk: the consumer's pace pulls the stream.
  const ready: XlsxRow[] = [];
  let cells: (string | null)[] = [];
  let rowNumber = 0;
  let cellType = 'n';
  let cellCol = 0;
  let text: string[] | undefined;
  let inValue = false;
  const handlers = {
    onOpen(name: string, attrs: Readonly<Record<string, string>>): void {
      switch (name) {
        case 'row':
          rowNumber = attrs['r'] ? Number(attrs['r']) : rowNumber + 1;
          cells = [];
          break;
        case 'c':
          cellType = attrs['t'] ?? 'n';
          cellCol = attrs['r'] ? columnIndex(attrs['r']) : cells.length;
          text = [];
          break;
        case 'v':
        case 't':
          inValue = text !== undefined;
          break;
        default:
          break;
      }
    },
    onText(t: string): void {
      if (inValue && text) {
        text.push(t);
      }
    },
    onClose(name: string): void {
      if (name === 'v' || name === 't') {
        inValue = false;
      } else if (name === 'c') {
        const raw = (text ?? []).join('');
        let value: string | null = raw;
        if (cellType === 's') {
          value = shared[Number(raw)] ?? null;
        } else if (raw === '') {
          value = null;
        }
        while (cells.length < cellCol) {
          cells.push(null);
        }
        cells[cellCol] = value;
        text = undefined;
      } else if (name === 'row') {
        ready.push({ rowNumber, cells });
      }
    },
  };
  try {
    const parser = createXmlParser(handlers);
    for await (const chunk of opened.stream as AsyncIterable<Buffer>) {
      parser.write(chunk);
      if (ready.length > 0) {
        yield* ready.splice(0, ready.length);
      }
    }
    parser.end();
    yield* ready.splice(0, ready.length);
  } finally {
    await opened.close();
  }
}

/** Converts an Excel serial day number (1900 date system) to an ISO date `YYYY-MM-DD`. */
export function excelSerialToIso(serial: number): string {
  const ms = Math.round((serial - 25569) * 86_400_000);
  return new Date(ms).toISOString().slice(0, 10);
}
