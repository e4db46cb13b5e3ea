// ICD-10-CM and ICD-10-PCS order files ("Code Descriptions in Tabular Order", "Order File (Long and Abbreviated
// Titles)"), read from inside the CMS release ZIPs. Fixed width (domain.md section 2): order number 1-5, code 7-13,
// billable flag 15, short title 17-76, long title 78-end. Every row goes to `code_release`; the core finalize step
// merges releases into validity intervals.
//
// April updates: since FY2022 CMS may change the code sets on April 1 too, and publishes the April files under the
// fiscal year's name (the FY2024 ICD-10-PCS "updated 12/19/2023" ZIP holds the April 1, 2024 set). Such a ZIP's
// addenda compare two files of the same fiscal year ("78603 codes in icd10pcs_order_2024.txt", then 78638): its
// order file is read as the April release (`FY2024 April`, from April 1), and the October release before it is the
// order file with the addenda undone (additions removed, deletions and the titles before a revision put back).
import { ReferenceDataError } from '../../errors.js';
import { openBytes, zipMembers } from '../../readers/byte-source.js';
import { readLines } from '../../readers/lines.js';
import { fiscalYearStart } from '../builder/dates.js';
import { CodeSystem } from '../../schemas/code-systems.js';
import type { Loader, Probe, SourceUnit } from '../builder/types.js';

const ORDER_LINE = /^(\d{5}) ([A-Z0-9]{3,7}) {0,4} ([01]) (.{1,60})(?: (.*))?$/;
const ADDENDA_MEMBER = /^(?:.*\/)?(?:icd10(?:cm|pcs)_)?order_addenda_(\d{4})\.txt$/i;
/** A change line of an order addenda file: its label, then (ICD-10-CM) the billable flag, the code and its titles. */
const ADDENDA_LINE = /^(Add|Delete|Revise from|Revise to):\s+(?:([01]) )?([A-Z0-9]{3,7}) +(.*)$/;
/** A line of the addenda's summary: "78603 codes in icd10pcs_order_2024.txt". */
const ADDENDA_COUNT = /^\s*(\d+) codes in \S*?_(\d{4})\.txt\s*$/;

/** One code as an addenda file lists it. */
interface AddendaCode {
  readonly code: string;
  readonly billable: 0 | 1;
  readonly short: string;
  readonly long: string;
}

/** What an order addenda file says: the fiscal years it compares and the changes between them. */
export interface OrderAddenda {
  /** Fiscal years of the files compared (the "N codes in …_YYYY.txt" lines), `undefined` when not stated. */
  readonly fromYear: number | undefined;
  readonly toYear: number | undefined;
  readonly added: readonly AddendaCode[];
  readonly deleted: readonly AddendaCode[];
  /** Codes whose titles were revised, with the titles before the revision. */
  readonly revisedFrom: readonly AddendaCode[];
}

/**
 * Reads an order addenda file. A code line holds the code, then the short title in 60 columns and the long title
 * (ICD-10-PCS addenda have no billable flag: every listed code is a valid code).
 */
export function parseOrderAddenda(text: string): OrderAddenda {
  const added: AddendaCode[] = [];
  const deleted: AddendaCode[] = [];
  const revisedFrom: AddendaCode[] = [];
  const years: number[] = [];
  let inCodes = false;
  for (const line of text.split(/\r?\n/)) {
    if (/^Codes\s*$/.test(line)) {
      inCodes = true;
      continue;
    }
    const count = ADDENDA_COUNT.exec(line);
    if (count && inCodes) {
      years.push(Number(count[2]));
      continue;
    }
    const m = ADDENDA_LINE.exec(line);
    if (!m) {
      continue;
    }
    const titles = m[4] ?? '';
    const short = titles.slice(0, 60).trimEnd();
    const entry: AddendaCode = {
      code: m[3] ?? '',
      billable: m[2] === '0' ? 0 : 1,
      short,
      long: titles.slice(61).trim() || short,
    };
    if (m[1] === 'Add') {
      added.push(entry);
    } else if (m[1] === 'Delete') {
      deleted.push(entry);
    } else if (m[1] === 'Revise from') {
      revisedFrom.push(entry);
    }
  }
  return { fromYear: years[0], toYear: years[1], added, deleted, revisedFrom };
}

/** Whether addenda compare two files of one fiscal year with changes between them: an April update. */
function isAprilUpdate(addenda: OrderAddenda, fy: number): boolean {
  return (
    addenda.fromYear === fy &&
    addenda.toYear === fy &&
    addenda.added.length + addenda.deleted.length + addenda.revisedFrom.length > 0
  );
}

/** The first day of a fiscal year's April update: April 1 of the calendar year the fiscal year ends in. */
const aprilStart = (fy: number): string => `${String(fy)}-04-01`;

/** The addenda member beside an order member of the same fiscal year, if the ZIP has one. */
function addendaMemberOf(members: readonly string[], fy: number): string | undefined {
  return members.find((m) => Number(ADDENDA_MEMBER.exec(m)?.[1]) === fy);
}

/** Addenda files are small (under 200 KB): read whole. */
const ADDENDA_MAX_BYTES = 4 * 1024 * 1024;


function unitsFor(member: string): SourceUnit | undefined {
  const m = /^(?:.*\/)?icd10(cm|pcs)_order_(\d{4})\.txt$/i.exec(member);
  if (!m) {
    return undefined;
  }
  const fy = Number(m[2]);
  const cm = m[1]?.toLowerCase() === 'cm';
  return {
    dataset: cm ? 'icd10cm-order' : 'icd10pcs-order',
    member,
    release: `FY${fy}`,
    validFrom: fiscalYearStart(fy),
  };
}

