// Read side of the ICD-10-CM Tabular List (loader `icd10cm-tabular`): where a code stands (chapter, section,
// ancestors), its instructional notes with the inherited ones, the 7th characters in force, and the code ranges
// notes name. The newest tabular release loaded answers unless a release is asked for; every answer says which
// release it came from, since the newest tabular may be older than the code's own year.
import type Database from 'better-sqlite3';
import { normaliseCode } from '../../schemas/code-systems.js';
import { qualifierPattern, type TabularLevel, type TabularNoteType } from '../../schemas/tabular.js';

/** One loaded tabular release. */
export interface TabularRelease {
  readonly sourceId: number;
  /** `FY2023`. */
  readonly release: string;
  readonly validFrom: string;
  readonly validTo: string | null;
  readonly file: string;
  readonly member: string | null;
}

/** Options shared by the lookups. */
export interface TabularQueryOptions {
  /** Tabular release to read (`FY2017`); the newest loaded when absent. */
  readonly release?: string | undefined;
}

/** A `diag` element of the tabular. */
export interface TabularDiag {
  /** Undotted, upper-case. */
  readonly code: string;
  readonly dotted: string;
  readonly description: string;
  /** Undotted parent `diag`, `null` for a category. */
  readonly parent: string | null;
  /** 1 for a category, 2 for its subcategories, ... */
  readonly depth: number;
  readonly chapter: string;
  readonly section: string;
  /** No child `diag` (it may still need a 7th character). */
  readonly leaf: boolean;
  /** Marked `placeholder="true"` in the XML (an `X` level such as `H21.1X`). */
  readonly placeholder: boolean;
}

/** How a requested code was matched to the tabular. */
export interface TabularMatch {
  readonly release: string;
  /** The requested code, undotted. */
  readonly requested: string;
  /** The tabular `diag` the answer is about: the code itself, the base of a 7th-character code, or the nearest ancestor. */
  readonly matched: string;
  /** The code is a `diag` of this release, or one of the 7th-character codes built from it; `false` when only an ancestor was found (e.g. a code added after this release). */
  readonly exact: boolean;
}

export interface TabularChapter {
  readonly chapter: string;
  readonly description: string;
  readonly firstCode: string | null;
  readonly lastCode: string | null;
}

export interface TabularSection {
  readonly section: string;
  readonly chapter: string;
  readonly description: string;
  readonly firstCode: string;
  readonly lastCode: string;
}

/** Chapter, section and `diag` chain of a code. */
export interface TabularPlacement extends TabularMatch {
  readonly chapter: TabularChapter;
  readonly section: TabularSection;
  /** From the category down to the matched code. */
  readonly diags: readonly TabularDiag[];
}

/** One `<note>` of the tabular, labelled with where it stands and the release it came from. */
export interface TabularNote {
  readonly id: number;
  readonly level: TabularLevel;
  /** Chapter number, section id (`A00-A09`) or dotted code where the note stands. */
  readonly at: string;
  /** Undotted code where the note stands, `null` for a chapter or section note. */
  readonly code: string | null;
  readonly type: TabularNoteType;
  /** Position of the note element among those of the same level (0-based), then of the note inside it. */
  readonly block: number;
  readonly seq: number;
  readonly text: string;
  readonly release: string;
}

/** Notes of a code: those standing at its chapter, section, each ancestor, then the code itself. */
export interface TabularNotes extends TabularMatch {
  readonly notes: readonly TabularNote[];
}

/** A 7th-character value, with the notes the tabular lists under it (`initial encounter for open fracture NOS`). */
export interface SevenChrValue {
  readonly char: string;
  readonly description: string;
  readonly notes: readonly string[];
}

/** The `sevenChrDef` in force for a code. */
export interface SevenChrDefInForce extends TabularMatch {
  readonly level: TabularLevel;
  /** Chapter number, section id or dotted code where the `sevenChrDef` stands. */
  readonly at: string;
  /** The definition stands at another level than the matched code. */
  readonly inherited: boolean;
  readonly values: readonly SevenChrValue[];
}

/** One `sevenChrDef` of a release and where it stands. */
export interface SevenChrDefinition {
  readonly level: TabularLevel;
  /** Undotted code for a `diag`; chapter number or section id otherwise. */
  readonly owner: string;
  /** Chapter number, section id or dotted code. */
  readonly at: string;
  readonly values: readonly SevenChrValue[];
}

