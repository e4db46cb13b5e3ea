// ICD-10-CM Tabular List addenda (CDC/NCHS, `icd10cm-tabular-addenda-2026.pdf` in the addenda ZIPs): the changes
// each October and April release makes to the Tabular List, published as PDF only. The newest Tabular XML in the
// data is FY2023; the addenda carry its instructional notes forward, so an Excludes1 note CDC moved to Excludes2 in
// FY2026 (D12.6 and K51.4-) stops being reported from 2025-10-01, and one added since (E11.9 and E11.A) starts.
//
// The PDF prints one line per change: an action (`No Change`, `Add`, `Delete`, `Revise from`, `Revise to`) in the
// left column, then the tabular's own text indented by level; a wrapped line goes on without an action.
//
//   No Change     D12 Benign neoplasm of colon, rectum, anus and anal canal            ← a category: notes below are its
//   No Change         D12.6 Benign neoplasm of colon, unspecified                      ← a code
//   Delete                Excludes1: inflammatory polyp of colon (K51.4-)              ← a note heading with its item
//   Add                   Excludes2: inflammatory polyp of colon (K51.4-)
//   No Change     Certain disorders involving the immune mechanism (D80-D89)           ← a section
//   No Change     Excludes1:                                                          ← heading, items indented below
//   Revise from            functional disorders of polymorphonuclear neutrophils (D71)
//   Revise to              functional disorders of polymorphonuclear neutrophils (D71-)
//
// Only the Excludes1 and Excludes2 items are kept (what the rules read; other notes' items are read only to know
// where a note block ends). Each becomes an event: add (Add, Revise to) or delete (Delete, Revise from) one item of
// one owner's notes, from the addendum's date (TabularQueries.noteIndex applies them over the Tabular XML).
import { ReferenceDataError } from '../../errors.js';
import { readAllBytes } from '../../readers/byte-source.js';
import { pdfTextLines, type PdfLine } from '../../readers/pdf-text.js';
import { normaliseCode } from '../../schemas/code-systems.js';
import type { TabularLevel } from '../../schemas/tabular.js';
import type { Loader, SourceUnit } from '../builder/types.js';
import { parseNoteCodeRanges } from '../notes/code-ranges.js';

const ddl = `
CREATE TABLE tabular_addendum (
  id INTEGER PRIMARY KEY,
  source_id INTEGER NOT NULL REFERENCES source(id),
  level TEXT NOT NULL CHECK (level IN ('chapter', 'section', 'diag')),
  owner TEXT NOT NULL,
  type TEXT NOT NULL CHECK (type IN ('excludes1', 'excludes2')),
  action TEXT NOT NULL CHECK (action IN ('add', 'delete')),
  text TEXT NOT NULL,
  page INTEGER NOT NULL,
  valid_from TEXT NOT NULL
);
CREATE INDEX tabular_addendum_by_type ON tabular_addendum (type, valid_from);
CREATE TABLE tabular_addendum_range (
  addendum_id INTEGER NOT NULL REFERENCES tabular_addendum(id),
  seq INTEGER NOT NULL,
  first_code TEXT NOT NULL,
  last_code TEXT NOT NULL,
  text TEXT NOT NULL,
  qualifier TEXT,
  PRIMARY KEY (addendum_id, seq)
) WITHOUT ROWID;
`;

/** `icd10cm-tabular-addenda-2026.pdf`, `icd-10-cm-tabular-addenda-2025.pdf`, `...-April-2024.pdf`, `...-April 1 2023.pdf`. */
const MEMBER = /(?:^|\/)icd-?10-?cm-tabular-addenda[- ](?:(April)[- ](?:1[- ])?)?(\d{4})\.pdf$/i;

/** The unit of an addenda PDF: FY releases take effect on October 1 of the year before, April ones on April 1. */
function unitOf(member: string): SourceUnit | undefined {
  const m = MEMBER.exec(member);
  if (m === null) {
    return undefined;
  }
  const year = Number(m[2]);
  return m[1] === undefined
    ? { dataset: 'icd10cm-tabular-addenda', member, release: `FY${year} addenda`, validFrom: `${year - 1}-10-01` }
    : { dataset: 'icd10cm-tabular-addenda', member, release: `April ${year} addenda`, validFrom: `${year}-04-01` };
}

