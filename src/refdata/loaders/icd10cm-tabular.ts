// ICD-10-CM Tabular List XML (CDC `icd10cm_tabular_YYYY.xml`, root `ICD10CM.tabular`; domain.md section 2),
// streamed with saxes: chapters, sections (blocks), every `diag` with its place in the hierarchy, every
// instructional note at the level where it stands (chapter, section or diag), the code ranges each note names,
// the `sevenChrDef` values, and the 7th-character codes built from them. Every row carries the tabular release it
// came from (`source_id`), so notes served for a later year's code can say "from the FY2023 tabular".
import { ReferenceDataError, type SourcePosition } from '../../errors.js';
import { createXmlParser, XmlSyntaxError } from '../../readers/xml.js';
import { fiscalYearStart } from '../builder/dates.js';
import type { Loader, SourceUnit } from '../builder/types.js';
import { normaliseCode } from '../../schemas/code-systems.js';
import { TABULAR_NOTE_TYPES, type TabularLevel, type TabularNoteType } from '../../schemas/tabular.js';
import { parseNoteCodeRanges } from '../notes/code-ranges.js';

const NOTE_TYPES: ReadonlySet<string> = new Set(TABULAR_NOTE_TYPES);
const FRAMES: ReadonlySet<string> = new Set(['chapter', 'section', 'diag']);
const FILE_NAME = /^(?:.*\/)?icd-?10-?cm[-_ ]?tabular[^/]*\.xml(?:\.gz)?$/i;
const DOTTED_DIAG = /^[A-Z]\d[0-9A-Z](?:\.[0-9A-Z]{1,4})?$/;

export const tabularDdl = `
CREATE TABLE tabular_chapter (
  source_id INTEGER NOT NULL REFERENCES source(id),
  chapter TEXT NOT NULL,
  description TEXT NOT NULL,
  first_code TEXT,
  last_code TEXT,
  ord INTEGER NOT NULL,
  valid_from TEXT NOT NULL,
  valid_to TEXT,
  PRIMARY KEY (source_id, chapter)
) WITHOUT ROWID;
CREATE TABLE tabular_section (
  source_id INTEGER NOT NULL REFERENCES source(id),
  section TEXT NOT NULL,
  chapter TEXT NOT NULL,
  description TEXT NOT NULL,
  first_code TEXT NOT NULL,
  last_code TEXT NOT NULL,
  ord INTEGER NOT NULL,
  valid_from TEXT NOT NULL,
  valid_to TEXT,
  PRIMARY KEY (source_id, section)
) WITHOUT ROWID;
CREATE TABLE tabular_diag (
  source_id INTEGER NOT NULL REFERENCES source(id),
  code TEXT NOT NULL,
  dotted TEXT NOT NULL,
  description TEXT NOT NULL,
  parent TEXT,
  depth INTEGER NOT NULL,
  chapter TEXT NOT NULL,
  section TEXT NOT NULL,
  leaf INTEGER NOT NULL,
  placeholder INTEGER NOT NULL,
  ord INTEGER NOT NULL,
  valid_from TEXT NOT NULL,
  valid_to TEXT,
  PRIMARY KEY (source_id, code)
) WITHOUT ROWID;
CREATE INDEX tabular_diag_by_parent ON tabular_diag (source_id, parent);
CREATE TABLE tabular_note (
  id INTEGER PRIMARY KEY,
  source_id INTEGER NOT NULL REFERENCES source(id),
  level TEXT NOT NULL CHECK (level IN ('chapter', 'section', 'diag')),
  owner TEXT NOT NULL,
  type TEXT NOT NULL,
  block INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  text TEXT NOT NULL,
  line INTEGER NOT NULL,
  valid_from TEXT NOT NULL,
  valid_to TEXT
);
CREATE INDEX tabular_note_by_owner ON tabular_note (source_id, level, owner);
CREATE TABLE tabular_note_range (
  note_id INTEGER NOT NULL REFERENCES tabular_note(id),
  seq INTEGER NOT NULL,
  source_id INTEGER NOT NULL REFERENCES source(id),
  first_code TEXT NOT NULL,
  last_code TEXT NOT NULL,
  text TEXT NOT NULL,
  incomplete INTEGER NOT NULL,
  qualifier TEXT,
  valid_from TEXT NOT NULL,
  valid_to TEXT,
  PRIMARY KEY (note_id, seq)
) WITHOUT ROWID;
CREATE INDEX tabular_note_range_by_first ON tabular_note_range (source_id, first_code);
CREATE TABLE tabular_seven_chr (
  source_id INTEGER NOT NULL REFERENCES source(id),
  level TEXT NOT NULL CHECK (level IN ('chapter', 'section', 'diag')),
  owner TEXT NOT NULL,
  char TEXT NOT NULL,
  description TEXT NOT NULL,
  ord INTEGER NOT NULL,
  valid_from TEXT NOT NULL,
  valid_to TEXT,
  PRIMARY KEY (source_id, level, owner, char)
) WITHOUT ROWID;
CREATE TABLE tabular_extended_code (
  source_id INTEGER NOT NULL REFERENCES source(id),
  code TEXT NOT NULL,
  dotted TEXT NOT NULL,
  base_code TEXT NOT NULL,
  seven_chr TEXT NOT NULL,
  def_level TEXT NOT NULL,
  def_owner TEXT NOT NULL,
  description TEXT NOT NULL,
  valid_from TEXT NOT NULL,
  valid_to TEXT,
  PRIMARY KEY (source_id, code)
) WITHOUT ROWID;
CREATE INDEX tabular_extended_code_by_base ON tabular_extended_code (source_id, base_code);
`;

