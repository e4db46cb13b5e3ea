// Medicare Coverage Database bulk CSV exports (official layout; no export is in ../shared/data, so this is tested on
// hand-made fixtures): `current_lcd.zip` / `current_article.zip` (also `all_*`) hold a nested `*_csv.zip` whose CSVs
// are the MCD tables. Owns `mcd_document` (LCD and Article versions), `mcd_document_contractor`, `mcd_code`
// (article/LCD HCPCS codes and covered / non-covered ICD-10 codes with their groups), `mcd_code_group` (the group
// paragraphs), `mcd_related` (LCD <-> billing Article links), and the contractor tables `mcd_contractor`,
// `mcd_contractor_state`, `mcd_contractor_type`, `mcd_state`. Column names follow the export's own headers.
//
//   outer ZIP ──member *_csv.zip──> bytes held in memory (compressed) ──central directory──> CSV member
//        ──inflate stream──> decode (UTF-8, else Windows-1252) ──csv-parse──> prepared INSERTs
import { parse } from 'csv-parse';
import type { Readable} from 'node:stream';
import { Transform, type TransformCallback } from 'node:stream';
import { TextDecoder } from 'node:util';
import { ReferenceDataError } from '../../errors.js';
import { readAllBytes } from '../../readers/byte-source.js';
import { openZipBufferEntry, zipBufferEntries, type ZipBufferEntry } from '../../readers/zip-buffer.js';
import type { LoadContext, Loader, SourceUnit } from '../builder/types.js';

const ddl = `
CREATE TABLE mcd_document (
  document_type TEXT NOT NULL,
  document_id INTEGER NOT NULL,
  document_version INTEGER NOT NULL,
  display_id TEXT NOT NULL,
  title TEXT NOT NULL,
  status TEXT,
  article_type TEXT,
  original_effective_date TEXT,
  effective_date TEXT,
  end_date TEXT,
  retired_date TEXT,
  published_date TEXT,
  last_updated TEXT,
  valid_from TEXT NOT NULL,
  valid_to TEXT,
  source_id INTEGER NOT NULL REFERENCES source(id),
  PRIMARY KEY (document_type, document_id, document_version)
) WITHOUT ROWID;
CREATE INDEX mcd_document_by_display ON mcd_document (display_id, document_version);
CREATE TABLE mcd_document_contractor (
  document_type TEXT NOT NULL,
  document_id INTEGER NOT NULL,
  document_version INTEGER NOT NULL,
  contractor_id INTEGER NOT NULL,
  contractor_type_id INTEGER NOT NULL,
  contractor_version INTEGER NOT NULL,
  source_id INTEGER NOT NULL REFERENCES source(id),
  PRIMARY KEY (document_type, document_id, document_version, contractor_id, contractor_type_id, contractor_version)
) WITHOUT ROWID;
CREATE INDEX mcd_document_contractor_by_contractor ON mcd_document_contractor (contractor_id, contractor_type_id);
CREATE TABLE mcd_code (
  document_type TEXT NOT NULL,
  document_id INTEGER NOT NULL,
  document_version INTEGER NOT NULL,
  code_system TEXT NOT NULL,
  relation TEXT NOT NULL,
  code TEXT NOT NULL,
  code_version TEXT,
  code_group INTEGER,
  range_flag TEXT,
  sort_order INTEGER,
  asterisk TEXT,
  description TEXT,
  short_description TEXT,
  source_id INTEGER NOT NULL REFERENCES source(id),
  line INTEGER NOT NULL
);
CREATE INDEX mcd_code_by_code ON mcd_code (code, code_system);
CREATE INDEX mcd_code_by_document ON mcd_code (document_type, document_id, document_version, relation, code_group);
CREATE TABLE mcd_code_group (
  document_type TEXT NOT NULL,
  document_id INTEGER NOT NULL,
  document_version INTEGER NOT NULL,
  group_kind TEXT NOT NULL,
  code_group INTEGER NOT NULL,
  paragraph TEXT,
  asterisk_text TEXT,
  source_id INTEGER NOT NULL REFERENCES source(id),
  PRIMARY KEY (document_type, document_id, document_version, group_kind, code_group)
) WITHOUT ROWID;
CREATE TABLE mcd_related (
  document_type TEXT NOT NULL,
  document_id INTEGER NOT NULL,
  document_version INTEGER NOT NULL,
  related_num INTEGER,
  related_type TEXT NOT NULL,
  related_id INTEGER NOT NULL,
  related_version INTEGER,
  related_contractor_id INTEGER,
  source_id INTEGER NOT NULL REFERENCES source(id)
);
CREATE INDEX mcd_related_by_document ON mcd_related (document_type, document_id, document_version);
CREATE INDEX mcd_related_by_target ON mcd_related (related_type, related_id);
CREATE TABLE mcd_contractor (
  contractor_id INTEGER NOT NULL,
  contractor_type_id INTEGER NOT NULL,
  contractor_version INTEGER NOT NULL,
  contractor_number TEXT,
  name TEXT NOT NULL,
  dmerc_region TEXT,
  status TEXT,
  source_id INTEGER NOT NULL REFERENCES source(id),
  PRIMARY KEY (contractor_id, contractor_type_id, contractor_version)
) WITHOUT ROWID;
CREATE INDEX mcd_contractor_by_number ON mcd_contractor (contractor_number);
CREATE TABLE mcd_contractor_type (
  contractor_type_id INTEGER PRIMARY KEY,
  description TEXT NOT NULL,
  source_id INTEGER NOT NULL REFERENCES source(id)
);
CREATE TABLE mcd_contractor_state (
  contractor_id INTEGER NOT NULL,
  contractor_type_id INTEGER NOT NULL,
  contractor_version INTEGER NOT NULL,
  state_id INTEGER NOT NULL,
  active_date TEXT,
  term_date TEXT,
  source_id INTEGER NOT NULL REFERENCES source(id),
  PRIMARY KEY (contractor_id, contractor_type_id, contractor_version, state_id)
) WITHOUT ROWID;
CREATE TABLE mcd_state (
  state_id INTEGER PRIMARY KEY,
  state_abbrev TEXT,
  description TEXT,
  source_id INTEGER NOT NULL REFERENCES source(id)
);
`;

