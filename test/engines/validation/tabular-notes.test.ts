// The in-memory note index the Excludes1 and code-first rules read must give every code the same notes, in the same
// order and with the same ranges, as the tabular port's per-code SQL lookup (own and inherited notes).
import Database from 'better-sqlite3';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { coveringRange, firstNaming, notesOf } from '../../../src/engines/validation/rules/tabular-notes.js';
import type { Reference } from '../../../src/reference/index.js';
import { qualifierPattern, type TabularNoteType } from '../../../src/schemas/tabular.js';
import { openSharedReference, sharedReferenceDbPath } from '../../helpers/reference-db.js';

let ref: Reference;
let codes: string[];
/** Sections of the newest release that hold only sections (V00-V99): their notes reach codes the SQL lookup's don't. */
let grouping: { first: string; last: string }[];
beforeAll(async () => {
  ref = await openSharedReference();
  const db = new Database(await sharedReferenceDbPath(), { readonly: true });
  grouping = db
    .prepare(
      `SELECT first_code AS first, last_code AS last FROM tabular_section s
       WHERE source_id = (SELECT id FROM source WHERE dataset = 'icd10cm-tabular' ORDER BY valid_from DESC, id DESC LIMIT 1)
         AND NOT EXISTS (SELECT 1 FROM tabular_diag d WHERE d.source_id = s.source_id AND d.section = s.section)`,
    )
    .all() as { first: string; last: string }[];
  // Every 7th diag of the newest tabular release, plus codes below a diag (7th-character codes).
  const rows = db
    .prepare(
      `SELECT code FROM tabular_diag WHERE source_id = (SELECT id FROM source WHERE dataset = 'icd10cm-tabular'
       ORDER BY valid_from DESC, id DESC LIMIT 1) ORDER BY ord`,
    )
    .all() as { code: string }[];
  db.close();
  codes = rows.filter((_, i) => i % 7 === 0).map((r) => r.code);
  codes.push('S72001A', 'T401X1A', 'O10011');
});
afterAll(() => ref.close());

test.each(['excludes1', 'codeFirst'] as TabularNoteType[])('%s notes match the per-code lookup', (type) => {
  expect(codes.length).toBeGreaterThan(5000);
  let withNotes = 0;
  // On the release's first day: later dates read it with the addenda published since (dx-excludes1.test.ts).
  const start = ref.tabular.releases()[0]?.validFrom ?? '';
  for (const code of codes) {
    const fromSql = ref.tabular.notes(code, { types: [type] });
    const fromIndex = notesOf(ref, code, type, start);
    const expected = fromSql?.notes.map((n) => ({
      id: n.id,
      at: n.at,
      text: n.text,
      // A qualified range is kept when qualifierPattern reads its qualifier (the pattern is tested on its own and by
      // the rules' tests), else left out.
      ranges: ref.tabular
        .noteRanges(n.id)
        .filter((r) => r.qualifier === null || qualifierPattern(r.qualifier, () => 'BCEFHJMNQR') !== undefined)
        .map((r) => ({ first: r.first, last: r.last, text: r.text })),
      rangeTexts: ref.tabular.noteRanges(n.id).map((r) => r.text),
    }));
    const indexed = (fromIndex?.notes ?? []).map((n) => ({ ...n, ranges: n.ranges.map(({ first, last, text }) => ({ first, last, text })) }));
    const category = code.slice(0, 3);
    if (grouping.some((g) => g.first <= category && category <= g.last)) {
      // Under a section of sections: the index has the per-code lookup's notes and the grouping section's too.
      expect(indexed.filter((n) => !grouping.some((g) => n.at === `${g.first}-${g.last}`)), code).toEqual(expected ?? []);
      continue;
    }
    expect(indexed, code).toEqual(expected ?? []);
    withNotes += expected && expected.length > 0 ? 1 : 0;
  }
  expect(withNotes).toBeGreaterThan(100);
});

test('firstNaming gives the first note, in tabular order, of those whose ranges name a code', () => {
  let named = 0;
  for (const code of codes.slice(0, 3000)) {
    const own = notesOf(ref, code, 'excludes1');
    if (own === undefined) {
      continue;
    }
    for (const other of ['K50.0', 'K5000', 'E119', 'O10011', 'S72001A', 'Z3A01', 'A000', code]) {
      const probe = other.replace('.', '');
      // Ranges within one letter first, then the ranges that span letters, each in note order.
      const within = own.notes.flatMap((note) =>
        note.ranges
          .filter((r) => r.first[0] === r.last[0] && r.first[0] !== undefined)
          .map((range) => ({ note, range })),
      );
      const spanning = own.notes.flatMap((note) =>
        note.ranges
          .filter((r) => !(r.first[0] === r.last[0] && r.first[0] !== undefined))
          .map((range) => ({ note, range })),
      );
      const expected = [...within, ...spanning].find((x) => coveringRange({ ...x.note, ranges: [x.range] }, probe));
      const found = firstNaming(own, probe);
      expect(found === undefined ? undefined : { note: found.note, range: found.range }, `${code} ${probe}`).toEqual(
        expected,
      );
      named += found ? 1 : 0;
    }
  }
  expect(named).toBeGreaterThan(10);
});