/** Dots an undotted ICD-10-CM code after its third character: `T8140XA` → `T81.40XA`, `E11` → `E11`. */
export function dotIcd10cm(code: string): string {
  return code.length > 3 ? `${code.slice(0, 3)}.${code.slice(3)}` : code;
}

/**
 * Builds the 7th-character codes of a leaf `diag` from the `sevenChrDef` in force for it (its own or inherited):
 * the leaf is padded with the placeholder `X` to six characters, then each 7th character is appended
 * (tabular introduction, "7th characters and placeholder X"): `T81.40` + `A` → `T8140XA`, `S72.001` + `A` → `S72001A`.
 * @param leaf - the leaf code, dotted or not (3 to 6 characters)
 * @param chars - the `extension@char` values in force, in tabular order
 * @returns the extended codes, upper-case and undotted, in the order of `chars`
 * @throws RangeError when the leaf is not 3 to 6 characters or a 7th character is not one letter or digit
 */
export function expandSevenChr(leaf: string, chars: readonly string[]): string[] {
  const base = normaliseCode(leaf);
  if (!/^[A-Z]\d[0-9A-Z]{1,4}$/.test(base)) {
    throw new RangeError(
      `expandSevenChr: leaf must be an ICD-10-CM code of 3 to 6 characters, got ${JSON.stringify(leaf)}`,
    );
  }
  return chars.map((c) => {
    if (!/^[0-9A-Za-z]$/.test(c)) {
      throw new RangeError(`expandSevenChr: a 7th character is one letter or digit, got ${JSON.stringify(c)}`);
    }
    return `${base.padEnd(6, 'X')}${c.toUpperCase()}`;
  });
}