/** A code range named by a note. Codes are undotted. */
export interface TabularNoteRange {
  readonly noteId: number;
  readonly seq: number;
  readonly first: string;
  readonly last: string;
  readonly text: string;
  readonly incomplete: boolean;
  readonly qualifier: string | null;
}

/** A 7th-character code built from a leaf and its `sevenChrDef`. */
export interface TabularExtendedCode {
  readonly code: string;
  readonly dotted: string;
  readonly baseCode: string;
  readonly sevenChr: string;
  /** Leaf description, comma, 7th-character description. */
  readonly description: string;
  readonly release: string;
}

/** A note of a {@link TabularNoteIndex}, with the code ranges it names (see `ranges`). */
export interface IndexedNote {
  readonly id: number;
  /** Dotted code, section id or chapter number where the note stands. */
  readonly at: string;
  readonly text: string;
  /**
   * The ranges the note names: those without a qualifier, and those whose qualifier restricts the codes' characters
   * in a form qualifierPattern reads (`with 7th character B`, `with .61-`), with it as `pattern`. A range with a
   * qualifier of another form is left out.
   */
  readonly ranges: readonly {
    readonly first: string;
    readonly last: string;
    readonly text: string;
    readonly pattern?: RegExp | undefined;
  }[];
  /** The text of every range the note names, qualified ones included, in order. */
  readonly rangeTexts: readonly string[];
}

/**
 * Every note of one type in the newest tabular release, for callers checking many codes: a code's notes are those at
 * its category's chapter and section, then at each of its prefixes that is a `diag` (ancestors are prefixes).
 */
export interface TabularNoteIndex {
  readonly release: string;
  /** Notes by owner key: `diag:E11`, `section:A00-A09`, `chapter:1`, in the tabular's order. */
  readonly byOwner: ReadonlyMap<string, readonly IndexedNote[]>;
  /** Each category (`E11`) of the release → the owner keys of its chapter and section. */
  readonly categories: ReadonlyMap<string, { readonly chapter: string; readonly section: string }>;
  /**
   * When the index is a release with the Tabular List addenda published after it applied (its `release` then names
   * the last addenda, `FY2023 + FY2026 addenda`): the changes applied, and the deletions that matched no note.
   */
  readonly addenda?: { readonly applied: number; readonly unmatched: readonly string[] } | undefined;
}

/** The tabular lookups; see {@link createTabularQueries}. */
export interface TabularQueries {
  /** Loaded tabular releases, newest first. */
  releases(): TabularRelease[];
  /** The `diag` of exactly this code (dotted or not), if the release has it. */
  diag(code: string, options?: TabularQueryOptions): (TabularDiag & { readonly release: string }) | undefined;
  /** Chapter, section and ancestor `diag`s of a code (or of its nearest ancestor in the release). */
  placement(code: string, options?: TabularQueryOptions): TabularPlacement | undefined;
  /** Notes of a code with the inherited ones, chapter first, then section, category, ..., the code. */
  notes(
    code: string,
    options?: TabularQueryOptions & { readonly types?: readonly TabularNoteType[] | undefined },
  ): TabularNotes | undefined;
  /** The `sevenChrDef` in force for a code: its own, else the nearest ancestor's (then section, chapter). */
  sevenChrDef(code: string, options?: TabularQueryOptions): SevenChrDefInForce | undefined;
  /**
   * Every `sevenChrDef` of a release (a few hundred), for callers resolving many codes: a code's definition is the
   * one at its nearest `diag` ancestor (ancestors are prefixes), else at its section, else its chapter.
   */
  sevenChrDefinitions(
    options?: TabularQueryOptions,
  ): { readonly release: string; readonly definitions: readonly SevenChrDefinition[] } | undefined;
  /** The code ranges one note names, in order. */
  noteRanges(noteId: number): TabularNoteRange[];
  /** Notes whose code ranges cover a code (e.g. every `excludes1` naming `E11.9`), with the covering range. */
  notesNaming(
    code: string,
    options?: TabularQueryOptions & { readonly types?: readonly TabularNoteType[] | undefined },
  ): { readonly note: TabularNote; readonly range: TabularNoteRange }[];
  /** A 7th-character code built from the tabular (`T8140XA`). */
  extendedCode(code: string, options?: TabularQueryOptions): TabularExtendedCode | undefined;
  /**
   * Every note of a type in one release, read into memory on first use (Excludes1: ~11,000 notes), with the sections
   * and chapters: the newest release, or with `date` the newest that started on or before it (a release answers
   * past its period, never before its start); `undefined` when none is loaded (for the date).
   */
  noteIndex(type: TabularNoteType, date?: string): TabularNoteIndex | undefined;
  /** The newest release that started on or before `date` (the one noteIndex reads for it), if any. */
  releaseOn(date: string): TabularRelease | undefined;
}