/** One change to one note item. */
export interface AddendumEvent {
  readonly level: TabularLevel;
  /** Chapter number, section id (`D80-D89`) or undotted code. */
  readonly owner: string;
  readonly type: 'excludes1' | 'excludes2';
  readonly action: 'add' | 'delete';
  readonly text: string;
  readonly page: number;
}

type Action = 'No Change' | 'Add' | 'Delete' | 'Revise from' | 'Revise to';
const ACTIONS: ReadonlySet<string> = new Set<Action>(['No Change', 'Add', 'Delete', 'Revise from', 'Revise to']);
/** The action column ends before this x (points); the tabular text starts at ~90. */
const ACTION_COLUMN = 80;
/** A wrapped line may start a little left of its first line's text. */
const WRAP_SLACK = 3;
/** A note's items stand ~55 points right of its heading; inclusion terms ~35 right of their code. */
const ITEM_INDENT = 45;

interface Logical {
  readonly action: Action;
  readonly x: number;
  text: string;
  readonly page: number;
}

/** An action run together with the text after it (the reader joined two pieces set too close to tell apart). */
const JOINED_ACTION = /^(?:No Change|Revise from|Revise to|Add|Delete)/;

/**
 * Lines with an action, their wrapped continuations joined; text before the first action (the title) is left out.
 * A line whose action is run together with its text cannot say its indentation: it is a problem, not a guess.
 */
function logicalLines(lines: readonly PdfLine[], problems: string[]): Logical[] {
  const out: Logical[] = [];
  for (const line of lines) {
    const first = line.cells[0];
    if (first === undefined) {
      continue;
    }
    const action = first.text.trim();
    if (first.x < ACTION_COLUMN && ACTIONS.has(action)) {
      const rest = line.cells.slice(1);
      const start = rest.find((c) => c.text.trim() !== '');
      out.push({ action: action as Action, x: start?.x ?? first.x, text: rest.map((c) => c.text).join(''), page: line.page });
      continue;
    }
    if (first.x < ACTION_COLUMN && JOINED_ACTION.test(first.text)) {
      problems.push(`page ${line.page}: the action is not set apart from the text: "${first.text}"`);
      continue;
    }
    const last = out[out.length - 1];
    if (last !== undefined && first.x >= last.x - WRAP_SLACK) {
      last.text += ` ${line.cells.map((c) => c.text).join('')}`;
    }
  }
  for (const l of out) {
    l.text = l.text.replace(/\s+/g, ' ').trim();
  }
  return out;
}

const CHAPTER = /^Chapter (\d{1,2})$/;
/** A code heading: `D12.6 Benign neoplasm...`. */
const CODE_HEADING = /^([A-Z]\d[0-9A-Z](?:\.[0-9A-Z]{1,4})?) \S/;
/** A section heading ends with its range: `Nutritional anemias (D50-D53)`. */
const SECTION_HEADING = /\(([A-Z]\d[0-9A-Z])-([A-Z]\d[0-9A-Z])\)$/;
/** A note heading and the text after its colon (an item, when not empty). */
const NOTE_HEADING = /^(Excludes ?1|Excludes ?2|Includes|Code first|Code also|Use additional code|Notes?)\b[^:]*:(.*)$/i;
/** A note of another kind written on one line without a colon (`Code also, if applicable, ... (H01.8-)`). */
const NOTE_LINE = /^(Code first|Code also|Use additional code)\b/i;

/**
 * The Excludes1 and Excludes2 changes of one addendum, in the PDF's order.
 * @param lines - the PDF's text lines
 * @returns the events, and the lines (page and text) that could not be read: a note item under no code, section or
 *   chapter, an action run together with its text
 */
