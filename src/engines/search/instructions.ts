// The instructional notes of a page of ICD-10-CM codes (operations.md "Search"): each code's own and inherited notes
// (chapter → block → category → code) from the tabular release in force on the date, grouped by type, each note
// once, with the codes and ranges it names.
import type { Reference } from '../../reference/index.js';
import { memoryPerOwner } from '../answer-memory.js';
import { TABULAR_NOTE_TYPES } from '../../schemas/tabular.js';
import type { InstructionType } from '../../schemas/search.js';

/** One note of a code, ready for the result: its type, a key that names the note once, its text and ranges. */
interface CodeNote {
  readonly type: string;
  readonly key: string;
  readonly text: string;
  readonly ranges: string;
}

/** A code's notes per tabular release, remembered per reference (chapter and block notes recur on every page). */
const codeNotes = memoryPerOwner<readonly CodeNote[]>(20_000);

/**
 * A code's notes, own and inherited, in a release, in tabular order: from the newest release's in-memory note index
 * (one read per note type), else read per code.
 */
function notesOfCode(ref: Reference, code: string, release: string | undefined): readonly CodeNote[] {
  return codeNotes(ref.tabular).recall(release ?? '', code, () => {
    const indexes = TABULAR_NOTE_TYPES.map((type) => ({ type, index: ref.tabular.noteIndex(type) }));
    const out: CodeNote[] = [];
    if (indexes.every((x) => x.index === undefined || x.index.release === release)) {
      for (const { type, index } of indexes) {
        const at = index?.categories.get(code.slice(0, 3));
        const owners = [at?.chapter, at?.section, ...Array.from({ length: code.length - 2 }, (_, k) => `diag:${code.slice(0, k + 3)}`)];
        for (const owner of owners) {
          for (const note of owner === undefined ? [] : (index?.byOwner.get(owner) ?? [])) {
            out.push({ type, key: `${type}|${String(note.id)}`, text: note.text, ranges: note.rangeTexts.join(', ') });
          }
        }
      }
      return out;
    }
    for (const note of ref.tabular.notes(code, { release })?.notes ?? []) {
      out.push({
        type: note.type,
        key: `${note.type}|${String(note.id)}`,
        text: note.text,
        ranges: ref.tabular.noteRanges(note.id).map((r) => r.text).join(', '),
      });
    }
    return out;
  });
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
  for (const code of codes) {
    for (const n of notesOfCode(ref, code, release)) {
      add(n.type, n.key, n.text, n.ranges);
    }
  }
  return TABULAR_NOTE_TYPES.filter((t) => byType.has(t)).map((type) => ({ type, instruction: byType.get(type) ?? [] }));
}