type Row = Readonly<Record<string, string>>;

/** One CSV table of the export: its member name, the columns it must have, and how a row is written. */
interface TableSpec {
  readonly file: string;
  readonly required: readonly string[];
  /** Member must be present for the export to load. */
  readonly mandatory?: boolean;
  readonly write: (w: Writers, row: Row, line: number) => void;
}

/**
 * Dates as the export writes them (`2020-07-01 00:00:00`, `2020-06-19 22:52:07.840000000`), or `MM/DD/YYYY`.
 * @returns the ISO date, `null` for blank, `undefined` when malformed
 */
export function mcdExportDate(text: string | undefined): string | null | undefined {
  const s = (text ?? '').trim();
  if (s === '') {
    return null;
  }
  const iso = /^(\d{4}-\d{2}-\d{2})(?:[ T][\d:.]*)?$/.exec(s);
  if (iso) {
    return iso[1];
  }
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?: [\d:.]*(?: ?[AP]M)?)?$/.exec(s);
  return us ? `${us[3]}-${us[1]!.padStart(2, '0')}-${us[2]!.padStart(2, '0')}` : undefined;
}

class Writers {
  readonly doc;
  readonly docContractor;
  readonly code;
  readonly group;
  readonly related;
  readonly contractor;
  readonly contractorType;
  readonly contractorState;
  readonly state;