interface DiagRow {
  code: string;
  dotted: string;
  description: string;
  parent: string | null;
  depth: number;
  chapter: string;
  section: string;
  leaf: number;
  placeholder: number;
}

interface NoteRow {
  id: number;
  level: TabularLevel;
  owner: string;
  type: TabularNoteType;
  block: number;
  seq: number;
  text: string;
}

interface RangeRow {
  noteId: number;
  seq: number;
  first: string;
  last: string;
  text: string;
  incomplete: number;
  qualifier: string | null;
}

/** The note types the addenda loader reads (icd10cm-tabular-addenda): the others stay as the Tabular XML has them. */
const ADDENDA_TYPES: ReadonlySet<TabularNoteType> = new Set(['excludes1', 'excludes2']);

/** A note's row with one of its ranges (none: nulls), as the note index reads them. */
interface NoteRangeRow {
  id: number;
  level: TabularLevel;
  owner: string;
  text: string;
  first: string | null;
  last: string | null;
  rangeText: string | null;
  qualifier: string | null;
}

/** An IndexedNote while its ranges are read. */
interface IndexedNoteRow {
  id: number;
  at: string;
  text: string;
  ranges: IndexedNote['ranges'][number][];
  rangeTexts: string[];
}

/** A note's text as an addendum and the Tabular XML are compared: case, spacing and spaces inside brackets aside. */
const noteText = (text: string): string =>
  text
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/([([]) /g, '$1')
    .replace(/ ([)\]])/g, '$1')
    .trim();

const DIAG_COLUMNS = 'code, dotted, description, parent, depth, chapter, section, leaf, placeholder';
const RANGE_COLUMNS =
  'r.note_id AS noteId, r.seq, r.first_code AS first, r.last_code AS last, r.text, r.incomplete, r.qualifier';

const toDiag = (r: DiagRow): TabularDiag => ({ ...r, leaf: r.leaf === 1, placeholder: r.placeholder === 1 });
const toRange = (r: RangeRow): TabularNoteRange => ({ ...r, incomplete: r.incomplete === 1 });
const dotted = (code: string): string => (code.length > 3 ? `${code.slice(0, 3)}.${code.slice(3)}` : code);
const atOf = (level: TabularLevel, owner: string): string => (level === 'diag' ? dotted(owner) : owner);

/**
 * Prepares the tabular lookups over a reference database (opened read-only by the caller).
 * @param db - a database built with the `icd10cm-tabular` loader
 */
