// The instructional notes of a page of ICD-10-CM codes (operations.md "Search"): each code's own and inherited notes
// (chapter → block → category → code) from the tabular release in force on the date, grouped by type, each note
// once, with the codes and ranges it names.
import type { Reference } from '../../reference/index.js';
import { TABULAR_NOTE_TYPES } from '../../schemas/tabular.js';
import type { InstructionType } from '../../schemas/search.js';

/**
 * The instructions of the codes, by note type in the tabular's order.
 * @param ref - the reference (tabular notes and their ranges)
 * @param codes - undotted ICD-10-CM codes
 * @param date - the date of service (picks the tabular release)
 */
export function instructionsOf(ref: Reference, codes: readonly string[], date: string): InstructionType[] {
  if (codes.length === 0) {
    return [];
  }
  const release = ref.tabular.releases().find((r) => r.validFrom <= date && (r.validTo === null || r.validTo >= date))?.release;
  const seen = new Set<number>();
  const byType = new Map<string, { instruction: string; codeRanges: string }[]>();
  for (const code of codes) {
    const notes = ref.tabular.notes(code, { release });
    for (const note of notes?.notes ?? []) {
      if (seen.has(note.id)) {
        continue;
      }
      seen.add(note.id);
      const list = byType.get(note.type) ?? [];
      list.push({ instruction: note.text, codeRanges: ref.tabular.noteRanges(note.id).map((r) => r.text).join(', ') });
      byType.set(note.type, list);
    }
  }
  const order = [...TABULAR_NOTE_TYPES] as string[];
  return [...byType.entries()]
    .sort((a, b) => order.indexOf(a[0]) - order.indexOf(b[0]))
    .map(([type, instruction]) => ({ type, instruction }));
}