function unitFor(name: string, head: string): SourceUnit | undefined {
  const root = /<ICD10CM\.tabular\b([^>]*)>/.exec(head);
  const version = /<version>\s*(\d{4})\s*<\/version>/.exec(head);
  // An addenda file (`isAddenda="true"`) lists changes only; it is not a tabular to load.
  if (!root || !version || /isAddenda\s*=\s*["']true["']/.test(root[1] ?? '')) {
    return undefined;
  }
  const fy = Number(version[1]);
  return { dataset: 'icd10cm-tabular', member: name, release: `FY${fy}`, validFrom: fiscalYearStart(fy) };
}

interface Frame {
  readonly kind: TabularLevel;
  readonly line: number;
  readonly ord: number;
  readonly placeholder: boolean;
  key: string | undefined;
  dotted: string;
  description: string | undefined;
  /** Note elements seen so far in this frame (the next one's `block`). */
  blocks: number;
  /** Child `diag`s. */
  children: number;
}

interface DiagInfo {
  readonly parent: string | null;
  readonly section: string;
  readonly chapter: string;
  readonly dotted: string;
  readonly description: string;
  readonly leaf: boolean;
  readonly line: number;
}

interface SevenChrValue {
  readonly char: string;
  readonly description: string;
}

export const icd10cmTabularLoader: Loader = {
  name: 'icd10cm-tabular',
  // 2: a qualifier written without a space before it (`S92.-with 7th character B`) or with words before the
  // ordinal (`with open fracture 7th character`) is read as one. 3: a qualifier after a comma-separated list of codes
  // restricts every code of the list (`F10, F13, F19 with .26, .96`), not only the last.
  version: 3,
  ddl: tabularDdl,
  async recognise(file, probe) {
    if (/\.zip$/i.test(file.name)) {
      const units: SourceUnit[] = [];
      for (const member of await probe.members()) {
        if (FILE_NAME.test(member)) {
          const unit = unitFor(member, await probe.head(member, 2048));
          if (unit) {
            units.push(unit);
          }
        }
      }
      return units;
    }
    if (!FILE_NAME.test(file.name)) {
      return [];
    }
    const unit = unitFor(file.name, await probe.head(undefined, 2048));
    return unit ? [{ ...unit, member: undefined }] : [];
  },
  async load(ctx) {
    const { db, sourceId, unit } = ctx;
    const from = unit.validFrom;
    const to = unit.validTo ?? null;
    const at = (line: number): SourcePosition => ({ file: ctx.file.relPath, member: unit.member, line });
    const insertChapter = db.prepare(
      `INSERT INTO tabular_chapter (source_id, chapter, description, first_code, last_code, ord, valid_from, valid_to) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const insertSection = db.prepare(
      `INSERT INTO tabular_section (source_id, section, chapter, description, first_code, last_code, ord, valid_from, valid_to)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const insertDiag = db.prepare(
      `INSERT INTO tabular_diag (source_id, code, dotted, description, parent, depth, chapter, section, leaf, placeholder, ord, valid_from, valid_to)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const insertNote = db.prepare(
      `INSERT INTO tabular_note (source_id, level, owner, type, block, seq, text, line, valid_from, valid_to) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const insertRange = db.prepare(
      `INSERT INTO tabular_note_range (note_id, seq, source_id, first_code, last_code, text, incomplete, qualifier, valid_from, valid_to)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const insertSevenChr = db.prepare(
      `INSERT INTO tabular_seven_chr (source_id, level, owner, char, description, ord, valid_from, valid_to) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const insertExtended = db.prepare(
      `INSERT INTO tabular_extended_code (source_id, code, dotted, base_code, seven_chr, def_level, def_owner, description, valid_from, valid_to)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    /** Runs an insert, turning a constraint failure (a duplicate code, say) into an error at the XML line. */
    const run = (line: number, what: string, fn: () => void): void => {
      try {
        fn();
      } catch (err) {
        throw new ReferenceDataError(at(line), `${what}: ${(err as Error).message}`, { cause: err });
      }
      ctx.progress.add(1);
    };

    const path: string[] = [];
    const frames: Frame[] = [];
    const diags = new Map<string, DiagInfo>();
    const sevenChrDefs = new Map<string, SevenChrValue[]>();
    let version: string | undefined;
    let ord = 0;
    let captured: string[] | undefined;
    let captureDepth = 0;
    let container:
      { type: TabularNoteType; level: TabularLevel; owner: string; block: number; seq: number } | undefined;
    let pendingChar: string | undefined;

    const nearest = (kind: TabularLevel): Frame | undefined => frames.findLast((f) => f.kind === kind);
    const ownerOf = (frame: Frame, line: number, element: string): string => {
      if (frame.key === undefined) {
        throw new ReferenceDataError(at(line), `<${element}> in a ${frame.kind} before its <name>`);
      }
      return frame.key;
    };
    const startCapture = (): void => {
      if (!captured) {
        captured = [];
        captureDepth = path.length;
      }
    };
    const endCapture = (): string | undefined => {
      if (!captured || captureDepth !== path.length + 1) {
        return undefined;
      }
      const text = captured.join('').trim();
      captured = undefined;
      return text;
    };

    const onOpen = (name: string, attrs: Readonly<Record<string, string>>, line: number): void => {
      const parent = path[path.length - 1];
      path.push(name);
      if (path.length === 1) {
        if (name !== 'ICD10CM.tabular') {
          throw new ReferenceDataError(at(line), `root element is <${name}>, expected <ICD10CM.tabular>`);
        }
        return;
      }
      const frame = frames[frames.length - 1];
      if (FRAMES.has(name)) {
        const kind = name as TabularLevel;
        const expectedParent = kind === 'chapter' ? 'ICD10CM.tabular' : kind === 'section' ? 'chapter' : undefined;
        if (expectedParent !== undefined ? parent !== expectedParent : parent !== 'section' && parent !== 'diag') {
          throw new ReferenceDataError(at(line), `<${name}> inside <${parent ?? ''}>`);
        }
        const key = kind === 'section' ? attrs['id']?.trim() : undefined;
        if (kind === 'section' && !key) {
          throw new ReferenceDataError(at(line), '<section> without an id attribute');
        }
        if (kind === 'diag' && frame) {
          frame.children++;
        }
        frames.push({
          kind,
          line,
          ord: ord++,
          placeholder: attrs['placeholder'] === 'true',
          key,
          dotted: '',
          description: undefined,
          blocks: 0,
          children: 0,
        });
      } else if ((name === 'name' || name === 'desc') && parent !== undefined && FRAMES.has(parent)) {
        startCapture();
      } else if (name === 'version' && parent === 'ICD10CM.tabular') {
        startCapture();
      } else if (frame && parent === frame.kind && (NOTE_TYPES.has(name) || name === 'sevenChrDef')) {
        container = {
          type: name as TabularNoteType,
          level: frame.kind,
          owner: ownerOf(frame, line, name),
          block: frame.blocks++,
          seq: 0,
        };
      } else if (
        name === 'note' &&
        container &&
        (parent === container.type || (parent === 'sevenChrDef' && container.type === 'sevenChrDef'))
      ) {
        startCapture();
      } else if (name === 'extension' && parent === 'sevenChrDef' && container) {
        pendingChar = attrs['char']?.trim();
        if (!pendingChar || !/^[0-9A-Za-z]$/.test(pendingChar)) {
          throw new ReferenceDataError(
            at(line),
            `<extension> with char ${JSON.stringify(attrs['char'] ?? null)}, expected one letter or digit`,
          );
        }
        startCapture();
      }
    };

    const onText = (text: string): void => {
      captured?.push(text);
    };

    const closeFrame = (line: number): void => {
      const frame = frames.pop();
      if (!frame) {
        return;
      }
      const description = frame.description ?? '';
      const chapter = nearest('chapter');
      const section = nearest('section');
      if (frame.kind === 'chapter') {
        const chapterKey = ownerOf(frame, line, 'chapter');
        const range = parseNoteCodeRanges(description).at(-1);
        run(line, `chapter ${chapterKey}`, () =>
          insertChapter.run(
            sourceId,
            chapterKey,
            description,
            range?.first ?? null,
            range?.last ?? null,
            frame.ord,
            from,
            to,
          ),
        );
      } else if (frame.kind === 'section') {
        const id = frame.key ?? '';
        const [first = id, last = first] = id.split('-').map((c) => normaliseCode(c));
        run(line, `section ${id}`, () =>
          insertSection.run(
            sourceId,
            id,
            chapter ? ownerOf(chapter, line, 'section') : '',
            description,
            first,
            last,
            frame.ord,
            from,
            to,
          ),
        );
      } else {
        const code = ownerOf(frame, line, 'diag');
        const parentDiag = nearest('diag');
        const info: DiagInfo = {
          parent: parentDiag?.key ?? null,
          section: section?.key ?? '',
          chapter: chapter?.key ?? '',
          dotted: frame.dotted,
          description,
          leaf: frame.children === 0,
          line: frame.line,
        };
        const depth = frames.filter((f) => f.kind === 'diag').length + 1;
        run(frame.line, `diag ${frame.dotted}`, () =>
          insertDiag.run(
            sourceId,
            code,
            frame.dotted,
            description,
            info.parent,
            depth,
            info.chapter,
            info.section,
            info.leaf ? 1 : 0,
            frame.placeholder ? 1 : 0,
            frame.ord,
            from,
            to,
          ),
        );
        diags.set(code, info);
      }
    };

    const onClose = (name: string, line: number): void => {
      path.pop();
      const frame = frames[frames.length - 1];
      const text = endCapture();
      if (name === 'version' && text !== undefined) {
        version = text;
      } else if (name === 'name' && text !== undefined && frame) {
        if (frame.kind === 'diag') {
          if (!DOTTED_DIAG.test(text)) {
            throw new ReferenceDataError(at(line), `diag name ${JSON.stringify(text)} is not an ICD-10-CM code`);
          }
          frame.dotted = text;
          frame.key = normaliseCode(text);
        } else if (frame.kind === 'chapter') {
          frame.key = text;
        }
      } else if (name === 'desc' && text !== undefined && frame) {
        frame.description = text;
      } else if (name === 'note' && text !== undefined && container) {
        const note = container;
        let noteId = 0;
        run(line, `${note.type} note`, () => {
          noteId = Number(
            insertNote.run(sourceId, note.level, note.owner, note.type, note.block, note.seq++, text, line, from, to)
              .lastInsertRowid,
          );
        });
        parseNoteCodeRanges(text).forEach((r, i) =>
          run(line, `code range ${r.text}`, () =>
            insertRange.run(noteId, i, sourceId, r.first, r.last, r.text, r.incomplete ? 1 : 0, r.qualifier, from, to),
          ),
        );
      } else if (name === 'extension' && text !== undefined && container && pendingChar !== undefined) {
        const def = container;
        const char = pendingChar.toUpperCase();
        run(line, `sevenChrDef extension ${char}`, () =>
          insertSevenChr.run(sourceId, def.level, def.owner, char, text, def.seq++, from, to),
        );
        const key = `${def.level}|${def.owner}`;
        sevenChrDefs.set(key, [...(sevenChrDefs.get(key) ?? []), { char, description: text }]);
        pendingChar = undefined;
      } else if (NOTE_TYPES.has(name) || name === 'sevenChrDef') {
        if (container && container.type === name) {
          container = undefined;
        }
      } else if (FRAMES.has(name)) {
        closeFrame(line);
      }
    };

    // saxes reports a syntax error only once the chunk holding it is written, while handlers run (and may fail on
    // the broken structure) during that write: a handler failure is kept, later events are ignored, and after each
    // chunk the failure on the earlier line is reported.
    let handlerError: ReferenceDataError | undefined;
    const guard =
      <A extends unknown[]>(fn: (...args: A) => void) =>
      (...args: A): void => {
        if (handlerError) {
          return;
        }
        try {
          fn(...args);
        } catch (err) {
          if (!(err instanceof ReferenceDataError)) {
            throw err;
          }
          handlerError = err;
        }
      };
    const raiseFirst = (syntax: XmlSyntaxError | undefined): void => {
      if (syntax && (!handlerError || syntax.line <= (handlerError.position.line ?? Number.POSITIVE_INFINITY))) {
        throw new ReferenceDataError(at(syntax.line), `malformed XML: ${syntax.message}`, { cause: syntax });
      }
      if (handlerError) {
        throw handlerError;
      }
    };
    const parser = createXmlParser({ onOpen: guard(onOpen), onText: guard(onText), onClose: guard(onClose) });
    const step = (fn: () => void): void => {
      try {
        fn();
      } catch (err) {
        if (!(err instanceof XmlSyntaxError)) {
          throw err;
        }
        raiseFirst(err);
      }
      raiseFirst(undefined);
    };
    for await (const chunk of (await ctx.open()) as AsyncIterable<Buffer>) {
      step(() => parser.write(chunk));
    }
    step(() => parser.end());
    if (version === undefined || `FY${version}` !== unit.release) {
      throw new ReferenceDataError(
        at(1),
        `<version> ${JSON.stringify(version ?? null)} does not match the release ${unit.release} recognised from the file`,
      );
    }

    // 7th characters: every leaf under a sevenChrDef (its own, or the nearest ancestor's, up to the section and
    // chapter) gets one extended code per character. Done after the whole document so the order of elements
    // inside a diag does not matter.
    for (const [code, info] of diags) {
      if (!info.leaf) {
        continue;
      }
      let defKey: string | undefined;
      for (let c: string | null = code; c !== null && defKey === undefined; c = diags.get(c)?.parent ?? null) {
        defKey = sevenChrDefs.has(`diag|${c}`) ? `diag|${c}` : undefined;
      }
      defKey ??= [`section|${info.section}`, `chapter|${info.chapter}`].find((k) => sevenChrDefs.has(k));
      const values = defKey === undefined ? undefined : sevenChrDefs.get(defKey);
      if (defKey === undefined || !values) {
        continue;
      }
      const [level = '', owner = ''] = defKey.split('|');
      let codes: string[];
      try {
        codes = expandSevenChr(
          code,
          values.map((v) => v.char),
        );
      } catch (err) {
        throw new ReferenceDataError(
          at(info.line),
          `diag ${info.dotted} under a sevenChrDef: ${(err as Error).message}`,
          { cause: err },
        );
      }
      codes.forEach((ext, i) => {
        const value = values[i];
        run(info.line, `extended code ${ext}`, () =>
          insertExtended.run(
            sourceId,
            ext,
            dotIcd10cm(ext),
            code,
            value?.char ?? '',
            level,
            owner,
            `${info.description}, ${value?.description ?? ''}`,
            from,
            to,
          ),
        );
      });
    }
  },
  finalize(db) {
    // Each row is valid as long as its tabular release is: to the day before the next release starts.
    for (const table of [
      'tabular_chapter',
      'tabular_section',
      'tabular_diag',
      'tabular_note',
      'tabular_note_range',
      'tabular_seven_chr',
      'tabular_extended_code',
    ]) {
      db.exec(
        `UPDATE ${table} SET valid_to = (SELECT s.valid_to FROM source s WHERE s.id = ${table}.source_id) WHERE valid_to IS NULL`,
      );
    }
  },
};
