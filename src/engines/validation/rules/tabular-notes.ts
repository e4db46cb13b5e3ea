// The ICD-10-CM instructional notes a diagnosis carries (its own and those inherited from its category, section and
// chapter), with the code ranges each names. Read from the tabular port's in-memory note index (one per note type
// and connection) and remembered per code: a night's claims repeat the same diagnoses, and a code's notes never change
// on a read-only reference. Shared by the Excludes1 and code-first rules.
import { memoryPerOwner } from '../../answer-memory.js';
import type { IndexedNote, TabularNoteIndex } from '../../../reference/queries/tabular.js';
import { rangeNames, type TabularNoteType } from '../../../schemas/tabular.js';
import { FactMemo } from '../code-facts.js';
import type { DxView, ValidationReference } from '../context.js';
import type { NotCheckedInput } from '../rule.js';

/** One note with the ranges it names (see IndexedNote.ranges: a 7th-character qualifier is kept and applied). */
export type NoteWithRanges = IndexedNote;

/** A note's range, with the note. */
interface NoteRange {
  readonly note: NoteWithRanges;
  readonly range: NoteWithRanges['ranges'][number];
}

/** A diagnosis's notes of one type, and the tabular release they come from. */
export interface CodeNotes {
  readonly release: string;
  readonly notes: readonly NoteWithRanges[];
  /**
   * The notes' ranges that start and end with one letter, in note order, with that letter's char code: a claim's
   * diagnoses are tested pairwise, and a code has ~3 of them, so a scan comparing one char code beats a map probe.
   */
  readonly sameLetter: readonly LetterRange[];
  /** Bit `c & 31` set for each char code `c` of `sameLetter`: most codes tested have a letter none of them has. */
  readonly letters: number;
  /** The ranges that span letters, in note order. */
  readonly wide: readonly NoteRange[];
}

/** A range within one letter, with the letter's char code. */
interface LetterRange extends NoteRange {
  readonly letter: number;
}

/** Codes remembered across note types before the memory is emptied (ICD-10-CM has ~98,000 codes). */
const remembered = memoryPerOwner<CodeNotes | null>(200_000);

/** A section of a note index, with its range of categories and its chapter. */
interface SectionSpan {
  readonly key: string;
  readonly chapter: string;
  readonly first: string;
  readonly last: string;
}

const sectionSpans = new WeakMap<TabularNoteIndex, SectionSpan[]>();

/**
 * Every section of an index (those its categories stand in, and those that only hold notes, such as V00-V99 above
 * its sub-sections), widest first.
 */
function spansOf(index: TabularNoteIndex): SectionSpan[] {
  let spans = sectionSpans.get(index);
  if (spans === undefined) {
    const chapterOf = new Map<string, string>();
    for (const placed of index.categories.values()) {
      chapterOf.set(placed.section, placed.chapter);
    }
    const keys = new Set([...chapterOf.keys(), ...[...index.byOwner.keys()].filter((k) => k.startsWith('section:'))]);
    spans = [];
    for (const key of keys) {
      const m = /^section:([A-Z]\d[0-9A-Z])-([A-Z]\d[0-9A-Z])$/.exec(key);
      if (m !== null) {
        spans.push({ key, chapter: chapterOf.get(key) ?? '', first: m[1] ?? '', last: m[2] ?? '' });
      }
    }
    spans.sort((a, b) => (a.first < b.first ? -1 : a.first > b.first ? 1 : a.last > b.last ? -1 : a.last < b.last ? 1 : 0));
    sectionSpans.set(index, spans);
  }
  return spans;
}

/**
 * The chapter and sections a category stands in: the sections that hold only sections (V00-V99 above V40-V49) whose
 * range holds it, widest first, then its own. A category the release does not have (added by a later release: W44)
 * is placed in the section whose range holds it, when its name is a letter and two digits: ranges compare as strings,
 * which orders such names as the Tabular does (D3A stands in no D37-D48; a new I1A is left unplaced).
 */
function placementOf(index: TabularNoteIndex, category: string): string[] | null {
  const placed = index.categories.get(category);
  const covering = spansOf(index).filter((s) => s.first <= category && category <= s.last);
  const grouping = covering.filter((s) => s.chapter === '').map((s) => s.key);
  if (placed !== undefined) {
    return [placed.chapter, ...grouping, placed.section];
  }
  const inner = /^[A-Z]\d\d$/.test(category) ? [...covering].reverse().find((s) => s.chapter !== '') : undefined;
  return inner === undefined ? null : [inner.chapter, ...grouping, inner.key];
}

