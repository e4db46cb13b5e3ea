// The in-memory MCE code lists against SQL on the full reference database: every list on dates either side of the
// MCE version boundaries, the same members in the same order.
import { expect, test } from 'vitest';
import { sharedReferenceAndSql } from '../../helpers/reference-db.js';

const shared = sharedReferenceAndSql();

test('mceListMembers: every list, on each version boundary and the day before it', () => {
  const lists = shared.db.prepare('SELECT DISTINCT list FROM mce_code').pluck().all() as string[];
  const starts = shared.db.prepare('SELECT DISTINCT valid_from FROM mce_code ORDER BY 1').pluck().all() as string[];
  const dayBefore = (iso: string): string => new Date(Date.parse(iso) - 86_400_000).toISOString().slice(0, 10);
  const dates = [...starts, ...starts.map(dayBefore), '2026-06-15'];
  const sql = shared.db.prepare(
    `SELECT code, derived, line FROM mce_code WHERE list = @list AND valid_from <= @date
       AND (valid_to IS NULL OR valid_to >= @date) ORDER BY derived, line`,
  );
  const wrong: string[] = [];
  let members = 0;
  for (const list of lists) {
    for (const date of dates) {
      const expected = (sql.all({ list, date }) as { code: string; line: number }[]).map((r) => `${r.code}@${r.line}`);
      const found = shared.ref.policies.mceListMembers(list, date).map((m) => `${m.code}@${m.source.line}`);
      if (found.join() !== expected.join()) {
        wrong.push(`${list} ${date}`);
      }
      members += found.length;
    }
  }
  expect(lists.length).toBeGreaterThan(20);
  expect(members).toBeGreaterThan(20_000);
  expect(wrong).toEqual([]);
});