export function createTabularQueries(db: Database.Database): TabularQueries {
  const releaseRows = db.prepare(
    `SELECT id AS sourceId, release, valid_from AS validFrom, valid_to AS validTo, file, member
     FROM source WHERE dataset = 'icd10cm-tabular' ORDER BY valid_from DESC, id DESC`,
  );
  const diagStmt = db.prepare(`SELECT ${DIAG_COLUMNS} FROM tabular_diag WHERE source_id = ? AND code = ?`);
  // CROSS JOIN keeps the chain as the outer loop: a plain JOIN let the planner scan every diag of the release and
  // probe the chain (~15 ms per call instead of ~0.05 ms).
  const chainStmt = db.prepare(
    `WITH RECURSIVE chain(code, n) AS (
       SELECT @code, 0
       UNION ALL
       SELECT d.parent, chain.n + 1 FROM chain CROSS JOIN tabular_diag d ON d.source_id = @source AND d.code = chain.code WHERE d.parent IS NOT NULL
     )
     SELECT ${DIAG_COLUMNS.split(', ')
       .map((c) => `d.${c}`)
       .join(', ')}
     FROM chain CROSS JOIN tabular_diag d ON d.source_id = @source AND d.code = chain.code ORDER BY chain.n DESC`,
  );
  const chapterStmt = db.prepare(
    'SELECT chapter, description, first_code AS firstCode, last_code AS lastCode FROM tabular_chapter WHERE source_id = ? AND chapter = ?',
  );
  const sectionStmt = db.prepare(
    'SELECT section, chapter, description, first_code AS firstCode, last_code AS lastCode FROM tabular_section WHERE source_id = ? AND section = ?',
  );
  const notesStmt = db.prepare(
    'SELECT id, level, owner, type, block, seq, text FROM tabular_note WHERE source_id = ? AND level = ? AND owner = ? ORDER BY block, seq',
  );
  const sevenChrStmt = db.prepare(
    'SELECT char, description, ord FROM tabular_seven_chr WHERE source_id = ? AND level = ? AND owner = ? ORDER BY ord',
  );
  const allSevenChrStmt = db.prepare(
    'SELECT level, owner, char, description, ord FROM tabular_seven_chr WHERE source_id = ? ORDER BY level, owner, ord',
  );
  const allSevenChrNotesStmt = db.prepare(
    "SELECT level, owner, seq, text FROM tabular_note WHERE source_id = ? AND type = 'sevenChrDef' ORDER BY level, owner, block, seq",
  );
  const rangesStmt = db.prepare(`SELECT ${RANGE_COLUMNS} FROM tabular_note_range r WHERE r.note_id = ? ORDER BY r.seq`);
  const namingStmt = db.prepare(
    `SELECT ${RANGE_COLUMNS}, n.id, n.level, n.owner, n.type, n.block, n.seq AS noteSeq, n.text AS noteText
     FROM tabular_note_range r JOIN tabular_note n ON n.id = r.note_id
     WHERE r.source_id = @source AND r.first_code <= @code
       AND substr(@code, 1, length(r.first_code)) >= r.first_code AND substr(@code, 1, length(r.last_code)) <= r.last_code
     ORDER BY n.id, r.seq`,
  );
  const extendedStmt = db.prepare(
    `SELECT code, dotted, base_code AS baseCode, seven_chr AS sevenChr, description FROM tabular_extended_code WHERE source_id = ? AND code = ?`,
  );

  // The 7th characters of the codes under `code` (or of a definition above it) whose description holds `words`.
  const sevenChrWithStmt = db.prepare(
    `SELECT DISTINCT char FROM tabular_seven_chr
     WHERE source_id = @source AND level = 'diag' AND (owner = substr(@code, 1, length(owner)) OR owner LIKE @code || '%')
       AND instr(lower(description), @words) > 0
     ORDER BY char`,
  );
  const typeNotesStmt = db.prepare(
    `SELECT n.id, n.level, n.owner, n.text, r.first_code AS first, r.last_code AS last, r.text AS rangeText, r.qualifier
     FROM tabular_note n LEFT JOIN tabular_note_range r ON r.note_id = n.id
     WHERE n.source_id = ? AND n.type = ? ORDER BY n.level, n.owner, n.block, n.seq, r.seq`,
  );
  const categoriesStmt = db.prepare(
    'SELECT code, chapter, section FROM tabular_diag WHERE source_id = ? AND depth = 1',
  );
  const noteIndexes = new Map<string, TabularNoteIndex | undefined>();

  let releasesCache: TabularRelease[] | undefined;
  const releases = (): TabularRelease[] => (releasesCache ??= releaseRows.all() as TabularRelease[]);
  const pick = (options?: TabularQueryOptions): TabularRelease | undefined => {
    const all = releases();
    if (options?.release === undefined) {
      return all[0];
    }
    const found = all.find((r) => r.release === options.release);
    if (!found) {
      throw new RangeError(
        `release: no tabular release ${JSON.stringify(options.release)} is loaded (loaded: ${all.map((r) => r.release).join(', ') || 'none'})`,
      );
    }
    return found;
  };
  // Releases are newest first: the first that started by the date.
  const releaseOn = (date: string): TabularRelease | undefined => releases().find((r) => r.validFrom <= date);

  /** A release's notes of one type, with their ranges (a 7th-character qualifier read as a pattern when it can be). */
  const baseNoteIndex = (type: TabularNoteType, rel: TabularRelease): TabularNoteIndex | undefined => {
    const key = `${type}|${rel.sourceId}`;
    if (noteIndexes.has(key)) {
      return noteIndexes.get(key);
    }
    const byOwner = new Map<string, IndexedNote[]>();
    const byId = new Map<number, IndexedNoteRow>();
    const rows = typeNotesStmt.all(rel.sourceId, type) as NoteRangeRow[];
    for (const r of rows) {
      let note = byId.get(r.id);
      if (note === undefined) {
        note = { id: r.id, at: atOf(r.level, r.owner), text: r.text, ranges: [], rangeTexts: [] };
        byId.set(r.id, note);
        const ownerKey = `${r.level}:${r.owner}`;
        const list = byOwner.get(ownerKey);
        if (list) {
          list.push(note);
        } else {
          byOwner.set(ownerKey, [note]);
        }
      }
      addRange(note, r, rel);
    }
    const index: TabularNoteIndex = {
      release: rel.release,
      byOwner,
      categories: new Map(
        (categoriesStmt.all(rel.sourceId) as { code: string; chapter: string; section: string }[]).map((c) => [
          c.code,
          { chapter: `chapter:${c.chapter}`, section: `section:${c.section}` },
        ]),
      ),
    };
    noteIndexes.set(key, index);
    return index;
  };

  /** Adds a range row to a note being built: kept when it has no qualifier or one qualifierPattern reads. */
  const addRange = (note: IndexedNoteRow, r: Omit<NoteRangeRow, 'id' | 'level' | 'owner' | 'text'>, rel: TabularRelease): void => {
    if (r.first !== null && r.last !== null) {
      const first = r.first;
      const pattern =
        r.qualifier === null
          ? undefined
          : qualifierPattern(r.qualifier, (words) =>
              (sevenChrWithStmt.all({ source: rel.sourceId, code: first, words }) as { char: string }[]).map((c) => c.char).join(''),
            );
      if (r.qualifier === null || pattern !== undefined) {
        note.ranges.push({ first, last: r.last, text: r.rangeText ?? '', ...(pattern === undefined ? {} : { pattern }) });
      }
    }
    if (r.rangeText !== null) {
      note.rangeTexts.push(r.rangeText);
    }
  };

  // The Tabular List addenda (icd10cm-tabular-addenda): a database built before their loader has no table for them.
  let addendaCache: { validFrom: string; release: string }[] | undefined;
  const hasAddenda = (): boolean =>
    db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'tabular_addendum'").get() !== undefined;
  const addendaDates = (): { validFrom: string; release: string }[] =>
    (addendaCache ??= hasAddenda()
      ? (db
          .prepare(
            `SELECT DISTINCT a.valid_from AS validFrom, s.release FROM tabular_addendum a JOIN source s ON s.id = a.source_id ORDER BY a.valid_from`,
          )
          .all() as { validFrom: string; release: string }[])
      : []);

  /**
   * A release's notes with the addenda published after it applied, up to and including `last`: an item deleted (or
   * revised from) is taken out of its owner's notes, matched by its text, else by the ranges it names; an item added
   * (or revised to) is put after the owner's notes. Deletions that match no note are counted in `addenda.unmatched`.
   */
  const withAddenda = (
    base: TabularNoteIndex,
    type: TabularNoteType,
    rel: TabularRelease,
    last: { validFrom: string; release: string },
  ): TabularNoteIndex => {
    const rows = db
      .prepare(
        `SELECT a.id, a.level, a.owner, a.action, a.text, r.first_code AS first, r.last_code AS last, r.text AS rangeText, r.qualifier
         FROM tabular_addendum a LEFT JOIN tabular_addendum_range r ON r.addendum_id = a.id
         WHERE a.type = ? AND a.valid_from > ? AND a.valid_from <= ? ORDER BY a.valid_from, a.id, r.seq`,
      )
      .all(type, rel.validFrom, last.validFrom) as (NoteRangeRow & { action: 'add' | 'delete' })[];
    const events = new Map<number, { level: TabularLevel; owner: string; action: 'add' | 'delete'; note: IndexedNoteRow }>();
    for (const r of rows) {
      let e = events.get(r.id);
      if (e === undefined) {
        // Added notes get negative ids: they are no tabular_note row.
        e = { level: r.level, owner: r.owner, action: r.action, note: { id: -r.id, at: atOf(r.level, r.owner), text: r.text, ranges: [], rangeTexts: [] } };
        events.set(r.id, e);
      }
      addRange(e.note, r, rel);
    }
    const byOwner = new Map(base.byOwner);
    const unmatched: string[] = [];
    let applied = 0;
    for (const e of events.values()) {
      const ownerKey = `${e.level}:${e.owner}`;
      const notes = [...(byOwner.get(ownerKey) ?? [])];
      if (e.action === 'add') {
        notes.push(e.note);
      } else {
        const text = noteText(e.note.text);
        let at = notes.findIndex((n) => noteText(n.text) === text);
        if (at === -1 && e.note.rangeTexts.length > 0) {
          const ranges = e.note.rangeTexts.join('|');
          at = notes.findIndex((n) => n.rangeTexts.join('|') === ranges);
        }
        if (at === -1) {
          unmatched.push(`${e.note.at}: ${e.note.text}`);
          continue;
        }
        notes.splice(at, 1);
      }
      byOwner.set(ownerKey, notes);
      applied++;
    }
    return {
      release: `${base.release} + ${last.release}`,
      byOwner,
      categories: base.categories,
      addenda: { applied, unmatched },
    };
  };
  const getDiag = (sourceId: number, code: string): DiagRow | undefined =>
    diagStmt.get(sourceId, code) as DiagRow | undefined;

  /** Matches a code to a `diag` of the release: itself, the base of its 7th-character code, or the nearest ancestor. */
  const resolve = (
    input: string,
    options?: TabularQueryOptions,
  ): { rel: TabularRelease; match: TabularMatch; diag: DiagRow } | undefined => {
    const rel = pick(options);
    const requested = normaliseCode(input);
    if (!rel) {
      return undefined;
    }
    // A 7th-character code stands on its leaf; any other code not in the release on its nearest ancestor.
    const extended = extendedStmt.get(rel.sourceId, requested) as { baseCode: string } | undefined;
    const candidates = extended
      ? [extended.baseCode]
      : Array.from({ length: Math.max(0, requested.length - 2) }, (_, i) => requested.slice(0, requested.length - i));
    for (const candidate of candidates) {
      const diag = getDiag(rel.sourceId, candidate);
      if (diag) {
        return {
          rel,
          diag,
          match: {
            release: rel.release,
            requested,
            matched: diag.code,
            exact: extended !== undefined || candidate === requested,
          },
        };
      }
    }
    return undefined;
  };

  const noteOf = (r: NoteRow, release: string): TabularNote => ({
    id: r.id,
    level: r.level,
    at: atOf(r.level, r.owner),
    code: r.level === 'diag' ? r.owner : null,
    type: r.type,
    block: r.block,
    seq: r.seq,
    text: r.text,
    release,
  });

  const placement = (code: string, options?: TabularQueryOptions): TabularPlacement | undefined => {
    const found = resolve(code, options);
    if (!found) {
      return undefined;
    }
    const { rel, match, diag } = found;
    const chapter = chapterStmt.get(rel.sourceId, diag.chapter) as TabularChapter | undefined;
    const section = sectionStmt.get(rel.sourceId, diag.section) as TabularSection | undefined;
    if (!chapter || !section) {
      return undefined;
    }
    const diags = (chainStmt.all({ code: diag.code, source: rel.sourceId }) as DiagRow[]).map(toDiag);
    return { ...match, chapter, section, diags };
  };

  return {
    releases,
    diag(code, options) {
      const rel = pick(options);
      const row = rel ? getDiag(rel.sourceId, normaliseCode(code)) : undefined;
      return row && rel ? { ...toDiag(row), release: rel.release } : undefined;
    },
    placement,
    notes(code, options) {
      const place = placement(code, options);
      const rel = pick(options);
      if (!place || !rel) {
        return undefined;
      }
      const owners: [TabularLevel, string][] = [
        ['chapter', place.chapter.chapter],
        ['section', place.section.section],
        ...place.diags.map((d): [TabularLevel, string] => ['diag', d.code]),
      ];
      const types = options?.types ? new Set<string>(options.types) : undefined;
      const notes = owners
        .flatMap(([level, owner]) => notesStmt.all(rel.sourceId, level, owner) as NoteRow[])
        .filter((n) => !types || types.has(n.type))
        .map((n) => noteOf(n, rel.release));
      const { release, requested, matched, exact } = place;
      return { release, requested, matched, exact, notes };
    },
    sevenChrDef(code, options) {
      const place = placement(code, options);
      const rel = pick(options);
      if (!place || !rel) {
        return undefined;
      }
      const owners: [TabularLevel, string][] = [
        ...[...place.diags].reverse().map((d): [TabularLevel, string] => ['diag', d.code]),
        ['section', place.section.section],
        ['chapter', place.chapter.chapter],
      ];
      for (const [level, owner] of owners) {
        const chars = sevenChrStmt.all(rel.sourceId, level, owner) as {
          char: string;
          description: string;
          ord: number;
        }[];
        if (chars.length === 0) {
          continue;
        }
        // Notes inside a sevenChrDef share the extensions' order: each belongs to the extension before it.
        const notes = (notesStmt.all(rel.sourceId, level, owner) as NoteRow[]).filter((n) => n.type === 'sevenChrDef');
        const values = chars.map((c, i) => {
          const next = chars[i + 1]?.ord ?? Number.POSITIVE_INFINITY;
          return {
            char: c.char,
            description: c.description,
            notes: notes.filter((n) => n.seq > c.ord && n.seq < next).map((n) => n.text),
          };
        });
        const { release, requested, matched, exact } = place;
        return {
          release,
          requested,
          matched,
          exact,
          level,
          at: atOf(level, owner),
          inherited: !(level === 'diag' && owner === matched),
          values,
        };
      }
      return undefined;
    },
    sevenChrDefinitions(options) {
      const rel = pick(options);
      if (!rel) {
        return undefined;
      }
      const rows = allSevenChrStmt.all(rel.sourceId) as {
        level: TabularLevel;
        owner: string;
        char: string;
        description: string;
        ord: number;
      }[];
      const notes = allSevenChrNotesStmt.all(rel.sourceId) as {
        level: TabularLevel;
        owner: string;
        seq: number;
        text: string;
      }[];
      const definitions: SevenChrDefinition[] = [];
      for (let i = 0; i < rows.length;) {
        const first = rows[i] as (typeof rows)[number];
        let end = i;
        while (end < rows.length && rows[end]?.level === first.level && rows[end]?.owner === first.owner) {
          end++;
        }
        const chars = rows.slice(i, end);
        const own = notes.filter((n) => n.level === first.level && n.owner === first.owner);
        // As in sevenChrDef: a note belongs to the extension before it.
        const values = chars.map((c, k) => {
          const next = chars[k + 1]?.ord ?? Number.POSITIVE_INFINITY;
          return {
            char: c.char,
            description: c.description,
            notes: own.filter((n) => n.seq > c.ord && n.seq < next).map((n) => n.text),
          };
        });
        definitions.push({ level: first.level, owner: first.owner, at: atOf(first.level, first.owner), values });
        i = end;
      }
      return { release: rel.release, definitions };
    },
    noteRanges(noteId) {
      return (rangesStmt.all(noteId) as RangeRow[]).map(toRange);
    },
    notesNaming(code, options) {
      const rel = pick(options);
      if (!rel) {
        return [];
      }
      const types = options?.types ? new Set<string>(options.types) : undefined;
      const rows = namingStmt.all({ source: rel.sourceId, code: normaliseCode(code) }) as (RangeRow &
        NoteRow & { noteSeq: number; noteText: string })[];
      return rows
        .filter((r) => !types || types.has(r.type))
        .map((r) => ({
          note: noteOf(
            {
              id: r.id,
              level: r.level,
              owner: r.owner,
              type: r.type,
              block: r.block,
              seq: r.noteSeq,
              text: r.noteText,
            },
            rel.release,
          ),
          range: toRange(r),
        }));
    },
    releaseOn,
    noteIndex(type, date) {
      const rel = date === undefined ? pick() : releaseOn(date);
      if (rel === undefined) {
        return undefined;
      }
      const base = baseNoteIndex(type, rel);
      if (!ADDENDA_TYPES.has(type)) {
        return base;
      }
      // The addenda published since the release, in force on the date (all of them without a date).
      const since = addendaDates().filter((a) => a.validFrom > rel.validFrom && (date === undefined || a.validFrom <= date));
      const last = since[since.length - 1];
      if (base === undefined || last === undefined) {
        return base;
      }
      const key = `${type}|${rel.sourceId}|${last.validFrom}`;
      if (!noteIndexes.has(key)) {
        noteIndexes.set(key, withAddenda(base, type, rel, last));
      }
      return noteIndexes.get(key);
    },
    extendedCode(code, options) {
      const rel = pick(options);
      const row = rel
        ? (extendedStmt.get(rel.sourceId, normaliseCode(code)) as Omit<TabularExtendedCode, 'release'> | undefined)
        : undefined;
      return row && rel ? { ...row, release: rel.release } : undefined;
    },
  };
}
