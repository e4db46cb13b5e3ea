// The instructional notes of a page of ICD-10-CM codes (operations.md "Search"): each code's own and inherited notes
// (chapter → block → category → code) from the tabular release in force on the date, grouped by type, each note
// once, with the codes and ranges it names.
import type { Reference } from '../../reference/index.js';
import type { TabularNote } from '../../reference/queries/tabular.js';
import { TABULAR_NOTE_TYPES } from '../../schemas/tabular.js';
import type { InstructionType } from '../../schemas/search.js';

const rangeMemos = new WeakMap<object, Map<number, string>>();
const indexedMemos = new WeakMap<object, Map<string, readonly { type: string; key: string; text: string; ranges: string }[]>>();

/** A code's notes from the newest release's note index, flattened in order, remembered per code (at most 20,000). */
function indexedMemo(ref: Reference): Map<string, readonly { type: string; key: string; text: string; ranges: string }[]> {
  let memo = indexedMemos.get(ref.tabular);
  if (memo === undefined) {
    memo = new Map();
    indexedMemos.set(ref.tabular, memo);
  }
  return memo;
}
const noteMemos = new WeakMap<object, Map<string, readonly TabularNote[]>>();

/** A code's notes, own and inherited, in a release: remembered per reference (at most 20,000 codes). */
function notesMemo(ref: Reference): (code: string, release: string | undefined) => readonly TabularNote[] {
  let memo = noteMemos.get(ref.tabular);
  if (memo === undefined) {
    memo = new Map();
    noteMemos.set(ref.tabular, memo);
  }
  const m = memo;
  return (code, release) => {
    const key = `${code}|${release ?? ''}`;
    let notes = m.get(key);
    if (notes === undefined) {
      notes = ref.tabular.notes(code, { release })?.notes ?? [];
      if (m.size >= 20_000) {
        m.clear();
      }
      m.set(key, notes);
    }
    return notes;
  };
}

/** The code ranges a note names, comma-separated, remembered per note (chapter and block notes recur on every page). */
function rangeMemo(ref: Reference): (noteId: number) => string {
  let memo = rangeMemos.get(ref.tabular);
  if (memo === undefined) {
    memo = new Map();
    rangeMemos.set(ref.tabular, memo);
  }
  const m = memo;
  return (noteId) => {
    let text = m.get(noteId);
    if (text === undefined) {
      text = ref.tabular.noteRanges(noteId).map((r) => r.text).join(', ');
      m.set(noteId, text);
    }
    return text;
  };
}

/**
 * The instructions of the codes, by note type in the tabular's order, each note once.
 * @param ref - the reference (tabular notes and their ranges)
 * @param codes - undotted ICD-10-CM codes
 * @param date - the date of service (picks the tabular release)
 */
export function instructionsOf(ref: Reference, codes: readonly string[], date: string): InstructionType[] {
  if (codes.length === 0) {
    return [];
  }
  const release = ref.tabular.releases().find((r) => r.validFrom <= date && (r.validTo === null || r.validTo >= date))?.release;
  const seen = new Set<string>();
  const byType = new Map<string, { instruction: string; codeRanges: string }[]>();
  const add = (type: string, key: string, instruction: string, codeRanges: string): void => {
    if (seen.has(key)) {
      return;
    }
    seen.add(key);
    const list = byType.get(type) ?? [];
    list.push({ instruction, codeRanges });
    byType.set(type, list);
  };
  // The newest release's notes are in memory (one read per note type); an older release's are read per code.
  const indexes = TABULAR_NOTE_TYPES.map((type) => ({ type, index: ref.tabular.noteIndex(type) }));
  if (indexes.every((x) => x.index === undefined || x.index.release === release)) {
    const memo = indexedMemo(ref);
    for (const code of codes) {
      let notes = memo.get(code);
      if (notes === undefined) {
        const built: { type: string; key: string; text: string; ranges: string }[] = [];
        notes = built;
        for (const { type, index } of indexes) {
          const at = index?.categories.get(code.slice(0, 3));
          const owners = [at?.chapter, at?.section, ...Array.from({ length: code.length - 2 }, (_, k) => `diag:${code.slice(0, k + 3)}`)];
          for (const owner of owners) {
            for (const note of owner === undefined ? [] : (index?.byOwner.get(owner) ?? [])) {
              built.push({ type, key: `${type}|${String(note.id)}`, text: note.text, ranges: note.rangeTexts.join(', ') });
            }
          }
        }
        if (memo.size >= 20_000) {
          memo.clear();
        }
        memo.set(code, notes);
      }
      for (const n of notes) {
        add(n.type, n.key, n.text, n.ranges);
      }
    }
  } else {
    const rangesOf = rangeMemo(ref);
    const notesOf = notesMemo(ref);
    for (const code of codes) {
      for (const note of notesOf(code, release)) {
        add(note.type, `${note.type}|${note.at}|${String(note.id)}`, note.text, rangesOf(note.id));
      }
    }
  }
  return TABULAR_NOTE_TYPES.filter((t) => byType.has(t)).map((type) => ({ type, instruction: byType.get(type) ?? [] }));
}
