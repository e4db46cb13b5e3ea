// ICD-10-CM Alphabetic Index family from the CDC XML (root `ICD10CM.index`; CDC schemas icd10cm-index.xsd and
// icd10cm-drug-neoplasm.xsd): Index to Diseases and Injuries, External Cause Index, Table of Drugs and Chemicals,
// Table of Neoplasms. Also owns the tables and the streaming term walker shared with the PCS index and drug CSV.
//
//   letter > mainTerm (level 0) > term@level (1..9, nested)  ──>  index_term: one row per term, full path, code
//   title (+ nemod) · code | seecat | subcat | codes | tab · manif · see · seeAlso · use   (columns of the row)
//   indexHeading/head@col ──> index_heading        cell@col ──> index_cell (term_id, col, code)
import type Database from 'better-sqlite3';
import { ReferenceDataError } from '../../errors.js';
import { parseXml, XmlSyntaxError } from '../../readers/xml.js';
import { fiscalYearStart } from '../builder/dates.js';
import type { LoadContext, Loader, Probe, SourceFile, SourceUnit } from '../builder/types.js';
import {
  INDEX_DATASETS,
  PATH_SEPARATOR,
  squash,
  titleKey,
  type IndexCodeKind,
  type IndexKind,
  type IndexTermFields,
} from '../../schemas/index-terms.js';

/**
 * Tables shared by the index loaders (each declares the same DDL, hence IF NOT EXISTS). Ids are given in document
 * order, so a term's subtree is the id range `[id, end_id]`. Validity is the release's; `valid_to` is filled in by
 * `finalizeIndexTerms` once the builder knows the next release.
 */
export const indexDdl = `
CREATE TABLE IF NOT EXISTS index_term (
  id INTEGER PRIMARY KEY,
  source_id INTEGER NOT NULL REFERENCES source(id),
  kind TEXT NOT NULL,
  parent_id INTEGER,
  end_id INTEGER NOT NULL,
  level INTEGER NOT NULL,
  title TEXT NOT NULL,
  title_key TEXT NOT NULL,
  nemod TEXT,
  display TEXT NOT NULL,
  path TEXT NOT NULL,
  code TEXT,
  code_as_written TEXT,
  code_kind TEXT,
  manif TEXT,
  manif_as_written TEXT,
  see TEXT,
  see_also TEXT,
  use_text TEXT,
  line INTEGER NOT NULL,
  valid_from TEXT NOT NULL,
  valid_to TEXT
);
CREATE INDEX IF NOT EXISTS index_term_by_title ON index_term (source_id, level, title_key);
CREATE INDEX IF NOT EXISTS index_term_by_code ON index_term (code) WHERE code IS NOT NULL;
CREATE INDEX IF NOT EXISTS index_term_by_manif ON index_term (manif) WHERE manif IS NOT NULL;
CREATE INDEX IF NOT EXISTS index_term_by_parent ON index_term (parent_id) WHERE parent_id IS NOT NULL;
CREATE TABLE IF NOT EXISTS index_cell (
  term_id INTEGER NOT NULL REFERENCES index_term(id),
  col INTEGER NOT NULL,
  code TEXT,
  code_as_written TEXT NOT NULL,
  source_id INTEGER NOT NULL REFERENCES source(id),
  PRIMARY KEY (term_id, col)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS index_cell_by_code ON index_cell (code) WHERE code IS NOT NULL;
CREATE TABLE IF NOT EXISTS index_heading (
  source_id INTEGER NOT NULL REFERENCES source(id),
  col INTEGER NOT NULL,
  heading TEXT NOT NULL,
  PRIMARY KEY (source_id, col)
) WITHOUT ROWID;
CREATE VIRTUAL TABLE IF NOT EXISTS index_term_fts USING fts5(
  path, nemod, content='', detail=none, tokenize='unicode61 remove_diacritics 2'
);
`;

const CM_CODE = /^([A-Z][0-9][0-9A-Z])(?:\.([0-9A-Z]{0,4}))?(-?)$/;
const PCS_CODE = /^[0-9A-Z]{3,7}$/;

/**
 * Normalises an ICD-10-CM code as the index writes it (`E11.65`, `T36.0X1`, `C34.9-`, `P92.-`) to the stored form
 * (`E1165`, `T360X1`, `C349`, `P92`). A trailing `-` marks an incomplete code (domain.md §2, Index XML).
 * @returns the undotted upper-case code, or `undefined` when the text is not a code
 */