export function parseTabularAddenda(lines: readonly PdfLine[]): { events: AddendumEvent[]; problems: string[] } {
  const events: AddendumEvent[] = [];
  const problems: string[] = [];
  let owner: { level: TabularLevel; owner: string } | undefined;
  let block: { type: AddendumEvent['type'] | undefined; x: number } | undefined;
  let afterChapter = false;
  const emit = (action: Action, type: AddendumEvent['type'] | undefined, text: string, page: number): void => {
    if (type === undefined || action === 'No Change' || text === '') {
      return;
    }
    if (owner === undefined) {
      problems.push(`page ${page}: a note item under no code, section or chapter: ${text}`);
      return;
    }
    events.push({ ...owner, type, action: action === 'Add' || action === 'Revise to' ? 'add' : 'delete', text, page });
  };
  for (const l of logicalLines(lines, problems)) {
    const chapter = CHAPTER.exec(l.text);
    if (chapter !== null) {
      owner = { level: 'chapter', owner: String(Number(chapter[1])) };
      block = undefined;
      afterChapter = true;
      continue;
    }
    const heading = NOTE_HEADING.exec(l.text);
    if (heading !== null) {
      const kind = (heading[1] ?? '').toLowerCase().replace(' ', '');
      const type = kind === 'excludes1' ? 'excludes1' : kind === 'excludes2' ? 'excludes2' : undefined;
      block = { type, x: l.x };
      emit(l.action, type, (heading[2] ?? '').trim(), l.page);
      afterChapter = false;
      continue;
    }
    if (block !== undefined && l.x >= block.x + ITEM_INDENT) {
      emit(l.action, block.type, l.text, l.page);
      continue;
    }
    block = undefined;
    if (NOTE_LINE.test(l.text)) {
      continue;
    }
    const code = CODE_HEADING.exec(l.text);
    if (code !== null) {
      owner = { level: 'diag', owner: normaliseCode(code[1] ?? '') };
      afterChapter = false;
      continue;
    }
    const section = SECTION_HEADING.exec(l.text);
    if (section !== null && !afterChapter && l.x < ACTION_COLUMN + 20) {
      owner = { level: 'section', owner: `${section[1] ?? ''}-${section[2] ?? ''}` };
      continue;
    }
    // The chapter's title, an inclusion term or a code title's wrapped words: no owner of its own.
    afterChapter = false;
  }
  return { events, problems };
}

export const icd10cmTabularAddendaLoader: Loader = {
  name: 'icd10cm-tabular-addenda',
  // 2: a qualifier after a list of codes restricts them all (parseNoteCodeRanges; E87.0's FY2024 note).
  version: 2,
  ddl,
  async recognise(file, probe) {
    if (!/\.zip$/i.test(file.name)) {
      const unit = unitOf(file.name);
      return unit === undefined ? [] : [{ ...unit, member: undefined }];
    }
    const units: SourceUnit[] = [];
    for (const member of await probe.members()) {
      const unit = unitOf(member);
      if (unit !== undefined) {
        units.push(unit);
      }
    }
    return units;
  },
  async load(ctx) {
    const { db, sourceId, unit } = ctx;
    let lines: PdfLine[];
    try {
      lines = await pdfTextLines(await readAllBytes(await ctx.open()));
    } catch (e) {
      throw new ReferenceDataError({ file: ctx.file.relPath, member: unit.member }, `not a readable PDF: ${(e as Error).message}`, { cause: e });
    }
    const { events, problems } = parseTabularAddenda(lines);
    if (events.length === 0) {
      throw new ReferenceDataError(
        { file: ctx.file.relPath, member: unit.member },
        `no Excludes1 or Excludes2 change found in ${lines.length} lines: not the Tabular List addenda layout (action column, then indented text)`,
      );
    }
    if (problems.length > 0) {
      throw new ReferenceDataError(
        { file: ctx.file.relPath, member: unit.member },
        `${problems.length} line(s) could not be read, e.g. ${problems[0] ?? ''}`,
      );
    }
    const insert = db.prepare(
      `INSERT INTO tabular_addendum (source_id, level, owner, type, action, text, page, valid_from) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const insertRange = db.prepare(
      `INSERT INTO tabular_addendum_range (addendum_id, seq, first_code, last_code, text, qualifier) VALUES (?, ?, ?, ?, ?, ?)`,
    );
    for (const e of events) {
      const id = insert.run(sourceId, e.level, e.owner, e.type, e.action, e.text, e.page, unit.validFrom).lastInsertRowid;
      parseNoteCodeRanges(e.text).forEach((r, seq) => {
        insertRange.run(id, seq, r.first, r.last, r.text, r.qualifier ?? null);
      });
      ctx.progress.add(1);
    }
  },
};