  constructor(
    private readonly ctx: LoadContext,
    private readonly member: string,
  ) {
    const db = ctx.db;
    this.doc = db.prepare(
      `INSERT INTO mcd_document (document_type, document_id, document_version, display_id, title, status, article_type,
         original_effective_date, effective_date, end_date, retired_date, published_date, last_updated, valid_from, valid_to, source_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.docContractor = db.prepare(
      `INSERT OR IGNORE INTO mcd_document_contractor (document_type, document_id, document_version, contractor_id, contractor_type_id,
         contractor_version, source_id) VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    this.code = db.prepare(
      `INSERT INTO mcd_code (document_type, document_id, document_version, code_system, relation, code, code_version, code_group,
         range_flag, sort_order, asterisk, description, short_description, source_id, line)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.group = db.prepare(
      `INSERT OR REPLACE INTO mcd_code_group (document_type, document_id, document_version, group_kind, code_group, paragraph,
         asterisk_text, source_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.related = db.prepare(
      `INSERT INTO mcd_related (document_type, document_id, document_version, related_num, related_type, related_id, related_version,
         related_contractor_id, source_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    // The LCD and the Article exports both carry the contractor tables: the first one loaded is kept.
    this.contractor = db.prepare(
      `INSERT OR IGNORE INTO mcd_contractor (contractor_id, contractor_type_id, contractor_version, contractor_number, name,
         dmerc_region, status, source_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.contractorType = db.prepare(
      'INSERT OR IGNORE INTO mcd_contractor_type (contractor_type_id, description, source_id) VALUES (?, ?, ?)',
    );
    this.contractorState = db.prepare(
      `INSERT OR IGNORE INTO mcd_contractor_state (contractor_id, contractor_type_id, contractor_version, state_id, active_date,
         term_date, source_id) VALUES (?, ?, ?, ?, ?, ?, ?)`,
    );
    this.state = db.prepare(
      'INSERT OR IGNORE INTO mcd_state (state_id, state_abbrev, description, source_id) VALUES (?, ?, ?, ?)',
    );
  }

  get sourceId(): number {
    return this.ctx.sourceId;
  }

  /** The member being read now (a CSV inside the nested ZIP), for error positions. */
  table = '';

  fail(line: number | undefined, message: string): never {
    throw new ReferenceDataError(
      { file: this.ctx.file.relPath, member: `${this.member}/${this.table}`, line },
      message,
    );
  }

  int(row: Row, column: string, line: number): number {
    const v = (row[column] ?? '').trim();
    if (!/^-?\d+$/.test(v)) {
      this.fail(line, `${column} ${JSON.stringify(v)} is not a whole number`);
    }
    return Number(v);
  }

  optInt(row: Row, column: string, line: number): number | null {
    return (row[column] ?? '').trim() === '' ? null : this.int(row, column, line);
  }

  date(row: Row, column: string, line: number): string | null {
    const d = mcdExportDate(row[column]);
    if (d === undefined) {
      this.fail(line, `${column} ${JSON.stringify(row[column])} is not a date`);
    }
    return d;
  }

  text(row: Row, column: string): string | null {
    const v = (row[column] ?? '').trim();
    return v === '' ? null : v;
  }

  /** Upper-case, undotted code; blank fails the row. */
  codeOf(row: Row, column: string, line: number): string {
    const v = (row[column] ?? '').replace(/[.\s]/g, '').toUpperCase();
    if (v === '') {
      this.fail(line, `${column} is empty`);
    }
    return v;
  }
}

const relatedSpec =
  (kind: 'LCD' | 'Article', idCol: string, versionCol: string): TableSpec['write'] =>
  (w, row, line) => {
    const id = w.int(row, idCol, line);
    const version = w.int(row, versionCol, line);
    const num = w.optInt(row, 'related_num', line);
    const contractor = w.optInt(row, 'r_contractor_id', line);
    for (const [type, idC, verC] of [
      ['Article', 'r_article_id', 'r_article_version'],
      ['LCD', 'r_lcd_id', 'r_lcd_version'],
    ] as const) {
      const rid = w.optInt(row, idC, line);
      if (rid !== null && rid !== 0) {
        w.related.run(kind, id, version, num, type, rid, w.optInt(row, verC, line), contractor, w.sourceId);
      }
    }
  };

const codeSpec =
  (
    kind: 'LCD' | 'Article',
    system: 'HCPCS' | 'ICD10CM',
    relation: string,
    codeCol: string,
    groupCol: string,
  ): TableSpec['write'] =>
  (w, row, line) => {
    const idCol = kind === 'LCD' ? 'lcd_id' : 'article_id';
    const verCol = kind === 'LCD' ? 'lcd_version' : 'article_version';
    w.code.run(
      kind,
      w.int(row, idCol, line),
      w.int(row, verCol, line),
      system,
      relation,
      w.codeOf(row, codeCol, line),
      w.text(row, system === 'HCPCS' ? 'hcpc_code_version' : 'icd10_code_version'),
      w.optInt(row, groupCol, line),
      w.text(row, 'range'),
      w.optInt(row, 'sort_order', line),
      w.text(row, 'asterisk'),
      w.text(row, system === 'HCPCS' ? 'long_description' : 'description'),
      w.text(row, 'short_description'),
      w.sourceId,
      line,
    );
  };

const groupSpec =
  (kind: 'LCD' | 'Article', groupKind: string, groupCol: string, asteriskCol?: string): TableSpec['write'] =>
  (w, row, line) => {
    const idCol = kind === 'LCD' ? 'lcd_id' : 'article_id';
    const verCol = kind === 'LCD' ? 'lcd_version' : 'article_version';
    w.group.run(
      kind,
      w.int(row, idCol, line),
      w.int(row, verCol, line),
      groupKind,
      w.int(row, groupCol, line),
      w.text(row, 'paragraph'),
      asteriskCol ? w.text(row, asteriskCol) : null,
      w.sourceId,
    );
  };

/** `lcd_x_contractor.csv` / `article_x_contractor.csv`: which contractors publish a document version. */
const contractorLinkSpec = (kind: 'LCD' | 'Article'): TableSpec => {
  const prefix = kind === 'LCD' ? 'lcd' : 'article';
  return {
    file: `${prefix}_x_contractor.csv`,
    mandatory: true,
    required: [`${prefix}_id`, `${prefix}_version`, 'contractor_id', 'contractor_type_id', 'contractor_version'],
    write: (w, row, line) =>
      w.docContractor.run(
        kind,
        w.int(row, `${prefix}_id`, line),
        w.int(row, `${prefix}_version`, line),
        w.int(row, 'contractor_id', line),
        w.int(row, 'contractor_type_id', line),
        w.int(row, 'contractor_version', line),
        w.sourceId,
      ),
  };
};

const CONTRACTOR_TABLES: readonly TableSpec[] = [
  {
    file: 'contractor.csv',
    mandatory: true,
    required: ['contractor_id', 'contractor_type_id', 'contractor_version', 'contractor_bus_name', 'contractor_number'],
    write: (w, row, line) => {
      const name = w.text(row, 'contractor_bus_name');
      if (name === null) {
        w.fail(line, 'contractor_bus_name is empty');
      }
      w.contractor.run(
        w.int(row, 'contractor_id', line),
        w.int(row, 'contractor_type_id', line),
        w.int(row, 'contractor_version', line),
        w.text(row, 'contractor_number'),
        name,
        w.text(row, 'dmerc_rgn'),
        w.text(row, 'status'),
        w.sourceId,
      );
    },
  },
  {
    file: 'contractor_type_lookup.csv',
    required: ['contractor_type_id', 'description'],
    write: (w, row, line) =>
      w.contractorType.run(w.int(row, 'contractor_type_id', line), w.text(row, 'description') ?? '', w.sourceId),
  },
  {
    file: 'contractor_jurisdiction.csv',
    required: ['contractor_id', 'contractor_type_id', 'contractor_version', 'state_id'],
    write: (w, row, line) =>
      w.contractorState.run(
        w.int(row, 'contractor_id', line),
        w.int(row, 'contractor_type_id', line),
        w.int(row, 'contractor_version', line),
        w.int(row, 'state_id', line),
        w.date(row, 'active_date', line),
        w.date(row, 'term_date', line),
        w.sourceId,
      ),
  },
  {
    file: 'state_lookup.csv',
    required: ['state_id', 'state_abbrev', 'description'],
    write: (w, row, line) =>
      w.state.run(w.int(row, 'state_id', line), w.text(row, 'state_abbrev'), w.text(row, 'description'), w.sourceId),
  },
];

/** The tables of the LCD export, in load order. */
const LCD_TABLES: readonly TableSpec[] = [
  {
    file: 'lcd.csv',
    mandatory: true,
    required: ['lcd_id', 'lcd_version', 'title'],
    write: (w, row, line) => {
      const id = w.int(row, 'lcd_id', line);
      const original = w.date(row, 'orig_det_eff_date', line);
      const effective = w.date(row, 'rev_eff_date', line) ?? original;
      const end = w.date(row, 'rev_end_date', line) ?? w.date(row, 'ent_det_end_date', line);
      const title = w.text(row, 'title');
      if (title === null || effective === null) {
        w.fail(line, `LCD ${id} has no title or no effective date`);
      }
      w.doc.run(
        'LCD',
        id,
        w.int(row, 'lcd_version', line),
        w.text(row, 'display_id') ?? `L${id}`,
        title,
        w.text(row, 'status'),
        null,
        original,
        effective,
        end,
        w.date(row, 'date_retired', line),
        w.date(row, 'mcd_publish_date', line),
        w.date(row, 'last_updated', line),
        effective,
        end,
        w.sourceId,
      );
    },
  },
  contractorLinkSpec('LCD'),
  {
    file: 'lcd_x_hcpc_code.csv',
    required: ['lcd_id', 'lcd_version', 'hcpc_code_id', 'hcpc_code_group'],
    write: codeSpec('LCD', 'HCPCS', 'listed', 'hcpc_code_id', 'hcpc_code_group'),
  },
  {
    file: 'lcd_x_hcpc_code_group.csv',
    required: ['lcd_id', 'lcd_version', 'hcpc_code_group', 'paragraph'],
    write: groupSpec('LCD', 'hcpcs', 'hcpc_code_group'),
  },
  {
    file: 'lcd_related_documents.csv',
    required: ['lcd_id', 'lcd_version', 'r_article_id', 'r_lcd_id'],
    write: relatedSpec('LCD', 'lcd_id', 'lcd_version'),
  },
  ...CONTRACTOR_TABLES,
];

/** The tables of the Article export, in load order. */
const ARTICLE_TABLES: readonly TableSpec[] = [
  {
    file: 'article.csv',
    mandatory: true,
    required: ['article_id', 'article_version', 'title', 'article_eff_date'],
    write: (w, row, line) => {
      const id = w.int(row, 'article_id', line);
      const effective = w.date(row, 'article_eff_date', line);
      const end = w.date(row, 'article_rev_end_date', line) ?? w.date(row, 'article_end_date', line);
      const title = w.text(row, 'title');
      if (title === null || effective === null) {
        w.fail(line, `Article ${id} has no title or no effective date`);
      }
      w.doc.run(
        'Article',
        id,
        w.int(row, 'article_version', line),
        w.text(row, 'display_id') ?? `A${id}`,
        title,
        w.text(row, 'status'),
        w.text(row, 'article_type'),
        null,
        effective,
        end,
        w.date(row, 'date_retired', line),
        w.date(row, 'article_pub_date', line),
        w.date(row, 'last_updated', line),
        effective,
        end,
        w.sourceId,
      );
    },
  },
  contractorLinkSpec('Article'),
  {
    file: 'article_x_hcpc_code.csv',
    required: ['article_id', 'article_version', 'hcpc_code_id', 'hcpc_code_group'],
    write: codeSpec('Article', 'HCPCS', 'listed', 'hcpc_code_id', 'hcpc_code_group'),
  },
  {
    file: 'article_x_hcpc_code_group.csv',
    required: ['article_id', 'article_version', 'hcpc_code_group', 'paragraph'],
    write: groupSpec('Article', 'hcpcs', 'hcpc_code_group'),
  },
  {
    file: 'article_x_icd10_covered.csv',
    required: ['article_id', 'article_version', 'icd10_code_id', 'icd10_covered_group'],
    write: codeSpec('Article', 'ICD10CM', 'covered', 'icd10_code_id', 'icd10_covered_group'),
  },
  {
    file: 'article_x_icd10_covered_group.csv',
    required: ['article_id', 'article_version', 'icd10_covered_group', 'paragraph'],
    write: groupSpec('Article', 'icd10-covered', 'icd10_covered_group', 'icd10_covered_ast'),
  },
  {
    file: 'article_x_icd10_noncovered.csv',
    required: ['article_id', 'article_version', 'icd10_code_id', 'icd10_noncovered_group'],
    write: codeSpec('Article', 'ICD10CM', 'noncovered', 'icd10_code_id', 'icd10_noncovered_group'),
  },
  {
    file: 'article_x_icd10_noncovered_group.csv',
    required: ['article_id', 'article_version', 'icd10_noncovered_group', 'paragraph'],
    write: groupSpec('Article', 'icd10-noncovered', 'icd10_noncovered_group'),
  },
  {
    file: 'article_related_documents.csv',
    required: ['article_id', 'article_version', 'r_article_id', 'r_lcd_id'],
    write: relatedSpec('Article', 'article_id', 'article_version'),
  },
  ...CONTRACTOR_TABLES,
];

// --- ZIP held in memory -------------------------------------------------------------------------------------------

/** Decodes bytes as UTF-8 while they are valid UTF-8, else as Windows-1252 from the first invalid chunk on. */
class TextDecode extends Transform {
  private utf8: TextDecoder | undefined = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
  private readonly cp1252 = new TextDecoder('windows-1252');
  constructor() {
    super({ readableObjectMode: false, decodeStrings: true });
    this.setEncoding('utf8');
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    if (this.utf8) {
      try {
        done(null, this.utf8.decode(chunk, { stream: true }));
        return;
      } catch {
        this.utf8 = undefined;
      }
    }
    done(null, this.cp1252.decode(chunk, { stream: true }));
  }
  override _flush(done: TransformCallback): void {
    done(null, this.utf8 ? this.utf8.decode() : this.cp1252.decode());
  }
}

// --- recognition ----------------------------------------------------------------------------------------------------

const NESTED = /(?:^|\/)((?:current|all)_(lcd|article))_csv\.zip$/i;
const DIRECT = /^((?:current|all)_(lcd|article))_csv\.zip$/i;

/** The DOS date of the first entry of a ZIP from its first local header: the day the export was written. */
export function zipHeadDate(head: string): string | undefined {
  const b = Buffer.from(head, 'latin1');
  if (b.length < 30 || b.readUInt32LE(0) !== 0x04034b50) {
    return undefined;
  }
  const d = b.readUInt16LE(12);
  const year = 1980 + (d >> 9);
  const month = (d >> 5) & 0xf;
  const day = d & 0x1f;
  return month >= 1 && month <= 12 && day >= 1
    ? `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`
    : undefined;
}

function exportUnit(kind: string, name: string, member: string | undefined, head: string): SourceUnit | undefined {
  const date = zipHeadDate(head);
  if (date === undefined) {
    return undefined;
  }
  return {
    dataset: kind.toLowerCase() === 'lcd' ? 'mcd-lcd' : 'mcd-article',
    member,
    release: `${name.toLowerCase()} ${date}`,
    validFrom: date,
  };
}

async function loadExport(ctx: LoadContext): Promise<void> {
  const member = ctx.unit.member ?? ctx.file.name;
  const zip = await readAllBytes(await ctx.open());
  const w: Writers = new Writers(ctx, member);
  let entries: ZipBufferEntry[];
  try {
    entries = zipBufferEntries(zip);
  } catch (err) {
    throw new ReferenceDataError({ file: ctx.file.relPath, member }, (err as Error).message, { cause: err });
  }
  const byName = new Map(entries.map((e) => [e.name.split('/').pop()!.toLowerCase(), e]));
  const tables = ctx.unit.dataset === 'mcd-lcd' ? LCD_TABLES : ARTICLE_TABLES;
  for (const spec of tables) {
    const entry = byName.get(spec.file);
    w.table = spec.file;
    if (!entry) {
      if (spec.mandatory) {
        w.fail(undefined, `the export has no ${spec.file}`);
      }
      continue;
    }
    await loadTable(w, spec, openZipBufferEntry(zip, entry), ctx);
  }
}

async function loadTable(w: Writers, spec: TableSpec, bytes: Readable, ctx: LoadContext): Promise<void> {
  const parser = bytes
    .pipe(new TextDecode())
    .pipe(
      parse({
        bom: true,
        columns: (header: string[]) => header.map((h) => h.trim().toLowerCase()),
        info: true,
        skip_empty_lines: true,
      }),
    );
  let checked = false;
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: Row; info: { lines: number } }>) {
      if (!checked) {
        const missing = spec.required.filter((c) => !(c in record));
        if (missing.length > 0) {
          w.fail(1, `missing column(s) ${missing.join(', ')}`);
        }
        checked = true;
      }
      try {
        spec.write(w, record, info.lines);
      } catch (err) {
        if (err instanceof ReferenceDataError) {
          throw err;
        }
        w.fail(info.lines, (err as Error).message);
      }
      ctx.progress.add(1);
    }
  } catch (err) {
    if (err instanceof ReferenceDataError) {
      throw err;
    }
    w.fail((err as { lines?: number }).lines, `not valid CSV: ${(err as Error).message}`);
  }
}

export const mcdExportLoader: Loader = {
  name: 'mcd-export',
  version: 1,
  ddl,
  async recognise(file, probe) {
    if (!/\.zip$/i.test(file.name)) {
      return [];
    }
    const direct = DIRECT.exec(file.name);
    if (direct) {
      const unit = exportUnit(direct[2]!, direct[1]!, undefined, await probe.head(undefined, 64));
      return unit ? [unit] : [];
    }
    const units: SourceUnit[] = [];
    for (const member of await probe.members()) {
      const nested = NESTED.exec(member);
      if (nested) {
        const unit = exportUnit(nested[2]!, nested[1]!, member, await probe.head(member, 64));
        if (unit) {
          units.push(unit);
        }
      }
    }
    return units;
  },
  load: loadExport,
};
