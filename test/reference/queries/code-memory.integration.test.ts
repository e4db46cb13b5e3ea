// The in-memory code tables against SQL on the full reference database: for every code of every system, on dates
// either side of release boundaries (asked in an order that would expose a billable view shared across the wrong
// dates), the version on the date, the history and the billable descendants must be what the `code` table says.
import { expect, test } from 'vitest';
import type { CodeSystem } from '../../../src/schemas/code-systems.js';
import { sharedReferenceAndSql } from '../../helpers/reference-db.js';

const shared = sharedReferenceAndSql();

const SYSTEMS: readonly CodeSystem[] = ['ICD10CM', 'ICD10PCS', 'ICD9CM_DX', 'ICD9CM_PROC', 'HCPCS'];
// Before, on and after the FY2025 and FY2026 boundaries, back again, and the ICD-9-CM v32 year.
const DATES = ['2026-06-15', '2024-09-30', '2024-10-01', '2025-09-30', '2025-10-01', '2024-09-30', '2015-01-15'];

test('onDate and history answer what the code table holds for every code', () => {
  const onDate = shared.db.prepare(
    `SELECT code, valid_from AS validFrom, valid_to AS validTo, billable, short_title AS shortTitle, long_title AS longTitle
     FROM code WHERE system = ? AND valid_from <= ? AND (valid_to IS NULL OR valid_to >= ?)`,
  );
  const all = shared.db.prepare('SELECT DISTINCT code FROM code WHERE system = ?').pluck();
  const count = shared.db.prepare('SELECT count(*) FROM code WHERE system = ? AND code = ?').pluck();
  let compared = 0;
  const wrong: string[] = [];
  for (const system of SYSTEMS) {
    const codes = all.all(system) as string[];
    expect(codes.length).toBeGreaterThan(1000);
    for (const date of DATES) {
      const expected = onDate.all(system, date, date) as {
        code: string;
        validFrom: string;
        validTo: string | null;
        billable: number;
        shortTitle: string | null;
        longTitle: string | null;
      }[];
      const found = shared.ref.codes.manyOnDate(system, codes, date);
      if (found.size !== expected.length) {
        wrong.push(`${system} ${date}: ${String(found.size)} codes, the table has ${String(expected.length)}`);
      }
      for (const row of expected) {
        const v = found.get(row.code);
        const same =
          v !== undefined &&
          v.validFrom === row.validFrom &&
          v.validTo === row.validTo &&
          v.billable === (row.billable === 1) &&
          v.shortTitle === row.shortTitle &&
          v.longTitle === row.longTitle &&
          shared.ref.codes.onDate(system, row.code, date) === v;
        if (!same) {
          wrong.push(`${system} ${row.code} ${date}`);
        }
        compared += 1;
      }
    }
    // Every interval of a sample of codes, oldest first.
    for (const code of codes.filter((_, i) => i % 97 === 0)) {
      const history = shared.ref.codes.history(system, code);
      const froms = history.map((v) => v.validFrom);
      if (history.length !== count.get(system, code) || froms.join() !== [...froms].sort().join()) {
        wrong.push(`${system} ${code} history`);
      }
    }
  }
  expect(wrong.slice(0, 20)).toEqual([]);
  expect(compared).toBeGreaterThan(500_000);
});

test('manyBillableDescendants counts and lists what a range query on the code table finds, for every header', () => {
  const headers = shared.db.prepare('SELECT DISTINCT code FROM code WHERE system = ? AND billable = 0').pluck();
  const oracle = shared.db
    .prepare(
      `SELECT j.value,
         (SELECT count(*) FROM code c WHERE c.system = @system AND c.code > j.value AND c.code < j.value || '~'
            AND c.billable = 1 AND c.valid_from <= @date AND (c.valid_to IS NULL OR c.valid_to >= @date)),
         (SELECT group_concat(code, ' ') FROM (SELECT c.code FROM code c WHERE c.system = @system AND c.code > j.value
            AND c.code < j.value || '~' AND c.billable = 1 AND c.valid_from <= @date
            AND (c.valid_to IS NULL OR c.valid_to >= @date) ORDER BY c.code LIMIT 10))
       FROM json_each(@codes) j`,
    )
    .raw();
  let compared = 0;
  const wrong: string[] = [];
  for (const system of ['ICD10CM', 'ICD10PCS'] as const) {
    // ICD-10 headers, plus prefixes that are no code (half a category) and a code that is billable.
    const probes = [...(headers.all(system) as string[]), 'S7', 'E1', 'E119', '0D'];
    for (const date of DATES.slice(0, 6)) {
      const found = shared.ref.codes.manyBillableDescendants(system, probes, date, 10);
      for (const [probe, total, list] of oracle.all({ system, date, codes: JSON.stringify(probes) }) as [
        string,
        number,
        string | null,
      ][]) {
        const got = found.get(probe);
        const same = total > 0 ? got?.total === total && got.codes.join(' ') === list : got === undefined;
        if (!same) {
          wrong.push(`${system} ${probe} ${date}: ${JSON.stringify(got)} vs ${String(total)} ${String(list)}`);
        }
        compared += 1;
      }
    }
  }
  expect(wrong.slice(0, 20)).toEqual([]);
  // ICD-9-CM categories are in no file: the prefix rule still counts the codes under them.
  const icd9 = shared.ref.codes.manyBillableDescendants('ICD9CM_DX', ['250', '2500', 'V10'], '2015-01-15', 3);
  expect(icd9.get('250')).toEqual({ codes: ['25000', '25001', '25002'], total: 40 });
  expect(icd9.get('2500')?.total).toBe(4);
  expect(compared).toBeGreaterThan(100_000);
});

test('systemsOf names every system whose table holds the code', () => {
  expect(shared.ref.codes.systemsOf('E119')).toEqual(['ICD10CM']);
  expect(shared.ref.codes.systemsOf('0010')).toEqual(['ICD9CM_DX', 'ICD9CM_PROC']); // 001.0 and 00.10
  expect(shared.ref.codes.systemsOf('NOPE')).toEqual([]);
  const both = shared.db
    .prepare('SELECT code FROM code GROUP BY code HAVING count(DISTINCT system) > 1 LIMIT 1')
    .pluck()
    .get() as string;
  const systems = shared.db
    .prepare('SELECT DISTINCT system FROM code WHERE code = ? ORDER BY system')
    .pluck()
    .all(both);
  expect(shared.ref.codes.systemsOf(both)).toEqual(systems);
});
