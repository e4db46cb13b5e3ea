// The ICD-10-CM instructional notes a diagnosis carries (its own and those inherited from its category, section and
// chapter), with the code ranges each names, remembered per reference connection: the tabular is read-only and a
// night's claims repeat the same few thousand diagnoses. Shared by the Excludes1 and code-first rules.
import { AnswerMemory } from '../../answer-memory.js';
import { rangeCovers, type TabularNoteType } from '../../../schemas/tabular.js';
import type { ValidationReference } from '../context.js';

/** One note with the ranges it names (ranges with a qualifier such as "with 7th character B" are left out). */
export interface NoteWithRanges {
  /** Dotted code, section or chapter where the note stands. */
  readonly at: string;
  readonly text: string;
  readonly ranges: readonly { readonly first: string; readonly last: string; readonly text: string }[];
}

/** A diagnosis's notes of one type, and the tabular release they come from. */
export interface CodeNotes {
  readonly release: string;
  readonly notes: readonly NoteWithRanges[];
}

const MAX_REMEMBERED = 50_000;
const remembered = new WeakMap<object, AnswerMemory<CodeNotes | null>>();

/**
 * The notes of one type a code carries, own and inherited.
 * @returns `undefined` when no tabular release is loaded or the code's category is not in it
 */
export function notesOf(ref: ValidationReference, code: string, type: TabularNoteType): CodeNotes | undefined {
  let memory = remembered.get(ref.tabular);
  if (memory === undefined) {
    memory = new AnswerMemory(MAX_REMEMBERED);
    remembered.set(ref.tabular, memory);
  }
  const answers = memory.answersFor(type);
  let answer = answers.get(code);
  if (answer === undefined) {
    const found = ref.tabular.notes(code, { types: [type] });
    answer =
      found === undefined
        ? null
        : {
            release: found.release,
            notes: found.notes.map((n) => ({
              at: n.at,
              text: n.text,
              ranges: ref.tabular.noteRanges(n.id).filter((r) => r.qualifier === null),
            })),
          };
    memory.add(answers, code, answer);
  }
  return answer ?? undefined;
}

/** The first range of a note that covers an undotted code. */
export function coveringRange(note: NoteWithRanges, code: string): NoteWithRanges['ranges'][number] | undefined {
  return note.ranges.find((r) => rangeCovers(r, code));
}