export function normaliseIndexCode(written: string): string | undefined {
  const m = CM_CODE.exec(written.trim().toUpperCase());
  return m ? `${m[1] ?? ''}${m[2] ?? ''}` : undefined;
}

/** One term ready to be written: its fields, the id range of its subtree, and its table cells. */
export interface TermRow extends IndexTermFields {
  readonly endId: number;
  readonly cells: readonly { col: number; code: string | null; written: string }[];
}

/** Writes the terms, cells and headings of one unit through statements prepared once. */
export interface IndexWriter {
  /** Reserves the next term id (document order). */
  nextId(): number;
  /** The last id reserved so far. */
  lastId(): number;
  term(row: TermRow): void;
  heading(col: number, heading: string): void;
}

/** Prepares the inserts of one unit; ids continue after the highest id already in `index_term`. */
export function createIndexWriter(ctx: LoadContext, kind: IndexKind): IndexWriter {
  const { db, sourceId } = ctx;
  let last = (db.prepare('SELECT coalesce(max(id), 0) AS n FROM index_term').get() as { n: number }).n;
  const insertTerm = db.prepare(
    `INSERT INTO index_term (id, source_id, kind, parent_id, end_id, level, title, title_key, nemod, display, path, code,
       code_as_written, code_kind, manif, manif_as_written, see, see_also, use_text, line, valid_from, valid_to)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertFts = db.prepare('INSERT INTO index_term_fts (rowid, path, nemod) VALUES (?, ?, ?)');
  const insertCell = db.prepare(
    'INSERT INTO index_cell (term_id, col, code, code_as_written, source_id) VALUES (?, ?, ?, ?, ?)',
  );
  const insertHeading = db.prepare('INSERT INTO index_heading (source_id, col, heading) VALUES (?, ?, ?)');
  const validFrom = ctx.unit.validFrom;
  const validTo = ctx.unit.validTo ?? null;
  return {
    nextId: () => ++last,
    lastId: () => last,
    term(r: TermRow): void {
      insertTerm.run(
        r.id,
        sourceId,
        kind,
        r.parentId,
        r.endId,
        r.level,
        r.title,
        titleKey(r.title),
        r.nemod,
        r.display,
        r.path,
        r.code,
        r.codeAsWritten,
        r.codeKind,
        r.manif,
        r.manifAsWritten,
        r.see,
        r.seeAlso,
        r.use,
        r.line,
        validFrom,
        validTo,
      );
      insertFts.run(r.id, r.path, r.nemod);
      for (const c of r.cells) {
        try {
          insertCell.run(r.id, c.col, c.code, c.written, sourceId);
        } catch (err) {
          throw new ReferenceDataError(
            { file: ctx.file.relPath, member: ctx.unit.member, line: r.line },
            `cell col=${c.col}: ${(err as Error).message}`,
            { cause: err },
          );
        }
      }
      ctx.progress.add(1 + r.cells.length);
    },
    heading(col: number, heading: string): void {
      insertHeading.run(sourceId, col, heading);
      ctx.progress.add(1);
    },
  };
}

/**
 * Gives every index row the end of its release's validity (the builder derives a release's end from the next
 * release of the same dataset). Idempotent, so each index loader may call it.
 */
export function finalizeIndexTerms(db: Database.Database): void {
  const ended = db
    .prepare(
      `SELECT id, valid_to FROM source WHERE valid_to IS NOT NULL AND id IN (SELECT DISTINCT source_id FROM index_term)`,
    )
    .all() as { id: number; valid_to: string }[];
  const update = db.prepare('UPDATE index_term SET valid_to = ? WHERE source_id = ?');
  for (const s of ended) {
    update.run(s.valid_to, s.id);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Streaming XML walker (shared with icd10pcs-index.ts)

interface Frame {
  readonly id: number;
  readonly level: number;
  readonly parentId: number | null;
  readonly parentPath: string;
  readonly line: number;
  title: string;
  display: string;
  nemods: string[];
  code: { norm: string; written: string; kind: IndexCodeKind } | undefined;
  manif: { norm: string | null; written: string } | undefined;
  see: string | null;
  seeAlso: string | null;
  use: string | null;
  cells: { col: number; code: string | null; written: string }[];
}

interface Capture {
  readonly name: string;
  text: string;
  /** Title only: the title as printed, nemod in place. */
  display: string;
  afterNemod: boolean;
  readonly col?: number;
}

const TERM_FIELDS = new Set([
  'title',
  'code',
  'seecat',
  'subcat',
  'codes',
  'tab',
  'manif',
  'see',
  'seeAlso',
  'use',
  'cell',
]);

/**
 * Streams one index XML document into the index tables.
 * @param root - the expected root element (`ICD10CM.index` or `ICD10PCS.index`)
 * @throws ReferenceDataError with the line of the first malformed element
 */
export async function loadIndexXml(ctx: LoadContext, kind: IndexKind, root: string): Promise<void> {
  const writer = createIndexWriter(ctx, kind);
  const pos = { file: ctx.file.relPath, member: ctx.unit.member };
  const fail = (line: number, message: string): never => {
    throw new ReferenceDataError({ ...pos, line }, message);
  };
  const pcs = kind === 'pcs';
  const elements: string[] = [];
  const frames: Frame[] = [];
  const captures: Capture[] = [];
  let terms = 0;
  // saxes closes every open element on a stray close tag before it reports the error: ignore what follows the root
  // so that the parser's own error (with its line) is the one raised.
  let rootClosed = false;

  const codeOf = (
    written: string,
    codeKind: IndexCodeKind,
    line: number,
  ): { norm: string; written: string; kind: IndexCodeKind } => {
    const text = squash(written);
    const norm = pcs ? (PCS_CODE.test(text.toUpperCase()) ? text.toUpperCase() : undefined) : normaliseIndexCode(text);
    if (norm === undefined) {
      return fail(line, `<${codeKind}> is not an ICD-10-${pcs ? 'PCS' : 'CM'} code: ${JSON.stringify(text)}`);
    }
    return { norm, written: text, kind: codeKind };
  };

  const onOpen = (name: string, attrs: Readonly<Record<string, string>>, line: number): void => {
    if (rootClosed) {
      return;
    }
    const parent = elements.at(-1);
    elements.push(name);
    if (parent === undefined) {
      if (name !== root) {
        fail(line, `root element is <${name}>, expected <${root}>`);
      }
      return;
    }
    const top = frames.at(-1);
    if (name === 'mainTerm' || name === 'term') {
      const level = name === 'mainTerm' ? 0 : Number(attrs['level']);
      if (name === 'mainTerm' ? parent !== 'letter' : parent !== 'mainTerm' && parent !== 'term') {
        fail(line, `<${name}> inside <${parent}>`);
      }
      if (level !== frames.length) {
        fail(line, `<term level="${attrs['level'] ?? ''}"> at nesting depth ${frames.length}`);
      }
      const parentPath = top ? (top.title === '' ? top.parentPath : pathOf(top)) : '';
      frames.push({
        id: writer.nextId(),
        level,
        parentId: top?.id ?? null,
        parentPath,
        line,
        title: '',
        display: '',
        nemods: [],
        code: undefined,
        manif: undefined,
        see: null,
        seeAlso: null,
        use: null,
        cells: [],
      });
      return;
    }
    const termChild = parent === 'mainTerm' || parent === 'term';
    if (termChild && TERM_FIELDS.has(name)) {
      let col: number | undefined;
      if (name === 'cell') {
        col = Number(attrs['col']);
        if (!Number.isInteger(col) || col < 1 || col > 9) {
          fail(line, `<cell col="${attrs['col'] ?? ''}">: col must be 1 to 9`);
        }
      }
      captures.push({ name, text: '', display: '', afterNemod: false, ...(col === undefined ? {} : { col }) });
    } else if (name === 'nemod' && parent === 'title' && captures.at(-1)?.name === 'title') {
      captures.push({ name, text: '', display: '', afterNemod: false });
    } else if ((name === 'codes' || name === 'tab') && (parent === 'see' || parent === 'use') && top) {
      captures.push({ name, text: '', display: '', afterNemod: false });
    } else if (name === 'head' && parent === 'indexHeading') {
      const col = Number(attrs['col']);
      if (!Number.isInteger(col) || col < 1 || col > 9) {
        fail(line, `<head col="${attrs['col'] ?? ''}">: col must be 1 to 9`);
      }
      captures.push({ name, text: '', display: '', afterNemod: false, col });
    }
  };

  const onText = (text: string): void => {
    const c = captures.at(-1);
    if (!c || rootClosed) {
      return;
    }
    if (c.name === 'title' && c.afterNemod) {
      // "Acid<nemod>(corrosive)</nemod> NEC": keep a space between the modifier and the words after it.
      c.display += /^[\p{L}\p{N}(]/u.test(text) ? ` ${text}` : text;
      c.afterNemod = !/\S/.test(text);
    } else {
      c.display += text;
    }
    c.text += text;
  };

  const onClose = (name: string, line: number): void => {
    if (rootClosed) {
      return;
    }
    elements.pop();
    rootClosed = elements.length === 0;
    const c = captures.at(-1);
    if (c && c.name === name) {
      captures.pop();
      closeCapture(c, line);
      return;
    }
    if (name === 'mainTerm' || name === 'term') {
      const f = frames.pop();
      if (f) {
        writeFrame(f);
      }
    }
  };

  const closeCapture = (c: Capture, line: number): void => {
    if (c.name === 'head') {
      writer.heading(c.col ?? 0, squash(c.text));
      return;
    }
    const f = frames.at(-1);
    if (!f) {
      return;
    }
    const setCode = (codeKind: IndexCodeKind): void => {
      if (f.code) {
        fail(line, `term has both <${f.code.kind}> and <${codeKind}>`);
      }
      f.code = codeOf(c.text, codeKind, line);
    };
    switch (c.name) {
      case 'nemod': {
        const title = captures.at(-1);
        const nemod = squash(c.text);
        if (title && nemod !== '') {
          f.nemods.push(nemod);
          title.display += `${/\S$/.test(title.display) ? ' ' : ''}${nemod}`;
          title.afterNemod = true;
        }
        return;
      }
      case 'title':
        f.title = squash(c.text);
        f.display = squash(c.display);
        return;
      case 'code':
      case 'seecat':
      case 'subcat':
      case 'codes':
      case 'tab':
        setCode(c.name);
        return;
      case 'manif': {
        const written = squash(c.text);
        // The index sometimes misuses <manif> for words ("SCFE"); those keep their text but give no code.
        f.manif = { norm: normaliseIndexCode(written) ?? null, written };
        return;
      }
      case 'see':
        f.see = squash(c.text);
        return;
      case 'seeAlso':
        f.seeAlso = squash(c.text);
        return;
      case 'use':
        f.use = squash(c.text);
        return;
      case 'cell': {
        const written = squash(c.text);
        const col = c.col ?? 0;
        if (f.cells.some((x) => x.col === col)) {
          fail(line, `second <cell col="${col}"> in one term`);
        }
        // "--" (drug table) and "-" (neoplasm table) mean no code in that column.
        const code =
          written === '--' || written === '-' || written === ''
            ? null
            : (normaliseIndexCode(written) ??
              fail(line, `<cell col="${col}"> is not a code: ${JSON.stringify(written)}`));
        f.cells.push({ col, code, written });
        return;
      }
      default:
        return;
    }
  };

  const writeFrame = (f: Frame): void => {
    terms++;
    writer.term({
      id: f.id,
      parentId: f.parentId,
      endId: writer.lastId(),
      level: f.level,
      title: f.title,
      nemod: f.nemods.length > 0 ? f.nemods.join(' ') : null,
      display: f.display,
      path: f.title === '' ? f.parentPath : pathOf(f),
      code: f.code?.norm ?? null,
      codeAsWritten: f.code?.written ?? null,
      codeKind: f.code?.kind ?? null,
      manif: f.manif?.norm ?? null,
      manifAsWritten: f.manif?.written ?? null,
      see: f.see,
      seeAlso: f.seeAlso,
      use: f.use,
      line: f.line,
      cells: f.cells,
    });
  };

  try {
    await parseXml(await ctx.open(), { onOpen, onText, onClose });
  } catch (err) {
    if (err instanceof XmlSyntaxError) {
      throw new ReferenceDataError({ ...pos, line: err.line }, `not well-formed XML: ${err.message}`, { cause: err });
    }
    throw err;
  }
  if (terms === 0) {
    throw new ReferenceDataError(pos, `no <mainTerm> in the ${root} document`);
  }
}

function pathOf(f: Frame): string {
  return f.parentPath === '' ? f.title : `${f.parentPath}${PATH_SEPARATOR}${f.title}`;
}

// ---------------------------------------------------------------------------------------------------------------
// Recognition

/** What the first bytes of an index XML document say about it. */
export interface IndexXmlHead {
  readonly root: string;
  readonly version: number | undefined;
  /** The document `<title>` (before the first letter), if any. */
  readonly title: string | undefined;
  /** Text of `<head col="1">`, for the drug and neoplasm tables. */
  readonly firstHeading: string | undefined;
}

/** Reads the root element, `<version>`, document title and first column heading from the head of an index XML. */
export function readIndexXmlHead(head: string): IndexXmlHead | undefined {
  const root = /<(ICD10(?:CM|PCS)\.index)[\s>/]/.exec(head)?.[1];
  if (root === undefined) {
    return undefined;
  }
  const before = head.slice(0, Math.max(0, head.indexOf('<letter')) || head.length);
  const version = /<version>\s*(\d{4})\s*<\/version>/.exec(before)?.[1];
  return {
    root,
    version: version === undefined ? undefined : Number(version),
    title: /<title>([^<]*)<\/title>/.exec(before)?.[1]?.trim(),
    firstHeading: /<head\s+col="1"\s*>([^<]*)<\/head>/.exec(before)?.[1]?.trim(),
  };
}

/**
 * Recognises index XML files (plain, `.gz`, or members of a release ZIP) whose name matches `namePattern` (group 1:
 * the kind word, group 2: the year) and whose head passes `accept`. The release is the `<version>` year (the
 * name's year when the document has none); it is in force from the start of that fiscal year.
 */
export async function recogniseIndexXml(
  file: SourceFile,
  probe: Probe,
  namePattern: RegExp,
  accept: (word: string, head: IndexXmlHead) => IndexKind | undefined,
): Promise<SourceUnit[]> {
  const candidates = /\.zip$/i.test(file.name)
    ? (await probe.members()).filter((m) => namePattern.test(m))
    : namePattern.test(file.name)
      ? [undefined]
      : [];
  const units: SourceUnit[] = [];
  for (const member of candidates) {
    const m = namePattern.exec(member ?? file.name);
    let head: IndexXmlHead | undefined;
    try {
      head = readIndexXmlHead(await probe.head(member, 4096));
    } catch {
      head = undefined; // not readable as declared (e.g. an HTML page saved under a .gz name): not ours
    }
    const kind = m && head ? accept((m[1] ?? '').toLowerCase(), head) : undefined;
    const year = head?.version ?? Number(m?.[2]);
    if (kind && Number.isInteger(year)) {
      units.push({ dataset: INDEX_DATASETS[kind], member, release: `FY${year}`, validFrom: fiscalYearStart(year) });
    }
  }
  return units;
}

const CM_INDEX_NAME = /(?:^|\/)icd-?10-?cm[-_]?(index|eindex|drug|neoplasm)[-_](\d{4})\.xml(?:\.gz)?$/i;

/** The kind an ICD-10-CM index file claims by name, confirmed by its root, title or first column heading. */
function acceptCm(word: string, head: IndexXmlHead): IndexKind | undefined {
  if (head.root !== 'ICD10CM.index') {
    return undefined;
  }
  const title = head.title ?? '';
  const first = head.firstHeading ?? '';
  switch (word) {
    case 'index':
      return /index to diseases/i.test(title) && head.firstHeading === undefined ? 'disease' : undefined;
    case 'eindex':
      return /external cause/i.test(title) ? 'external' : undefined;
    case 'drug':
      return /^substance$/i.test(first) ? 'drug' : undefined;
    case 'neoplasm':
      return /^neoplasm/i.test(first) ? 'neoplasm' : undefined;
    default:
      return undefined;
  }
}

const KIND_OF_DATASET = new Map<string, IndexKind>(Object.entries(INDEX_DATASETS).map(([k, d]) => [d, k as IndexKind]));

/** Kind of an index dataset name (`icd10cm-drug` → `drug`). */
export function indexKindOf(dataset: string): IndexKind {
  const kind = KIND_OF_DATASET.get(dataset);
  if (kind === undefined) {
    throw new RangeError(`not an index dataset: ${JSON.stringify(dataset)}`);
  }
  return kind;
}

/**
 * ICD-10-CM Index to Diseases and Injuries, External Cause Index, Table of Drugs and Chemicals and Table of
 * Neoplasms (`icd10cm_index_2023.xml.gz`, `icd-10-cm-drug-2025.xml`, the FY2017 ZIP members, ...).
 */
export const icd10cmIndexLoader: Loader = {
  name: 'icd10cm-index',
  version: 1,
  ddl: indexDdl,
  recognise: (file, probe) => recogniseIndexXml(file, probe, CM_INDEX_NAME, acceptCm),
  load: (ctx) => loadIndexXml(ctx, indexKindOf(ctx.unit.dataset), 'ICD10CM.index'),
  finalize: finalizeIndexTerms,
};