/**
 * Parses one order-file line.
 * @returns the fields, or `undefined` when the line is not in the fixed-width layout
 */
export function parseOrderLine(text: string): { ord: number; code: string; billable: 0 | 1; short: string; long: string } | undefined {
  const m = ORDER_LINE.exec(text);
  if (!m) {
    return undefined;
  }
  const short = (m[4] ?? '').trimEnd();
  return { ord: Number(m[1]), code: m[2] ?? '', billable: m[3] === '1' ? 1 : 0, short, long: (m[5] ?? '').trim() || short };
}

/** The fiscal year an order unit's release names. */
const fiscalYearOfUnit = (unit: SourceUnit): number => Number(unit.release.slice(2, 6));

/**
 * An order file's units: the file as its fiscal year's release, or, when the ZIP's addenda say it is an April update,
 * the file as the April release and its October release rebuilt from the addenda.
 */
async function withAprilUpdate(unit: SourceUnit, members: readonly string[], probe: Probe): Promise<SourceUnit[]> {
  const fy = fiscalYearOfUnit(unit);
  const addendaMember = addendaMemberOf(members, fy);
  if (addendaMember === undefined || !isAprilUpdate(parseOrderAddenda(await probe.head(addendaMember, ADDENDA_MAX_BYTES)), fy)) {
    return [unit];
  }
  return [unit, { ...unit, release: `FY${String(fy)} April`, validFrom: aprilStart(fy) }];
}

/** One order-file row as code_release takes it. */
interface OrderRow {
  readonly code: string;
  readonly billable: 0 | 1;
  readonly short: string;
  readonly long: string;
  readonly ord: number | null;
}

export const icd10OrderLoader: Loader = {
  name: 'icd10-order',
  version: 2,
  ddl: '',
  async recognise(file, probe) {
    if (!/\.zip$/i.test(file.name)) {
      const unit = unitsFor(file.name);
      return unit ? [{ ...unit, member: undefined }] : [];
    }
    const units: SourceUnit[] = [];
    const members = await probe.members();
    for (const member of members) {
      const unit = unitsFor(member);
      // Confirm by content: the first line must be an order-file record.
      if (unit && parseOrderLine((await probe.head(member, 400)).split(/\r?\n/)[0] ?? '')) {
        units.push(...(await withAprilUpdate(unit, members, probe)));
      }
    }
    return units;
  },
  async load(ctx) {
    const system = ctx.unit.dataset === 'icd10cm-order' ? CodeSystem.ICD10CM : CodeSystem.ICD10PCS;
    const insert = ctx.db.prepare(
      `INSERT INTO code_release (system, code, valid_from, valid_to, billable, short_title, long_title, ord, source_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const pos = { file: ctx.file.relPath, member: ctx.unit.member };
    const write = (row: OrderRow, line?: number): void => {
      try {
        insert.run(system, row.code, ctx.unit.validFrom, ctx.unit.validTo ?? null, row.billable, row.short, row.long, row.ord, ctx.sourceId);
      } catch (err) {
        throw new ReferenceDataError({ ...pos, line }, `code ${row.code}: ${(err as Error).message}`, { cause: err });
      }
      ctx.progress.add(1);
    };
    // The October release of an April update: the April file with its addenda undone.
    const undo = await octoberUndo(ctx.file.path, ctx.unit);
    for await (const { text, lineNo } of readLines(await ctx.open(), 'latin1')) {
      if (text.trim() === '') {
        continue;
      }
      const row = parseOrderLine(text);
      if (!row) {
        throw new ReferenceDataError({ ...pos, line: lineNo }, `not an order-file record: ${JSON.stringify(text.slice(0, 80))}`);
      }
      if (undo?.added.has(row.code) === true) {
        continue;
      }
      const before = undo?.titles.get(row.code);
      write(before === undefined ? row : { ...row, short: before.short, long: before.long }, lineNo);
    }
    for (const d of undo?.deleted ?? []) {
      write({ ...d, ord: null });
    }
  },
};

/** What undoing an April update's addenda takes: codes to leave out, codes to put back, titles before revision. */
interface Undo {
  readonly added: ReadonlySet<string>;
  readonly deleted: readonly AddendaCode[];
  readonly titles: ReadonlyMap<string, AddendaCode>;
}

/**
 * For the October unit of a ZIP whose addenda make its order file an April update ({@link withAprilUpdate}), the
 * changes to undo; `undefined` for any other unit (the file is read as it is).
 */
async function octoberUndo(path: string, unit: SourceUnit): Promise<Undo | undefined> {
  const fy = fiscalYearOfUnit(unit);
  if (unit.member === undefined || unit.validFrom !== fiscalYearStart(fy)) {
    return undefined;
  }
  const members = await zipMembers(path);
  const addendaMember = addendaMemberOf(members, fy);
  if (addendaMember === undefined) {
    return undefined;
  }
  const opened = await openBytes({ path, member: addendaMember });
  const parts: Buffer[] = [];
  try {
    for await (const chunk of opened.stream) {
      parts.push(chunk as Buffer);
    }
  } finally {
    await opened.close();
  }
  const addenda = parseOrderAddenda(Buffer.concat(parts).toString('latin1'));
  if (!isAprilUpdate(addenda, fy)) {
    return undefined;
  }
  return {
    added: new Set(addenda.added.map((a) => a.code)),
    deleted: addenda.deleted,
    titles: new Map(addenda.revisedFrom.map((r) => [r.code, r])),
  };
}