/** The notes at the chapter, the sections and every prefix of the code, in that order. */
function collect(index: TabularNoteIndex, code: string): CodeNotes | null {
  const placed = placementOf(index, code.slice(0, 3));
  if (placed === null) {
    return null;
  }
  const keys = placed;
  for (let n = 3; n <= code.length; n++) {
    keys.push(`diag:${code.slice(0, n)}`);
  }
  const notes: NoteWithRanges[] = [];
  for (const key of keys) {
    const own = index.byOwner.get(key);
    if (own) {
      notes.push(...own);
    }
  }
  const sameLetter: LetterRange[] = [];
  const wide: NoteRange[] = [];
  for (const note of notes) {
    for (const range of note.ranges) {
      const letter = range.first[0] ?? '';
      if (letter !== '' && range.last[0] === letter) {
        sameLetter.push({ note, range, letter: letter.charCodeAt(0) });
      } else {
        wide.push({ note, range });
      }
    }
  }
  let letters = 0;
  for (const r of sameLetter) {
    letters |= letterBit(r.letter);
  }
  return { release: index.release, notes, sameLetter, letters, wide };
}

/**
 * The first note (in tabular order within the code's letter, then the notes whose ranges span letters) that names
 * a code: a claim's diagnoses are tested pairwise, so only the ranges that can hold the code's first letter are read.
 */
export function firstNaming(notes: CodeNotes, code: string): NoteRange | undefined {
  const letter = code.charCodeAt(0);
  if ((notes.letters & letterBit(letter)) === 0) {
    return firstWide(notes, code);
  }
  for (const r of notes.sameLetter) {
    if (r.letter === letter && rangeNames(r.range, code)) {
      return r;
    }
  }
  return firstWide(notes, code);
}

/** The first range spanning letters that covers a code. */
function firstWide(notes: CodeNotes, code: string): NoteRange | undefined {
  for (const r of notes.wide) {
    if (rangeNames(r.range, code)) {
      return r;
    }
  }
  return undefined;
}

/** A char code's bit in `CodeNotes.letters` (letters A-Z get bits 1-26). */
export function letterBit(charCode: number): number {
  return 1 << (charCode & 31);
}

/**
 * The notes of one type a code carries, own and inherited.
 * @param code - undotted, upper-case
 * @param date - the date the code is read on: the notes are the newest release's that started by then (see
 *   TabularQueries.noteIndex); without it, the newest release's
 * @returns `undefined` when no tabular release is loaded (for the date) or the code's category is not in it
 */
export function notesOf(ref: ValidationReference, code: string, type: TabularNoteType, date?: string): CodeNotes | undefined {
  const index = ref.tabular.noteIndex(type, date);
  if (index === undefined) {
    return undefined;
  }
  // Probed inline (as AnswerMemory.recall does): no closure per diagnosis.
  const memory = remembered(ref.tabular);
  const answers = memory.answersFor(`${type}|${index.release}`);
  let answer = answers.get(code);
  if (answer === undefined) {
    answer = collect(index, code);
    memory.add(answers, code, answer);
  }
  return answer ?? undefined;
}

/**
 * Whether a tabular release is loaded for a date (one that started on or before it): a code whose notes are
 * unknown on a date before every release is "not checked" for want of a release, not for its category.
 */
export function tabularOn(ref: ValidationReference, date: string): boolean {
  return ref.tabular.releaseOn(date) !== undefined;
}

/** The not-checked entry of a note rule on a date before every loaded tabular release. */
export function noTabularOn(date: string, notes: string): NotCheckedInput {
  return {
    lines: [],
    reason: `No ICD-10-CM Tabular List loaded starts on or before ${date}: the ${notes} notes of that date are unknown.`,
    missing: `icd10cm-tabular for ${date}`,
  };
}

/** The memo of each note type on a diagnosis's facts. */
const NOTE_MEMOS = new Map<TabularNoteType, FactMemo<CodeNotes | null>>();

/**
 * {@link notesOf} a claim's diagnosis on the date its diagnoses are read on (ClaimView.dxDate), once per code and
 * epoch (memoised on the diagnosis's facts: a tabular release's start bounds an epoch).
 */
export function dxNotesOf(ref: ValidationReference, d: DxView, type: TabularNoteType, date: string): CodeNotes | undefined {
  let memo = NOTE_MEMOS.get(type);
  if (memo === undefined) {
    memo = new FactMemo();
    NOTE_MEMOS.set(type, memo);
  }
  const known = memo.of(d.facts);
  return (known !== undefined ? known : memo.keep(d.facts, notesOf(ref, d.norm, type, date) ?? null)) ?? undefined;
}

/** The first range of a note that covers an undotted code. */
export function coveringRange(note: NoteWithRanges, code: string): NoteWithRanges['ranges'][number] | undefined {
  return note.ranges.find((r) => rangeNames(r, code));
}
